"""Admission: the CPU-bound checks run on a few threads behind a bounded queue, so the event loop stays free for
/healthz and /readyz, and a flood of requests is refused at once (503 with Retry-After) instead of queueing without
end."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio
from starlette.requests import Request

from deckcheck.api.metrics import Metrics

T = TypeVar("T")


class Overloaded(Exception):
    """Every check thread is busy and the queue is full."""


class ClientGone(Exception):
    """The client went away while its check waited for a thread: the check is not run."""


class Pool:
    """At most `threads` works run at once on threads of their own and at most `waiting` more wait; past that, refuse
    (Overloaded). Reading paper runs here, so OCR never holds a check thread."""

    def __init__(self, threads: int, waiting: int, metrics: Metrics) -> None:
        self.limiter = anyio.CapacityLimiter(threads)
        self.threads = anyio.CapacityLimiter(threads)
        self.capacity = threads + waiting
        self.admitted = 0
        self.metrics = metrics

    async def run(self, request: Request, work: Callable[[], T]) -> T:
        """Run `work` once a thread is free, or refuse it at once; skip it when the client left while it waited."""
        if self.admitted >= self.capacity:
            self.metrics.rejected.inc()
            raise Overloaded
        self.admitted += 1
        try:
            async with self.limiter:
                if await request.is_disconnected():
                    raise ClientGone
                return await anyio.to_thread.run_sync(work, limiter=self.threads)
        finally:
            self.admitted -= 1


class Admission:
    """At most `threads` checks run at once and at most `waiting` more wait for a thread; past that, refuse. At most
    `rechecks` rechecks run at once; each queues its chunks as checks."""

    def __init__(self, threads: int, waiting: int, rechecks: int, metrics: Metrics) -> None:
        self.limiter = anyio.CapacityLimiter(threads)
        # The threads themselves: a holder of one of the limiter's tokens never waits for one of these.
        self.threads = anyio.CapacityLimiter(threads)
        self.capacity = threads + waiting
        self.admitted = 0  # only the event loop's thread reads and writes these counts
        self.max_rechecks = rechecks
        self.rechecks = 0
        self.metrics = metrics

    @property
    def saturated(self) -> bool:
        """Whether a new check would be refused now."""
        return self.admitted >= self.capacity

    def admit(self) -> None:
        """Refuse a new request (Overloaded) when the queue is full."""
        if self.saturated:
            self.metrics.rejected.inc()
            raise Overloaded

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

    async def run(self, request: Request | None, work: Callable[[], T]) -> T:
        """Run `work` on a check thread once one is free; skip it when `request`'s client left while it waited."""
        self.admitted += 1
        self.metrics.checks.inc()
        try:
            async with self.limiter:
                if request is not None and await request.is_disconnected():
                    raise ClientGone
                return await anyio.to_thread.run_sync(work, limiter=self.threads)
        finally:
            self.admitted -= 1
            self.metrics.checks.dec()

    async def check(self, request: Request, work: Callable[[], T]) -> T:
        """Admit a request's check, or refuse it at once, then run it."""
        self.admit()
        return await self.run(request, work)
