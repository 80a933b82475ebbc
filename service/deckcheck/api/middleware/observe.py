"""What every request leaves behind for the operator: a request id (on every log line of the request, as
deckcheck/logs.py writes them), an access-log line and metrics; and a problem+json 500, never a bare crash, when a
route fails, with one log line that holds the traceback."""

from __future__ import annotations

import logging
import random
import re
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck import logs
from deckcheck.api.live_data import DataStore
from deckcheck.api.metrics import Metrics
from deckcheck.api.problems import problem

# A caller's X-Request-ID is kept when it is a plain token of up to 128 characters; otherwise a new one is made.
_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:/+=@-]{1,128}")
# Methods counted by name in the metrics; any other token a client sends counts as "other".
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# The status logged for a request whose client went away before any answer (as nginx logs it).
CLIENT_GONE = 499
# The scope key under which a streamed answer ended early says why (a recheck's last line gives the same reason).
CUT = "deckcheck.cut"
ACCESS_LOG = logging.getLogger("deckcheck.access")
_ERRORS = logging.getLogger("deckcheck.error")


def new_request_id() -> str:
    """A new request id: 32 hex digits, random. Not a secret, so not from the system's source of randomness (a
    system call: `uuid.uuid4` took 3 % of a small check's time); Python's generator is seeded again in each process a
    fork makes, so workers never share a sequence."""
    return f"{random.getrandbits(128):032x}"


class Observe:
    """The outermost middleware but CORS: gives the request its id, answers crashes, logs and counts the request;
    every answer names its request id and the data version it was made from: the snapshot of the data in force
    when the request arrived, which the routes take from the scope (api/live_data.py)."""

    def __init__(self, app: ASGIApp, metrics: Metrics, access_log: bool, store: DataStore) -> None:
        self.app = app
        self.metrics = metrics
        self.access_log = access_log
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"x-request-id", b"")
        request_id = given.decode() if _REQUEST_ID.fullmatch(given) else new_request_id()
        # Every line logged while the request is handled carries its id, and so does every problem+json answer.
        logs.REQUEST_ID.set(request_id)
        start = time.perf_counter()
        snapshot = scope["deckcheck.served"] = self.store.current  # what the whole request is judged by
        version = snapshot.version.encode()
        status = CLIENT_GONE
        sent = 0

        async def observed(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                    (b"deckcheck-data-version", version),
                ]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, observed)
        except Exception:
            fields = {"method": scope["method"], "path": scope["path"]}
            _ERRORS.exception("request %s %s failed", scope["method"], scope["path"], extra=fields)
            if status == CLIENT_GONE:  # nothing sent yet: the client still gets an answer it can read
                detail = "The server failed on this request; the failure has been logged."
                await problem(500, detail)(scope, receive, observed)
            else:
                status = 500
        finally:
            self._record(scope, request_id, status, sent, time.perf_counter() - start)

    def _record(self, scope: Scope, request_id: str, status: int, sent: int, seconds: float) -> None:
        route = scope.get("route")
        path = getattr(route, "path", "unmatched")
        method = scope["method"] if scope["method"] in _METHODS else "other"
        self.metrics.answered(path, method, status, seconds)
        if self.access_log:
            line: dict[str, Any] = {
                "request_id": request_id,
                "client": None if scope.get("client") is None else scope["client"][0],
                "method": scope["method"],
                "path": scope["path"],
                "route": path,
                "status": status,
                "bytes": sent,
                "ms": round(seconds * 1000, 2),
            }
            if CUT in scope:
                line["cut"] = scope[CUT]
            ACCESS_LOG.info("%s %s %s", scope["method"], scope["path"], status, extra=line)
