"""POST /v1/rechecks: NDJSON in, NDJSON out, one result line per deck in input order, then a summary."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse
from starlette.types import Message, Receive, Scope, Send

from deckcheck.api.admission import Admission
from deckcheck.api.limits import BodyStalled
from deckcheck.api.metrics import Metrics
from deckcheck.api.responses import CHECK_PROBLEMS, pick_language
from deckcheck.batch import MAX_LINE_BYTES, Rechecker, RecheckSetup, Summary, check_chunk
from deckcheck.data import Data
from deckcheck.wire import JAPAN, IsoDate, named_list

# An inline list travels in the request head, which holds 64 KiB by default (DECKCHECK_MAX_HEAD_BYTES).
MAX_LIST_CHARS = 60_000
ListParam = Annotated[
    str | None, Query(max_length=MAX_LIST_CHARS, description="A bundled list id or an inline list as JSON.")
]


async def _batches(receive: Receive) -> AsyncIterator[tuple[int, list[bytes | None]]]:
    """The complete NDJSON lines of each body chunk as it arrives, with the number of the first (from 1). A line
    over the limit is dropped while it streams in and stands as None, so it costs no memory and still gets its
    error line."""
    number = 1
    pending = bytearray()
    oversized = False
    more = True
    first = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        pending += message.get("body", b"")
        more = message.get("more_body", False)
        if first and (len(pending) >= len(_BOM) or not more):
            first = False
            if pending.startswith(_BOM):  # a byte order mark some editors write: not part of line 1
                del pending[: len(_BOM)]
        batch: list[bytes | None] = []
        while (end := pending.find(b"\n")) >= 0:
            batch.append(None if oversized else bytes(pending[:end]))
            del pending[: end + 1]
            oversized = False
        if len(pending) > MAX_LINE_BYTES:
            oversized = True
            pending.clear()
        if batch:
            yield number, batch
            number += len(batch)
    if pending or oversized:
        yield number, [None if oversized else bytes(pending)]


_BOM = "\ufeff".encode()
HELD_IN_MEMORY = 8 * 1024 * 1024  # result bytes kept in memory before they go to a temporary file


class _Disconnected(Exception):
    """The client went away before sending its whole body."""


class _Held:
    """Result lines kept until the whole body has been read (in memory up to HELD_IN_MEMORY, then on disk), for
    proxies that stop sending a request body once the answer begins (nginx does)."""

    def __init__(self) -> None:
        self.file = tempfile.SpooledTemporaryFile(max_size=HELD_IN_MEMORY)  # noqa: SIM115 - closed in send_all

    def write(self, lines: bytes) -> None:
        """Keep result lines."""
        self.file.write(lines)

    async def send_all(self, send: Send, start: Message, last: bytes) -> None:
        """Begin the answer and send every kept line, then `last`."""
        with self.file:
            await send(start)
            self.file.seek(0)
            while block := self.file.read(256 * 1024):
                await send({"type": "http.response.body", "body": block, "more_body": True})
        await send({"type": "http.response.body", "body": last, "more_body": False})


class _RecheckResponse(StreamingResponse):
    """Reads the NDJSON body itself while it answers, so each result leaves as soon as its line is checked; or, when
    the request asks (Deckcheck-Hold-Results: 1), once the whole body has been read."""

    def __init__(self, checker: Rechecker, admission: Admission, metrics: Metrics, hold: bool) -> None:
        super().__init__(iter(()), media_type="application/x-ndjson")
        self.checker = checker
        self.admission = admission
        self.metrics = metrics
        self.held = _Held() if hold else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start: Message = {"type": "http.response.start", "status": 200, "headers": self.raw_headers}
        if self.held is None:
            await send(start)
        summary = Summary()
        try:
            async for first, batch in _batches(receive):
                # Admitted at the start, the recheck then queues each chunk like any check: never refused midway.
                out, part = await self.admission.run(None, partial(check_chunk, self.checker, first, batch))
                self._count(part)
                summary.merge(part)
                if self.held is None:
                    await send({"type": "http.response.body", "body": out, "more_body": True})
                else:
                    self.held.write(out)
        except _Disconnected:
            return
        except BodyStalled:
            if self.held is not None:  # nothing sent yet: a plain 408, as for any other route
                raise
            # The answer has begun: the last line says why it ends without a summary.
            stalled = {
                "line": None,
                "id": None,
                "error": {"msg": "the request body stopped arriving", "type": "body_timeout"},
            }
            await send({"type": "http.response.body", "body": orjson.dumps(stalled) + b"\n", "more_body": False})
            return
        closing = orjson.dumps(summary.as_json(self.checker.setup, self.checker.data)) + b"\n"
        if self.held is None:
            await send({"type": "http.response.body", "body": closing, "more_body": False})
        else:
            await self.held.send_all(send, start, closing)

    def _count(self, part: Summary) -> None:
        self.metrics.count_codes(part.by_code)
        for outcome, lines in (("legal", part.legal), ("illegal", part.illegal), ("error", part.errors)):
            if lines:
                self.metrics.recheck_lines.labels(outcome).inc(lines)


def build_rechecks_router(data: Data, admission: Admission, metrics: Metrics) -> APIRouter:
    """The recheck route, bound to the data loaded at start-up."""
    router = APIRouter(tags=["rechecks"])

    @router.post(
        "/v1/rechecks",
        responses={
            **CHECK_PROBLEMS,
            200: {
                "content": {"application/x-ndjson": {}},
                "description": "One result line per deck, then a summary line.",
            },
        },
        openapi_extra={
            "requestBody": {"required": True, "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}
        },
    )
    def rechecks(
        *,
        banlist: ListParam = None,
        date: Annotated[IsoDate | None, Query(description="Event date; default today in Japan.")] = None,
        previous: ListParam = None,
        deckcheck_banlist: Annotated[str | None, Header(max_length=MAX_LIST_CHARS)] = None,
        deckcheck_previous: Annotated[str | None, Header(max_length=MAX_LIST_CHARS)] = None,
        accept_language: Annotated[str | None, Header()] = None,
        deckcheck_hold_results: Annotated[
            Literal["0", "1"], Header(description="1: answer once the whole body is read (for proxies such as nginx).")
        ] = "0",
    ) -> StreamingResponse:
        """Recheck many decks (NDJSON, one `{id, deck…}` a line) against one list, optionally against a previous one."""
        day = date or dt.datetime.now(JAPAN).date()
        chosen = named_list(banlist or deckcheck_banlist, data, ["query", "banlist"]) or data.banlists.in_force(day)
        before = named_list(previous or deckcheck_previous, data, ["query", "previous"])
        setup = RecheckSetup(day, chosen, before, pick_language(accept_language))
        admission.admit()
        return _RecheckResponse(Rechecker(data, setup), admission, metrics, deckcheck_hold_results == "1")

    return router
