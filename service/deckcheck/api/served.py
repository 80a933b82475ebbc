"""The data the service answers from, swapped whole on a reload: on SIGHUP, or when the updates folder changes
(DECKCHECK_UPDATES_POLL). Each request takes the snapshot in force when it arrives (api/observe.py) and is judged
wholly by it, a recheck stream to its last line; answers name its version (Deckcheck-Data-Version). A reload that
fails keeps the data served, logs why as a JSON line naming the file and entry, and is counted in /metrics."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass

import orjson
from fastapi import Request

from deckcheck.api.metrics import Metrics
from deckcheck.api.middleware.caching import Caching
from deckcheck.data import Data, DataSource
from deckcheck.data.loader import data_files, settle
from deckcheck.data.watchers import Registration
from deckcheck.errors import DataError
from deckcheck.rules import warm
from deckcheck.versions import data_version
from deckcheck.wire.inputs import today

DATA_LOG = logging.getLogger("deckcheck.data")
# While checks run beside it, a reload works for _PACE_WORK seconds, then rests for _PACE_REST; it looks for them for
# _PACE_LOOK seconds at the start of each step, and leaves the rest of a step where it saw none unpaced (`_paced`).
_PACE_WORK, _PACE_REST, _PACE_LOOK = 0.001, 0.0005, 0.01
_SWITCH_INTERVAL = 0.0005  # seconds a thread keeps the GIL while a reload runs (Python's default: 0.005)
_LIBC = ctypes.CDLL(ctypes.util.find_library("c")) if sys.platform == "linux" else None


Fingerprint = tuple[tuple[str, int, int], ...]


def fingerprint(source: DataSource) -> Fingerprint:
    """What a look at the data files sees: each one's path, size and modification time."""
    found = []
    for _, path in data_files(source.folders()):
        with suppress(OSError):  # a file replaced between the listing and the look
            stat = path.stat()
            found.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Served:
    """One load of the data, with its version and the caching validators made from it."""

    data: Data
    version: str
    caching: Caching
    loaded: float  # time.time() of the load


class DataStore:
    """The snapshot served now, and the reloads that replace it."""

    def __init__(self, source: DataSource, data: Data, metrics: Metrics, max_age: int, seen: Fingerprint) -> None:
        """`data` were loaded from `source` after a look at its files saw `seen`."""
        self.source = source
        self.metrics = metrics
        self.max_age = max_age
        self.current = self._served(data)
        self._lock = asyncio.Lock()
        self._seen = seen
        self._registration: Registration | None = None

    def _served(self, data: Data) -> Served:
        version = data_version(data)
        return Served(data, version, Caching(version, self.max_age), time.time())

    async def reload(self, cause: str) -> bool:
        """Load the data again in a thread and swap them in whole; on failure keep the data served. One reload at
        a time: a signal during a reload is answered by a reload after it."""
        async with self._lock:
            self._seen = await asyncio.to_thread(fingerprint, self.source)
            started = time.perf_counter()
            try:
                data = await asyncio.to_thread(self._load)
            except (DataError, OSError) as exc:
                self.metrics.reloads.labels("failed").inc()
                where = (
                    {"file": exc.file, "entry": exc.entry, "problem": exc.problem}
                    if isinstance(exc, DataError)
                    else {"problem": str(exc)}
                )
                _log("failed", cause, **where, kept=self.current.version)
                if self._registration is not None:
                    self._registration.write("failed", self.current.version, str(where["problem"]))
                return False
            retired, self.current = [self.current], self._served(data)
            old = retired[0].version
            self.metrics.data_swapped(old, self.current.version)
            self.metrics.reloads.labels("ok").inc()
            seconds = round(time.perf_counter() - started, 3)
            _log("ok", cause, version=self.current.version, previous=old, seconds=seconds)
            if self._registration is not None:
                self._registration.write("ok", self.current.version)
            await asyncio.to_thread(_retire, retired)
            return True

    def _load(self) -> Data:
        """The data loaded again, with the tables today's checks read, and those the data served held last, already
        worked out (rules/warm.py): made with the collector off and moved out of its sight once made (data/loader.py
        `settle`), each of the two steps paced while checks run beside it."""
        with settle():
            with _paced(self.metrics):
                data = self.source.load()
            with _paced(self.metrics):
                warm(data.cards, today(), self.current.data.cards)
        return data

    async def poll(self, every: float) -> None:
        """Reload whenever a look every `every` seconds finds the data files changed."""
        while True:
            await asyncio.sleep(every)
            if await asyncio.to_thread(fingerprint, self.source) != self._seen:
                await self.reload("updates_changed")

    @asynccontextmanager
    async def watching(self, poll: float) -> AsyncIterator[None]:
        """Reload on SIGHUP (in the main thread, where signals arrive) and, when `poll` is above 0, on a change of
        the files, while the app runs; the process's record says so to `deckcheck data` (data/watchers.py)."""
        updates = self.source.updates
        _event(
            "data_served",
            logging.INFO,
            data_dir=str(self.source.root),
            updates_dir=None if updates is None else str(updates),
            poll_seconds=poll,
            version=self.current.version,
        )
        if updates is not None:
            self._registration = Registration(updates, self.source.root, poll, self.current.version)
            await asyncio.to_thread(self._registration.write, "started", self.current.version)
        loop = asyncio.get_running_loop()
        tasks: set[asyncio.Task[object]] = set()

        def on_hup(cause: str = "SIGHUP") -> None:
            task = loop.create_task(self.reload(cause))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        main = threading.current_thread() is threading.main_thread()
        if main:
            loop.add_signal_handler(signal.SIGHUP, on_hup)
            # SIGHUP was ignored while the app started: files changed since they were read are read again now.
            if await asyncio.to_thread(fingerprint, self.source) != self._seen:
                on_hup("changed_while_starting")
        poller = loop.create_task(self.poll(poll)) if poll > 0 else None
        try:
            yield
        finally:
            if main:
                loop.remove_signal_handler(signal.SIGHUP)
            for task in [*tasks, *([poller] if poller else [])]:
                task.cancel()
            if self._registration is not None:
                self._registration.remove()


