"""A chunk is checked with the garbage collector paused, and the collector is left as it was found; a serving app
freezes what its start-up made and collects at its own thresholds while it serves; a reload frees the young garbage
it finds before it freezes what it made."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import anyio
import pytest

from deckcheck import load_data
from deckcheck.api import create_app
from deckcheck.collector import SERVING_THRESHOLDS, collector_paused


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


@pytest.fixture
def _thresholds_restored() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # the interpreter's, whatever a server of this test process set
    yield
    gc.set_threshold(*before)


@pytest.mark.usefixtures("_thresholds_restored")
def test_a_serving_app_freezes_what_start_up_made_and_collects_less_often() -> None:
    app = create_app()
    made_at_start = [object()]  # a container the collector tracks, as the app's own objects are
    assert any(x is made_at_start for x in gc.get_objects())
    seen: list[object] = []

    async def serve() -> None:
        async with app.router.lifespan_context(app):  # what uvicorn runs around serving
            seen.append(gc.get_threshold())
            seen.append(any(x is made_at_start for x in gc.get_objects()))

    anyio.run(serve)
    assert seen == [SERVING_THRESHOLDS, False]  # and the list frozen, out of the collector's sight
    assert gc.get_threshold() == (700, 10, 10)


class _Cycle:
    """Garbage that only a collection frees: it refers to itself."""

    def __init__(self) -> None:
        self.itself = self


def test_a_reload_frees_the_young_garbage_it_finds_rather_than_freezing_it() -> None:
    gc.freeze()  # a process that has started: what a load makes now is a reload's
    gc.disable()  # no collection of its own may free the cycle first
    dropped = weakref.ref(_Cycle())
    assert dropped() is not None
    load_data()
    gc.collect()
    assert dropped() is None  # frozen with the data, it would live as long as the process
