"""What a reload costs (docs/benchmarks.md, Reload; bench/reload.py measures the time): it is paced only while checks
run beside it, its data and tables are settled with one collection, and the tables the replaced data held are worked
out again for the new. No wall time is asserted: the machine may be busy with anything."""

from __future__ import annotations

import datetime as dt
import gc
import sys
import time
import weakref
from collections.abc import Iterator

import pytest

from deckcheck.api.live_data import _PACE_LOOK, _paced
from deckcheck.api.metrics import Metrics
from deckcheck.data import DataSource
from deckcheck.data.loader import settle
from deckcheck.data.memo import kept_for
from deckcheck.errors import DataError
from deckcheck.rules import warm
from deckcheck.rules.fast import card_table


def _python_for(seconds: float) -> None:
    """Call Python functions for `seconds`: what a trace function sees."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        _nothing()


def _nothing() -> None:
    pass


def test_a_reload_with_no_check_beside_it_is_not_traced_past_its_first_look() -> None:
    metrics, before, usual = Metrics("v", "test"), sys.gettrace(), sys.getswitchinterval()
    with _paced(metrics):
        traced_at_first = sys.gettrace() is not before
        _python_for(5 * _PACE_LOOK)
        traced_after = sys.gettrace() is not before
    assert (traced_at_first, traced_after) == (True, False)
    assert sys.gettrace() is before
    assert sys.getswitchinterval() == usual


def test_a_reload_beside_running_checks_is_paced_to_its_end() -> None:
    metrics, before, usual = Metrics("v", "test"), sys.gettrace(), sys.getswitchinterval()
    metrics.checks.inc()  # a check running
    with _paced(metrics):
        assert sys.getswitchinterval() < usual or usual <= 0.0005
        _python_for(5 * _PACE_LOOK)
        traced_after = sys.gettrace() is not before
    assert traced_after
    assert sys.gettrace() is before
    assert sys.getswitchinterval() == usual


@pytest.fixture
def _collector() -> Iterator[None]:
    running = gc.isenabled()
    gc.enable()
    yield
    if not running:
        gc.disable()


class _Cycle:
    def __init__(self) -> None:
        self.itself = self


@pytest.mark.usefixtures("_collector")
def test_settle_holds_the_collector_off_for_the_outermost_block_and_settles_once() -> None:
    gc.freeze()  # a process that has started: what is made now is a reload's
    collections: list[int] = []

    def counted(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            collections.append(info["generation"])

    gc.callbacks.append(counted)
    try:
        with settle():
            with settle():  # load_data's own, within a reload's
                dropped = weakref.ref(_Cycle())
            assert not gc.isenabled()
            assert dropped() is not None  # not collected by the inner one
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(counted)
    assert collections == [1]  # the young and middle generations, once
    assert dropped() is None  # collected rather than frozen


@pytest.mark.usefixtures("_collector")
def test_settle_freezes_nothing_when_the_block_raises() -> None:
    gc.freeze()
    frozen = gc.get_freeze_count()

    def broken_load() -> None:
        with settle():
            made = [_Cycle() for _ in range(100)]
            raise DataError("cards.csv", "line 2", f"{len(made)} broken")

    with pytest.raises(DataError):
        broken_load()
    assert gc.isenabled()
    assert gc.get_freeze_count() <= frozen


def test_the_tables_the_replaced_data_held_are_worked_out_for_the_new() -> None:
    source = DataSource()
    old = source.load()
    event = dt.date(2026, 12, 1)
    card_table(old.cards, event, "tcg")  # checks of a tournament's day, not today's
    new = source.load()
    warm(new.cards, dt.date(2026, 12, 4), old.cards)
    held = kept_for(new.cards, card_table)
    assert (event, "tcg") in held
    assert (dt.date(2026, 12, 4), "ocg") in held
    assert card_table(new.cards, event, "tcg") == card_table(old.cards, event, "tcg")  # worked out from the new
