"""The data the service answers from, swapped whole on a reload: on SIGHUP, or when the updates folder changes
(DECKCHECK_UPDATES_POLL). Each request takes the snapshot in force when it arrives (api/middleware/observe.py) and is
judged wholly by it, a recheck stream to its last line; answers name its version (Deckcheck-Data-Version). A reload
that fails, for whatever reason, keeps the data served, logs why as a JSON line naming the file and entry, is counted
in /metrics and makes the data stale in /healthz until a reload succeeds. Each good load is kept on disk as the last
good data (data/lastgood.py), which a process starts on when the folder does not load at its start."""

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
from dataclasses import asdict, dataclass, replace

from fastapi import Request

from deckcheck import __version__
from deckcheck.api.metrics import Metrics
from deckcheck.api.middleware.caching import Caching, cadence_tag
from deckcheck.data import Data, DataSource
from deckcheck.data.lastgood import Stale, check_present, keep, load_kept, stale, update_files
from deckcheck.data.loader import data_files, settle
from deckcheck.data.watchers import Registration
from deckcheck.days import today
from deckcheck.rules import warm
from deckcheck.versions import data_version

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
    stale: Stale | None = None


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
        self._held = len(update_files(source))  # the data files of the updates folder the data served hold
        self._registration: Registration | None = None
        self._pending: list[str] = []  # the causes of the reload asked for after the one running, first first
        self._reloads: asyncio.Task[None] | None = None
        self._unwritable = False

    @classmethod
    def start(cls, source: DataSource, max_age: int) -> DataStore:
        """The store of the data of `source` loaded at start-up, kept as the last good data. When they do not load,
        the last good data kept for its updates folder are served instead, stale, the failure logged and counted:
        a worker started while the folder is broken serves what the others serve. With none kept, or none that
        still load, the load's own error is raised."""
        seen = fingerprint(source)
        try:
            data = source.load()
        except Exception as exc:
            kept = load_kept(source)
            if kept is None:
                raise
            store = cls(source, kept.data, Metrics(data_version(kept.data), __version__), max_age, seen)
            store._held = kept.files
            store._failed(("start",), exc)
            return store
        store = cls(source, data, Metrics(data_version(data), __version__), max_age, seen)
        store._keep(data.digest, seen)
        return store

    def _served(self, data: Data) -> Served:
        version = data_version(data)
        return Served(data, version, Caching(version, self.max_age, cadence_tag(data.cadence)), time.time())

    def ask(self, cause: str) -> asyncio.Task[None]:
        """Have the data reloaded: now, or once the reload running ends, every ask made during it merged into one.
        At most one reload runs and one more waits, whatever the number of signals or changes seen. Returns the
        task that runs them; the reload logs every cause merged into it."""
        if cause not in self._pending:
            self._pending.append(cause)
        if self._reloads is None or self._reloads.done():
            self._reloads = asyncio.get_running_loop().create_task(self._run())
        return self._reloads

    async def _run(self) -> None:
        while self._pending:
            causes, self._pending = self._pending, []
            await self.reload(*causes)

    async def reload(self, *causes: str) -> bool:
        """Load the data again in a thread and swap them in whole, then keep them as the last good data. A load
        that fails, whatever it raises, or that finds the updates folder gone, unreadable or wiped while the data
        served hold files of it (data/lastgood.py `check_present`), keeps the data served (`_failed`). One reload
        at a time."""
        async with self._lock:
            try:
                seen = self._seen = await asyncio.to_thread(fingerprint, self.source)
                started = time.perf_counter()
                data, held = await asyncio.to_thread(self._load)
            except Exception as exc:
                self._failed(causes, exc)
                return False
            retired, self.current, self._held = [self.current], self._served(data), held
            old = retired[0].version
            self.metrics.data_swapped(old, self.current.version)
            self.metrics.reloads.labels("ok").inc()
            seconds = round(time.perf_counter() - started, 3)
            _log("ok", causes, version=self.current.version, previous=old, seconds=seconds)
            if self._registration is not None:
                self._registration.write("ok", self.current.version)
            await asyncio.to_thread(_retire, retired)
            await asyncio.to_thread(self._keep, data.digest, seen)
            return True

    def _failed(self, causes: tuple[str, ...], exc: Exception) -> None:
        """Keep the data served after a load that failed: count it, log one line naming the file and entry at fault,
        make the data stale (since the first failure after the last good load) and say so in the process's record."""
        self.metrics.reloads.labels("failed").inc()
        why = stale(exc, self.current.stale)
        self.current = replace(self.current, stale=why)
        _log("failed", causes, **asdict(why), kept=self.current.version)
        if self._registration is not None:
            self._registration.write("failed", self.current.version, why.problem)

    def _keep(self, digest: str, seen: Fingerprint) -> None:
        """Keep the data just loaded as the last good data (data/lastgood.py), unless the files changed since the
        look that saw `seen`; a state folder that cannot be written is logged once, and the service goes on."""
        try:
            keep(self.source, digest, lambda: fingerprint(self.source) == seen)
        except OSError as exc:
            if not self._unwritable:
                _event("last_good_unwritable", logging.WARNING, "the last good data cannot be kept", problem=str(exc))
            self._unwritable = True

    def _load(self) -> tuple[Data, int]:
        """The data loaded again, with the tables today's checks read, and those the data served held last, already
        worked out (`warm`, rules/engine.py): made with the collector off and moved out of its sight once made
        (data/loader.py `settle`), each of the two steps paced while checks run beside it; and their number of data
        files of the updates folder. DataError first when the folder is gone, unreadable or wiped."""
        check_present(self.source, self._held)
        with settle():
            with _paced(self.metrics):
                data = self.source.load()
            with _paced(self.metrics):
                warm(data.cards, today(), self.current.data.cards)
        return data, len(update_files(self.source))

    async def poll(self, every: float) -> None:
        """Ask for a reload (`ask`) whenever a look every `every` seconds finds the data files changed, and wait
        for it before looking again."""
        while True:
            await asyncio.sleep(every)
            if await asyncio.to_thread(fingerprint, self.source) != self._seen:
                await asyncio.wait([self.ask("updates_changed")])

    @asynccontextmanager
    async def watching(self, poll: float) -> AsyncIterator[None]:
        """Reload on SIGHUP (in the main thread, where signals arrive) and, when `poll` is above 0, on a change of
        the files, while the app runs; the process's record says so to `deckcheck data` (data/watchers.py)."""
        updates = self.source.updates
        _event(
            "data_served",
            logging.INFO,
            "serving the data",
            data_dir=str(self.source.root),
            updates_dir=None if updates is None else str(updates),
            poll_seconds=poll,
            version=self.current.version,
        )
        if updates is not None:
            self._registration = Registration(updates, self.source.root, poll, self.current.version)
            await asyncio.to_thread(self._registration.write, "started", self.current.version)
        loop = asyncio.get_running_loop()
        main = threading.current_thread() is threading.main_thread()
        if main:
            loop.add_signal_handler(signal.SIGHUP, self.ask, "SIGHUP")
            # SIGHUP was ignored while the app started: files changed since they were read are read again now.
            if await asyncio.to_thread(fingerprint, self.source) != self._seen:
                self.ask("changed_while_starting")
        poller = loop.create_task(self.poll(poll)) if poll > 0 else None
        try:
            yield
        finally:
            if main:
                loop.remove_signal_handler(signal.SIGHUP)
            for task in (self._reloads, poller):
                if task is not None:
                    task.cancel()
            if self._registration is not None:
                self._registration.remove()


