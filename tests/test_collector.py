"""A chunk is checked with the garbage collector paused, and the collector is left as it was found."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from deckcheck.batch.collector import collector_paused


@pytest.fixture(autouse=True)
def _restored() -> Iterator[None]:
    running = gc.isenabled()
    yield
    if running:
        gc.enable()
    else:
        gc.disable()


def test_paused_within_and_running_after() -> None:
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_running_again_after_an_error_within() -> None:
    gc.enable()
    with pytest.raises(ValueError, match="a chunk failed"), collector_paused():
        raise ValueError("a chunk failed")
    assert gc.isenabled()


def test_a_collector_paused_already_stays_paused() -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_nested_pauses_leave_it_running_once_the_outer_ends() -> None:
    gc.enable()
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
