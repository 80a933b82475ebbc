"""Admission: the CPU-bound work runs on a few threads behind a bounded queue, so the event loop stays free for
/healthz and /readyz. A request is admitted or refused by its head alone (api/middleware/gate.py), before its body is
read, so a refusal costs microseconds; once admitted it waits for a thread at most `queue_seconds`, and is refused
rather than run after its client has stopped waiting.

The queue is FIFO with that deadline. It is bounded in length, so its standing delay at full load is small (a full
queue of legal checks clears in tens of milliseconds) and first come, first served is fair to clients that wait their
turn; LIFO would serve the newest retry ahead of them, and CoDel's adaptive target adds nothing a fixed bound on
length and wait does not, for work of a few milliseconds. The deadline matters for the long requests (a text list of
mistyped names, a sheet)."""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import anyio
from starlette.requests import Request

from deckcheck.api.metrics import Metrics
from deckcheck.errors import Unavailable

T = TypeVar("T")
# The scope extension in which `deckcheck serve`'s protocol (api/server.py) says when a request's head was read:
# {"at": time.monotonic()}. Without it (the app called in-process) the loop is taken to be on time.
HEAD_READ = "deckcheck.head_read"


class Overloaded(Unavailable):
    """Every thread is busy and the queue is full, or the work waited longer than its client would."""

    def __init__(self, waited: float | None = None) -> None:
        super().__init__()
        self.waited = waited  # seconds waited in the queue before the refusal; None: refused on arrival


class ClientGone(Exception):
    """The client went away while its work waited for a thread: the work is not run."""


class Pool:
    """At most `threads` works run at once on threads of their own and at most `waiting` more are admitted to wait;
    past that, refuse (Overloaded). A work admitted waits for a thread at most `queue_seconds`.

    Each work is handed to its thread by the event loop, one at a time. A pool whose threads took their next work
    themselves kept more checks running under a flood, but they then held the GIL back to back and the loop waited
    for it, /healthz with it (docs/benchmarks.md, Overload)."""

    def __init__(
        self, threads: int, waiting: int, metrics: Metrics, queue_seconds: float, *, inline_lag: float = 0
    ) -> None:
        self.inline_lag = inline_lag
        self.limiter = anyio.CapacityLimiter(threads)
        # The threads themselves: a holder of one of the limiter's tokens never waits for one of these. A work is
        # handed to them at once, where anyio's to_thread first yields to the loop twice: on a loop kept busy by small
        # checks each yield waits for every task ready before it, and a check held its slot 8 ms for 1.2 ms of work
        # (docs/benchmarks.md, The web edge).
        self.threads = ThreadPoolExecutor(threads, thread_name_prefix="deckcheck-check")
        self.capacity = threads + waiting
        self.admitted = 0  # only the event loop's thread reads and writes the counts
        self.queue_seconds = queue_seconds
        self.metrics = metrics

    @property
    def saturated(self) -> bool:
        """Whether a new work would be refused now."""
        return self.admitted >= self.capacity

    def enter(self) -> None:
        """Count a request in, or refuse it (Overloaded) when the queue is full; every entry must `leave`."""
        if self.saturated:
            self.metrics.rejected.inc()
            raise Overloaded
        self.admitted += 1

    def leave(self) -> None:
        """A request counted in has ended."""
        self.admitted -= 1

    async def run(self, request: Request | None, work: Callable[[], T], *, inline: bool = False) -> T:
        """Run `work` of a request already counted in, on a thread once one is free; refuse it (Overloaded) when it
        waited longer than `queue_seconds`; skip it when it waited and `request`'s client has left meanwhile. A work
        that finds a thread free takes it at once: no timer is set, and the client, whose request has just been
        read, is not asked after (asking costs a tenth of a small check's time in the app).

        An `inline` work, one its input bounds to a cost no larger than the hop to a thread and back, runs at once on
        the event loop, as the request's reading and answering do, unless the loop is behind: when the request waited
        more than `inline_lag` seconds for it since its head was read (HEAD_READ), the work waits for a thread as
        any other. Run on the loop under a flood, the checks would leave every request, /healthz's among them,
        waiting for all those read before it; on threads they are held by the queue's bounds, and the loop is not
        (docs/benchmarks.md, The web edge)."""
        self.metrics.checks.inc()
        try:
            if inline and not self._behind(request):
                return work()
            try:
                self.limiter.acquire_nowait()
                waited = False
            except anyio.WouldBlock:
                with anyio.move_on_after(self.queue_seconds) as waiting:
                    await self.limiter.acquire()
                if waiting.cancelled_caught:
                    self.metrics.rejected.inc()
                    raise Overloaded(self.queue_seconds) from None
                waited = True
            try:
                if waited and request is not None and await request.is_disconnected():
                    raise ClientGone
                return await self._on_thread(work)
            finally:
                self.limiter.release()
        finally:
            self.metrics.checks.dec()

    async def _on_thread(self, work: Callable[[], T]) -> T:
        """`work`'s result, run on one of the threads in the request's context (its request id on its log lines)."""
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self.threads, context.run, work)

    def _behind(self, request: Request | None) -> bool:
        """Whether `request` waited for the event loop longer than `inline_lag` since its head was read."""
        read = None if request is None else request.scope.get("extensions", {}).get(HEAD_READ)
        return read is not None and time.monotonic() - read["at"] > self.inline_lag

    async def check(self, request: Request, work: Callable[[], T]) -> T:
        """Count a request in (or refuse it) and run its work: for a route the gate does not admit by its head."""
        self.enter()
        try:
            return await self.run(request, work)
        finally:
            self.leave()


class Admission(Pool):
    """The check threads, and at most `rechecks` rechecks at once; each recheck queues its chunks as checks."""

    def __init__(
        self,
        threads: int,
        waiting: int,
        rechecks: int,
        metrics: Metrics,
        queue_seconds: float,
        *,
        inline_lag: float = 0,
    ) -> None:
        super().__init__(threads, waiting, metrics, queue_seconds, inline_lag=inline_lag)
        self.max_rechecks = rechecks
        self.rechecks = 0

    def open_recheck(self) -> None:
        """Count a new recheck in, or refuse it (Overloaded) when the most rechecks run or the checks are saturated;
        every recheck opened must be closed."""
        if self.rechecks >= self.max_rechecks or self.saturated:
            self.metrics.rejected.inc()
            raise Overloaded
        self.rechecks += 1

    def close_recheck(self) -> None:
        """A recheck has ended."""
        self.rechecks -= 1

    async def run_chunk(self, work: Callable[[], T]) -> T:
        """Run a recheck's chunk as a check: counted in the queue while it waits, never refused for being full (the
        recheck was admitted whole), nor for its wait."""
        self.admitted += 1
        self.metrics.checks.inc()
        try:
            async with self.limiter:
                return await self._on_thread(work)
        finally:
            self.admitted -= 1
            self.metrics.checks.dec()