@contextmanager
def _paced(metrics: Metrics) -> Iterator[None]:
    """While checks run beside it (`metrics.checks`), make the work of this thread step aside for a moment every few
    milliseconds; and every thread hand the GIL on every half millisecond rather than every 5: so that the checks
    running beside a reload wait for it little longer than for another check. With the GIL shared as usual, a
    reload beside the checks made the slowest of them seven times slower; paced, under three times (README,
    Benchmarks).

    The pace is kept by a trace function, called at each Python call (not at each line: it returns None), and
    tracing alone runs Python at little more than half speed: traced and resting throughout, a reload with no check
    beside it took 2.4 times as long. So the trace looks for checks for the first _PACE_LOOK seconds of a step only,
    and takes itself off for the rest of the step if it saw none; once it has seen one, it paces the step to its end.
    Whatever traced the thread before, and the switch interval, are put back afterwards."""
    previous, usual = sys.gettrace(), sys.getswitchinterval()
    sys.setswitchinterval(min(usual, _SWITCH_INTERVAL))
    started = last = time.perf_counter()
    seen = False

    def running() -> bool:
        return any(sample.value > 0 for metric in metrics.checks.collect() for sample in metric.samples)

    def pace(frame: object, event: str, arg: object) -> None:
        nonlocal last, seen
        now = time.perf_counter()
        if now - last <= _PACE_WORK:
            return
        seen = seen or running()
        if seen:
            time.sleep(_PACE_REST)
            last = time.perf_counter()
        elif now - started > _PACE_LOOK:
            sys.settrace(previous)  # no check beside this step: the rest of it runs at full speed
        else:
            last = now

    sys.settrace(pace)
    try:
        yield
    finally:
        sys.settrace(previous)
        sys.setswitchinterval(usual)


def _retire(retired: list[Served]) -> None:
    """Let go of the data a reload replaced, here rather than on the event loop (freeing them takes milliseconds),
    and hand the memory they held back to the system (glibc keeps freed memory otherwise, and the process would
    grow by a load's worth of it at every reload); a request still judged by them lets go of them when it ends."""
    retired.clear()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _log(outcome: str, cause: str, **fields: object) -> None:
    _event("data_reload", logging.INFO if outcome == "ok" else logging.ERROR, outcome=outcome, cause=cause, **fields)


def _event(event: str, level: int, **fields: object) -> None:
    """One JSON line of the data's log: its time, what happened, and the fields."""
    line = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "event": event}
    DATA_LOG.log(level, orjson.dumps({**line, **fields}).decode())


def served(request: Request) -> Served:
    """The snapshot the request is judged by: the one in force when it arrived."""
    snapshot: Served = request.scope["deckcheck.served"]
    return snapshot
