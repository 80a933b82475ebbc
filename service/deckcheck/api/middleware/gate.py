"""The gate: a request for a route whose work runs on a pool (api/middleware/admission.py) is admitted or refused by
its head alone, before its body is read or parsed, so a refusal costs the event loop a timer, never a body's reading
and validation."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import anyio
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from deckcheck.api.middleware.admission import Overloaded
from deckcheck.api.middleware.limits import drained, timed
from deckcheck.api.problems import problem

# The longest pause however many are held, at the middle of a refusal's spread: with it a refusal waits 2.5 to 7.5 s.
# Clients often give up on an answer after 5 to 10 s, and one that timed out learns less than one told 503 and
# Retry-After. Capping the spread itself at 5 s instead shortened the mean wait but served fewer good answers under a
# flood and slowed /healthz (docs/benchmarks.md, Overload).
MAX_PAUSE = 5.0


def overloaded_detail(retry_after: int, waited: float | None) -> str:
    """What a 503 of admission says."""
    if waited is not None:
        return f"The check waited {waited:g} s for a thread and was not run; try again in {retry_after} s."
    return f"Every check thread is busy and the queue is full; try again in {retry_after} s."


def refusal(retry_after: int, waited: float | None = None, *, close: bool = False) -> Response:
    """The 503 of a refused request; `close`: close the connection after it (a recheck's body may be long)."""
    headers = {"Retry-After": str(retry_after)} | ({"Connection": "close"} if close else {})
    return problem(503, overloaded_detail(retry_after, waited), kind="overloaded", headers=headers)


@dataclass(frozen=True)
class Gated:
    """A route behind the gate: its path (what the access log and the metrics name a refusal by), how a request is
    counted into its pool (raising Overloaded when it is full) and out again, and, for a route whose body may be long
    (a recheck), the body timeout (DECKCHECK_BODY_TIMEOUT): its refusal reads the body and throws it away, bounded as
    a 413's is (api/middleware/limits.py `drained`), then answers and closes the connection. Without one, a refusal
    leaves the body to the server, which reads past it to the connection's next request."""

    path: str
    enter: Callable[[], None]
    leave: Callable[[], None]
    body_timeout: float | None = None


class Gate:
    """Count each request to a gated route (`routes`, by method and path) into its pool for as long as it runs, or
    refuse it with 503 by its head; every other request passes untouched. A refusal of a route with a body timeout
    (a recheck) reads the body and throws it away once its pause is over, then answers and closes the connection.

    A refusal is sent `pause` seconds after the head came, costing nothing meanwhile but a timer: a client that
    retries at once, as many do, is held to a retry a `pause`, and the loop is left to the checks it admitted. Sent
    at once, refusals come back as fast as they go out and take most of the loop, even made by the head alone
    (docs/benchmarks.md, Overload). When so many refusals are held that sending them within `pause` would pass
    `rate` a second, each waits longer, up to MAX_PAUSE: a flood of up to `rate * MAX_PAUSE` clients (500 by default)
    costs the loop about `rate` refusals a second; past that every refusal waits MAX_PAUSE on average, and they grow
    by a fifth of a refusal a second per client."""

    def __init__(
        self, app: ASGIApp, routes: Mapping[tuple[str, str], Gated], retry_after: int, pause: float, rate: float
    ) -> None:
        self.app = app
        self.routes = dict(routes)
        self.retry_after = retry_after
        self.pause = pause
        self.rate = rate
        self.held = 0  # refusals waiting to be sent; only the event loop's thread reads and writes it

    def pause_now(self) -> float:
        """How long a refusal made now waits, at the middle of its spread: the pause, or longer when the refusals
        held, this one with them, would pass `rate` a second; never past MAX_PAUSE (or the pause, if longer)."""
        if not self.pause:
            return 0.0
        return min(max(self.pause, (self.held + 1) / self.rate), max(self.pause, MAX_PAUSE))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gated = self.routes.get((scope["method"], scope["path"])) if scope["type"] == "http" else None
        if gated is None:
            await self.app(scope, receive, send)
            return
        try:
            gated.enter()
        except Overloaded:
            scope.setdefault("route", gated)  # never routed, it is still counted under its route
            # Spread over half to one and a half pauses: clients refused together would come back together.
            pause = self.pause_now() * (0.5 + random.random())
            self.held += 1
            try:
                await anyio.sleep(pause)
            finally:
                self.held -= 1
            timeout = gated.body_timeout
            # Closed unread, the body would reach a client that sends it whole before it reads (urllib) as a reset;
            # one that waits for 100 Continue has sent none, and reading would ask it for the body it need not send.
            waits = dict(scope["headers"]).get(b"expect", b"").lower() == b"100-continue"
            if timeout is not None and not waits and not await drained(timed(receive, timeout), timeout):
                return  # the client left: no one to answer
            await refusal(self.retry_after, close=timeout is not None)(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            gated.leave()
