"""The data the service answers from, swapped whole on a reload: on SIGHUP, or when the updates folder changes
(DECKCHECK_UPDATES_POLL). Each request takes the snapshot in force when it arrives (api/observe.py) and is judged
wholly by it, a recheck stream to its last line; answers name its version (Deckcheck-Data-Version). A reload that
fails keeps the data served, logs why as a JSON line naming the file and entry, and is counted in /metrics."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

import orjson
from fastapi import Request

from deckcheck.api.caching import Caching
from deckcheck.api.metrics import Metrics
from deckcheck.data import Data, DataSource
from deckcheck.data.loader import data_files
from deckcheck.errors import DataError
from deckcheck.rules import forget_data
from deckcheck.versions import data_version

DATA_LOG = logging.getLogger("deckcheck.data")


@dataclass(frozen=True, slots=True)
class Served:
    """One load of the data, with its version and the caching validators made from it."""

    data: Data
    version: str
    caching: Caching
    loaded: float  # time.time() of the load


class DataStore:
    """The snapshot served now, and the reloads that replace it."""

    def __init__(self, source: DataSource, data: Data, metrics: Metrics, max_age: int) -> None:
        self.source = source
        self.metrics = metrics
        self.max_age = max_age
        self.current = self._served(data)
        self._lock = asyncio.Lock()
        self._seen = self._fingerprint()

    def _served(self, data: Data) -> Served:
        version = data_version(data)
        return Served(data, version, Caching(version, self.max_age), time.time())

    def _fingerprint(self) -> tuple[tuple[str, int, int], ...]:
        """What a look at the folders sees: each data file's path, size and modification time."""
        found = []
        for _, path in data_files(self.source.folders()):
            with suppress(OSError):  # a file replaced between the listing and the look
                stat = path.stat()
                found.append((str(path), stat.st_size, stat.st_mtime_ns))
        return tuple(found)

    async def reload(self, cause: str) -> bool:
        """Load the data again in a thread and swap them in whole; on failure keep the data served. One reload at
        a time: a signal during a reload is answered by a reload after it."""
        async with self._lock:
            self._seen = await asyncio.to_thread(self._fingerprint)
            started = time.perf_counter()
            try:
                data = await asyncio.to_thread(self.source.load)
            except (DataError, OSError) as exc:
                self.metrics.reloads.labels("failed").inc()
                where = (
                    {"file": exc.file, "entry": exc.entry, "problem": exc.problem}
                    if isinstance(exc, DataError)
                    else {"problem": str(exc)}
                )
                _log("failed", cause, **where, kept=self.current.version)
                return False
            old, self.current = self.current, self._served(data)
            forget_data()
            self.metrics.data_swapped(old.version, self.current.version)
            self.metrics.reloads.labels("ok").inc()
            seconds = round(time.perf_counter() - started, 3)
            _log("ok", cause, version=self.current.version, previous=old.version, seconds=seconds)
            return True

    async def poll(self, every: float) -> None:
        """Reload whenever a look every `every` seconds finds the data files changed."""
        while True:
            await asyncio.sleep(every)
            if await asyncio.to_thread(self._fingerprint) != self._seen:
                await self.reload("updates_changed")

    @asynccontextmanager
    async def watching(self, poll: float) -> AsyncIterator[None]:
        """Reload on SIGHUP (in the main thread, where signals arrive) and, when `poll` is above 0, on a change of
        the files, while the app runs."""
        loop = asyncio.get_running_loop()
        tasks: set[asyncio.Task[object]] = set()

        def on_hup() -> None:
            task = loop.create_task(self.reload("SIGHUP"))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        main = threading.current_thread() is threading.main_thread()
        if main:
            loop.add_signal_handler(signal.SIGHUP, on_hup)
        poller = loop.create_task(self.poll(poll)) if poll > 0 else None
        try:
            yield
        finally:
            if main:
                loop.remove_signal_handler(signal.SIGHUP)
            for task in [*tasks, *([poller] if poller else [])]:
                task.cancel()


def _log(outcome: str, cause: str, **fields: object) -> None:
    line = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "event": "data_reload", "outcome": outcome, "cause": cause}
    DATA_LOG.log(logging.INFO if outcome == "ok" else logging.ERROR, orjson.dumps({**line, **fields}).decode())


def served(request: Request) -> Served:
    """The snapshot the request is judged by: the one in force when it arrived."""
    snapshot: Served = request.scope["deckcheck.served"]
    return snapshot