@contextmanager
def _paced(metrics: Metrics) -> Iterator[None]:
    """While checks run beside it (`metrics.checks`), make the work of this thread step aside for a moment every few
    milliseconds; and every thread hand the GIL on every half millisecond rather than every 5: so that the checks
    running beside a reload wait for it little longer than for another check. With the GIL shared as usual, the
    slowest checks beside a reload wait for it many times longer than for a check (docs/benchmarks.md, Reload).

    The pace is kept by a trace function, called at each Python call (not at each line: it returns None), and
    tracing alone runs Python at little more than half speed, so a reload traced and resting throughout with no
    check beside it would take far longer than it needs. So the trace looks for checks for the first _PACE_LOOK
    seconds of a step only, and takes itself off for the rest of the step if it saw none; once it has seen one, it
    paces the step to its end. Whatever traced the thread before, and the switch interval, are put back afterwards."""
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


def _log(outcome: str, causes: tuple[str, ...], **fields: object) -> None:
    """One line of a reload: `cause`, the first of the `causes` merged into it."""
    ok, said = outcome == "ok", ", ".join(causes)
    message = f"data reloaded ({said})" if ok else f"data reload failed ({said}): the data served are kept"
    level = logging.INFO if ok else logging.ERROR
    _event("data_reload", level, message, outcome=outcome, cause=causes[0], causes=list(causes), **fields)


def _event(event: str, level: int, message: str, **fields: object) -> None:
    """One line of the data's log (deckcheck/logs.py): what happened, as `event` for programs and as `message` for
    people, and the fields."""
    DATA_LOG.log(level, message, extra={"event": event, **fields})


def served(request: Request) -> Served:
    """The snapshot the request is judged by: the one in force when it arrived."""
    snapshot: Served = request.scope["deckcheck.served"]
    return snapshot
