"""POST /v1/rechecks: NDJSON in, NDJSON out, one result line per deck in input order, then a summary."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from typing import Annotated

import orjson
from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from deckcheck.api.responses import PROBLEMS, pick_language
from deckcheck.batch import MAX_LINE_BYTES, Rechecker, RecheckSetup, Summary, check_chunk
from deckcheck.data import Data
from deckcheck.wire import JAPAN, IsoDate, named_list

ListParam = Annotated[str | None, Query(max_length=200_000, description="A bundled list id or an inline list as JSON.")]


async def _batches(receive: Receive) -> AsyncIterator[tuple[int, list[bytes | None]]]:
    """The complete NDJSON lines of each body chunk as it arrives, with the number of the first (from 1). A line
    over the limit is dropped while it streams in and stands as None, so it costs no memory and still gets its
    error line."""
    number = 1
    pending = bytearray()
    oversized = False
    more = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        pending += message.get("body", b"")
        more = message.get("more_body", False)
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


class _Disconnected(Exception):
    """The client went away before sending its whole body."""


class _RecheckResponse(StreamingResponse):
    """Reads the NDJSON body itself while it answers, so each result leaves as soon as its line is checked."""

    def __init__(self, checker: Rechecker) -> None:
        super().__init__(iter(()), media_type="application/x-ndjson")
        self.checker = checker

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        summary = Summary()
        try:
            async for first, batch in _batches(receive):
                out, part = await run_in_threadpool(check_chunk, self.checker, first, batch)
                summary.merge(part)
                await send({"type": "http.response.body", "body": out, "more_body": True})
        except _Disconnected:
            return
        closing = orjson.dumps(summary.as_json(self.checker.setup, self.checker.data)) + b"\n"
        await send({"type": "http.response.body", "body": closing, "more_body": False})


def build_rechecks_router(data: Data) -> APIRouter:
    """The recheck route, bound to the data loaded at start-up."""
    router = APIRouter(tags=["rechecks"])

    @router.post(
        "/v1/rechecks",
        responses={
            **PROBLEMS,
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
        deckcheck_banlist: Annotated[str | None, Header(max_length=200_000)] = None,
        deckcheck_previous: Annotated[str | None, Header(max_length=200_000)] = None,
        accept_language: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        """Recheck many decks (NDJSON, one `{id, deck…}` a line) against one list, optionally against a previous one."""
        day = date or dt.datetime.now(JAPAN).date()
        chosen = named_list(banlist or deckcheck_banlist, data, ["query", "banlist"]) or data.banlists.in_force(day)
        before = named_list(previous or deckcheck_previous, data, ["query", "previous"])
        setup = RecheckSetup(day, chosen, before, pick_language(accept_language))
        return _RecheckResponse(Rechecker(data, setup))

    return router
