"""Request heads and bodies: size limits enforced before a route reads the request, and a timeout on a body that
stops arriving. The body's timers are asyncio's own (the server runs the app on asyncio): every request with a body
sets two, and anyio's cancel scopes cost three times as much as asyncio.timeout (about 25 µs against 8 a timer)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck.api.problems import problem
from deckcheck.errors import TimedOut

# The scope extension in which `deckcheck serve`'s protocol (api/server.py) says a request's body had been read whole
# when its head was handed to the app: reading it then waits for nothing, and needs no timer.
BODY_READ = "deckcheck.body_read"
# A body (other than a streaming route's) must arrive within this many body timeouts in all, however it trickles.
# An over-limit body, and a refused recheck's (api/middleware/gate.py), is read and thrown away for as long, so that
# a client that sends its whole body before it reads (no Expect: 100-continue: Python's urllib and requests) reads
# the 413 or 503 instead of a reset connection. The bound is time, as nginx's lingering close (lingering_time) bounds
# it, not bytes: a 64 MiB body on a fast link drains in well under a second, and a slow client costs no more than a
# slow legal body does.
WHOLE_BODY_TIMEOUTS = 3


def head_too_large(limit: int) -> str:
    """What a 431 says."""
    return f"The request head is larger than {limit} bytes; send large lists in the request body."


def too_slow(min_rate: float) -> str:
    """What an answer to a streaming body that arrives too slowly says."""
    return f"The request body arrived slower than {min_rate:g} bytes a second."


class BodyStalled(TimedOut):
    """The request body stopped arriving for longer than the body timeout."""


class BodyTooSlow(BodyStalled):
    """A streaming body arrives slower than the least rate, on average over the time spent waiting for it."""


class _TooLarge(Exception):
    """The request body is over the limit; `drain` when the client may be sending it still."""

    def __init__(self, drain: bool) -> None:
        super().__init__()
        self.drain = drain


def timed(receive: Receive, timeout: float, min_rate: float | None = None) -> Receive:
    """`receive`, raising BodyStalled when a part of the body takes longer than `timeout` seconds to come; with
    `min_rate`, BodyTooSlow too when the time spent waiting for the body passes `timeout` plus a second for every
    `min_rate` bytes received (Apache's mod_reqtimeout MinRate). Only the waits count: a recheck that reads its body
    slowly because its checks queue is not the client's fault."""
    done = False
    waited = 0.0
    received = 0

    async def receive_timed() -> Message:
        nonlocal done, waited, received
        if done:  # after the body, receive waits for the client to leave: no timeout on that
            return await receive()
        allowed = timeout if min_rate is None else min(timeout, timeout + received / min_rate - waited)
        began = time.monotonic()
        try:
            async with asyncio.timeout(max(allowed, 0.0)):
                message = await receive()
        except TimeoutError:
            raise (BodyStalled if allowed == timeout else BodyTooSlow) from None
        waited += time.monotonic() - began
        received += len(message.get("body", b""))
        done = message["type"] != "http.request" or not message.get("more_body", False)
        return message

    return receive_timed


async def drained(receive: Receive, timeout: float) -> bool:
    """Read the rest of a request body that will not be used and throw it away, so that a client that sends its whole
    body before it reads gets the answer, not a reset connection: for at most WHOLE_BODY_TIMEOUTS times `timeout`
    seconds in all, and no longer once `receive` (a `timed` one, of `timeout`) finds the body stalled. False when the
    client left meanwhile; a body that stalls or outlasts the time is answered as it stands."""
    with anyio.move_on_after(timeout * WHOLE_BODY_TIMEOUTS):
        try:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return False
                if not message.get("more_body", False):
                    break
        except BodyStalled:
            pass
    return True


def replaying(body: bytes, receive: Receive) -> Receive:
    """`receive` with `body`, already read whole, given again first."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _nothing() -> None:
    """Told of a part of a body read whole already: there is no wait to time."""


def head_size(scope: Scope) -> int:
    """About how many bytes the request head took: request line and headers."""
    line = len(scope["method"]) + len(scope["raw_path"]) + len(scope["query_string"]) + 12
    return line + sum(len(name) + len(value) + 4 for name, value in scope["headers"])


class RequestLimits:
    """Refuse request heads larger than `max_head` bytes with 431, bodies larger than `limit` bytes with 413 and
    bodies that pause longer than `timeout` seconds with 408, before the app reads them. Streaming routes
    (`streaming_paths`) read their bodies line by line and limit each line instead; their receive raises BodyStalled
    when the body stalls, which they answer themselves once their answer has begun.

    The server refuses a head over the limit that arrives in parts (`deckcheck.api.server`); one that arrives whole
    is refused here, with the same answer."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_head: int,
        limit: int,
        timeout: float,
        streaming_paths: frozenset[str],
        min_rate: float,
        path_limits: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_head = max_head
        self.limit = limit
        self.timeout = timeout
        self.streaming_paths = streaming_paths
        self.min_rate = min_rate  # bytes a second a streaming body must keep to, on average
        self.path_limits = dict(path_limits or {})  # routes whose bodies may be larger (or must be smaller)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if head_size(scope) > self.max_head:
            detail = head_too_large(self.max_head)
            await problem(431, detail, kind="head-too-large", headers={"Connection": "close"})(scope, receive, send)
            return
        if scope["path"] in self.streaming_paths:
            try:
                await self.app(scope, timed(receive, self.timeout, self.min_rate), send)
            except BodyStalled as stalled:  # raised only while no answer has begun
                await self._stalled(scope, receive, send, stalled)
            return
        headers = dict(scope["headers"])
        if b"content-length" not in headers and b"transfer-encoding" not in headers:
            await self.app(scope, timed(receive, self.timeout), send)  # no body: nothing to read ahead
            return
        limit = self.path_limits.get(scope["path"], self.limit)
        body = await self._read(scope, headers, receive, send, limit)
        if body is not None:
            await self.app(scope, replaying(body, receive), send)

    async def _read(
        self, scope: Scope, headers: dict[bytes, bytes], receive: Receive, send: Send, limit: int
    ) -> bytes | None:
        """The whole body; None when it was refused (408, 413) or the client left. A body the server had read whole
        (BODY_READ) is read without a timer; any other under `_timed_body`'s."""
        try:
            if BODY_READ in scope.get("extensions", ()):
                return await self._body(headers, receive, limit, _nothing)
            return await self._timed_body(headers, receive, limit)
        except TimeoutError:
            await self._stalled(scope, receive, send)
        except _TooLarge as too_large:
            if not too_large.drain or await drained(timed(receive, self.timeout), self.timeout):
                await self._too_large(scope, receive, send, limit)
        return None

    async def _timed_body(self, headers: dict[bytes, bytes], receive: Receive, limit: int) -> bytes | None:
        """`_body`, one timer bounding each wait for a part to `timeout` and the whole to WHOLE_BODY_TIMEOUTS times it
        (raising TimeoutError): an asyncio timeout costs about 5 µs, a third of this layer's work on a small body,
        which comes whole in one part."""
        loop = asyncio.get_running_loop()
        whole = loop.time() + self.timeout * WHOLE_BODY_TIMEOUTS
        async with asyncio.timeout(min(whole, loop.time() + self.timeout)) as timer:

            def came() -> None:  # a part came: the next may take `timeout` again, within the whole's time
                timer.reschedule(min(whole, loop.time() + self.timeout))

            return await self._body(headers, receive, limit, came)

    async def _body(
        self, headers: dict[bytes, bytes], receive: Receive, limit: int, came: Callable[[], None]
    ) -> bytes | None:
        """The whole body; None when the client left. Raises _TooLarge past the limit: at once, by Content-Length,
        for a client that waits for 100 Continue before it sends. `came` is told of every part but the last."""
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            raise _TooLarge(drain=headers.get(b"expect", b"").lower() != b"100-continue" and declared.isdigit())
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            more = message.get("more_body", False)
            if size > limit:
                raise _TooLarge(drain=more)
            chunks.append(chunk)
            if not more:
                return b"".join(chunks)
            came()

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        detail = f"The request body is larger than {limit} bytes."
        error = {"loc": ["body"], "msg": detail, "type": "body_too_large"}
        await problem(413, detail, [error], "body-too-large", {"Connection": "close"})(scope, receive, send)

    async def _stalled(self, scope: Scope, receive: Receive, send: Send, why: BodyStalled | None = None) -> None:
        if isinstance(why, BodyTooSlow):
            detail, kind = too_slow(self.min_rate), "body_too_slow"
        else:
            detail, kind = (
                (
                    f"The request body stopped arriving for {self.timeout:g} seconds, or took longer than "
                    f"{self.timeout * WHOLE_BODY_TIMEOUTS:g} seconds in all."
                ),
                "body_timeout",
            )
        error = {"loc": ["body"], "msg": detail, "type": kind}
        await problem(408, detail, [error], "body-timeout", {"Connection": "close"})(scope, receive, send)
