"""Admission and readiness in-process: a full queue refuses at once, a client that left is not worked for, and a
stop signal makes the server not ready while the server's own handler still runs."""

from __future__ import annotations

import signal
import threading
from types import FrameType

import anyio
import pytest

from deckcheck.api.health import Lifecycle
from deckcheck.api.metrics import Metrics
from deckcheck.api.middleware.admission import Admission, ClientGone, Overloaded


class _Gone:
    """Stands in for a request whose client has disconnected."""

    async def is_disconnected(self) -> bool:
        return True


def test_a_full_queue_refuses_at_once_and_frees_when_the_checks_end() -> None:
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"))
    release = threading.Event()
    results: list[bool] = []

    async def run() -> None:
        async with anyio.create_task_group() as group:
            for _ in range(2):
                group.start_soon(_run_and_record, admission, release, results)
            while admission.admitted < 2:
                await anyio.sleep(0.01)
            assert admission.saturated
            with pytest.raises(Overloaded):
                admission.admit()
            release.set()
        assert not admission.saturated
        admission.admit()

    anyio.run(run)
    assert results == [True, True]
    assert admission.metrics.registry.get_sample_value("deckcheck_admission_rejections_total") == 1


async def _run_and_record(admission: Admission, release: threading.Event, results: list[bool]) -> None:
    results.append(await admission.run(None, release.wait))


def test_work_for_a_client_that_left_while_waiting_is_not_run() -> None:
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"))
    ran: list[int] = []

    async def run() -> None:
        with pytest.raises(ClientGone):
            await admission.run(_Gone(), lambda: ran.append(1))  # type: ignore[arg-type]

    anyio.run(run)
    assert ran == []
    assert admission.admitted == 0


def test_a_stop_signal_marks_the_server_draining_and_reaches_the_server() -> None:
    caught: list[int] = []

    def server_handler(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    async def run() -> None:
        lifecycle = Lifecycle()
        lifecycle.watch_signals()
        assert not lifecycle.draining
        signal.raise_signal(signal.SIGTERM)
        assert lifecycle.draining
        assert caught == [signal.SIGTERM]

    previous = signal.signal(signal.SIGTERM, server_handler)
    try:
        anyio.run(run)
    finally:
        signal.signal(signal.SIGTERM, previous)
