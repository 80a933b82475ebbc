"""POST /v1/rechecks: NDJSON in, NDJSON out, one result line per deck in input order, then a summary."""

from __future__ import annotations

import asyncio
import contextlib
from functools import partial
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError
from starlette.types import Message, Receive, Scope, Send

from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import served
from deckcheck.api.metrics import Metrics
from deckcheck.api.middleware.admission import Admission
from deckcheck.api.middleware.limits import BodyStalled, BodyTooSlow
from deckcheck.api.middleware.observe import CUT
from deckcheck.api.problems import problem
from deckcheck.api.recheck_io import Disconnected, Held, HeldTooLarge, ndjson_batches
from deckcheck.api.responses import RECHECK_PROBLEMS, AcceptLanguage, pick_language
from deckcheck.batch import BatchSpec, Rechecker, Summary
from deckcheck.days import today
from deckcheck.model import Format
from deckcheck.wire.request_values import IsoDate

# Request headers whose values are text beyond ASCII: an inline list in Deckcheck-Banlist or Deckcheck-Previous
# names cards and itself in Japanese. HTTP carries a header's value as bytes, and Starlette reads them as latin-1
# (a character a byte). curl, Go's net/http and a client handed bytes send the UTF-8 of the text (a browser's fetch
# refuses such a header outright; the Python client escapes it to ASCII JSON, which reads the same either way), so
# such a value is read back as the UTF-8 its bytes are, and bytes that are no UTF-8 are refused, not guessed at.


def _utf8(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return value.encode("latin-1").decode("utf-8")  # the bytes sent, since latin-1 maps each to a character
    except UnicodeDecodeError as exc:
        raise PydanticCustomError(
            "header_not_utf8",
            "not UTF-8 text (at byte {byte}, counting from 0): send the list as UTF-8, or as JSON escaped to ASCII",
            {"byte": exc.start},
        ) from None


UTF8 = AfterValidator(_utf8)
"""A header parameter's value read as UTF-8: `Annotated[str | None, Header(…), UTF8]`; 422 for other bytes."""


# An inline list travels in the request head, which holds 64 KiB by default (DECKCHECK_MAX_HEAD_BYTES).
MAX_LIST_CHARS = 60_000
_LIST = "A bundled list id, or an inline list as JSON ({name, forbidden, limited, semi_limited})"
ListParam = Annotated[
    str | None,
    Query(
        max_length=MAX_LIST_CHARS,
        description=_LIST + "; default: the list in force on the date.",
        examples=["ocg-2008-09-01"],
    ),
]
PreviousParam = Annotated[
    str | None,
    Query(
        max_length=MAX_LIST_CHARS,
        description=_LIST + ". Each deck is also checked against it, to tell what the change made illegal.",
        examples=["ocg-2008-03-01"],
    ),
]
ListHeader = Annotated[
    str | None,
    Header(
        max_length=MAX_LIST_CHARS,
        description="The list, as the query parameter of the same name takes it, for a list too long for a URL.",
        examples=['{"name": "House list", "forbidden": [55144522], "limited": [], "semi_limited": []}'],
    ),
    UTF8,
]


class _RecheckResponse(StreamingResponse):
    """Reads the NDJSON body itself while it answers, so each result leaves as soon as its line is checked; or, when
    the request asks (Deckcheck-Hold-Results: 1), once the whole body has been read. The recheck was admitted
    by its head, before its body was read (api/middleware/gate.py), and is counted out when the answer ends."""

    def __init__(self, checker: Rechecker, admission: Admission, metrics: Metrics, held: Held | None) -> None:
        # The connection closes after the answer: a body the answer stopped reading (cut, or too slow) is never left
        # half-sent on a connection that would be used again.
        super().__init__(iter(()), media_type="application/x-ndjson", headers={"Connection": "close"})
        self.checker = checker
        self.admission = admission
        self.metrics = metrics
        self.held = held

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self._answer(scope, receive, send)
        finally:
            if self.held is not None:
                self.held.close()

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        start: Message = {"type": "http.response.start", "status": 200, "headers": self.raw_headers}
        if self.held is None:
            await send(start)
        summary = Summary()
        try:
            async for first, batch in ndjson_batches(receive):
                # Admitted at the start, the recheck then queues each chunk like any check: never refused midway.
                out, part = await self.admission.run_chunk(partial(self.checker.check_lines, first, batch))
                self._count(part)
                summary.merge(part)
                if self.held is None:
                    await send({"type": "http.response.body", "body": out, "more_body": True})
                else:
                    self.held.write(out)
        except Disconnected:  # the client left, or was dropped for reading nothing (DECKCHECK_SEND_TIMEOUT)
            scope[CUT] = "client_gone"
            return
        except HeldTooLarge:
            assert self.held is not None
            detail = f"The results of this recheck pass {self.held.limit} bytes; send its decks in several rechecks."
            error = {"loc": ["body"], "msg": detail, "type": "results_too_large"}
            answer = problem(413, detail, [error], "results-too-large", {"Connection": "close"})
            await answer(scope, receive, send)
            return
        except BodyStalled as stalled:
            if self.held is not None:  # nothing sent yet: a plain 408, as for any other route
                raise
            slow = isinstance(stalled, BodyTooSlow)
            kind, why = ("body_too_slow", "arrived too slowly") if slow else ("body_timeout", "stopped arriving")
            await _cut(scope, send, kind, f"the request body {why}")
            return
        except asyncio.CancelledError:
            # The shutdown timeout has passed and the server cancels what still runs: the client is told, and the
            # access log's line says so (cut: shutdown). Nothing failed, so the cancellation ends here: raised on, it
            # reached the server as a failure of the app, an ERROR with its traceback.
            await _shutdown(scope, receive, send, begun=self.held is None)
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


async def _cut(scope: Scope, send: Send, kind: str, msg: str) -> None:
    """End a begun answer with a last line that says why it has no summary; the access log says it was cut."""
    scope[CUT] = kind
    line = {"line": None, "id": None, "error": {"msg": msg, "type": kind}}
    await send({"type": "http.response.body", "body": orjson.dumps(line) + b"\n", "more_body": False})


async def _shutdown(scope: Scope, receive: Receive, send: Send, *, begun: bool) -> None:
    """End the answer of a recheck cut by the shutdown: once the answer has `begun`, with a last line that says so;
    else with a 503 that closes the connection. Cancelled again (the process ends; a client that reads nothing holds
    the answer up until then), it ends as it stands."""
    with contextlib.suppress(asyncio.CancelledError):
        if begun:
            await _cut(scope, send, "shutdown", "the server shut down before this recheck ended")
            return
        scope[CUT] = "shutdown"
        detail = "The server shut down before this recheck ended; send it again."
        await problem(503, detail, kind="shutdown", headers={"Connection": "close"})(scope, receive, send)


FormatParam = Annotated[
    Format, Query(description="ocg (the default) or tcg: the lists, printings and languages.", examples=["ocg"])
]


RECHECK_PATH = "/v1/rechecks"


router = APIRouter(tags=["rechecks"])
"""The recheck route, over the data each request arrived to: a stream keeps them to its last line."""


@router.post(
    RECHECK_PATH,
    operation_id="recheckDecks",
    responses={
        **RECHECK_PROBLEMS,
        200: {
            "description": "One result line (or error line) per deck line, in input order, then a summary line.",
        },
    },
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}
    },
)
async def rechecks(
    request: Request,
    *,
    banlist: ListParam = None,
    date: Annotated[
        IsoDate | None, Query(description="Event date; default today in Japan.", examples=["2008-09-01"])
    ] = None,
    format: FormatParam = "ocg",
    previous: PreviousParam = None,
    deckcheck_banlist: ListHeader = None,
    deckcheck_previous: ListHeader = None,
    accept_language: AcceptLanguage = None,
    deckcheck_hold_results: Annotated[
        Literal["0", "1"],
        Header(
            description="1: keep the results in a temporary file and answer once the whole body is read, for "
            "clients and proxies that send the whole body before they read (httpx, nginx).",
            examples=["1"],
        ),
    ] = "0",
) -> StreamingResponse:
    """Recheck many decks (NDJSON, one `{id, deck…}` a line) against one list, optionally against a previous one.

    Each line is read as the desk reads a file: UTF-8, else Shift_JIS as Windows writes it (CP932), line by line
    as the body arrives; the summary's `encodings` counts the lines read in each once one was CP932."""
    day = date or today()
    state, data = app_state(request), served(request).data
    lists = (banlist or deckcheck_banlist, previous or deckcheck_previous)
    setup = BatchSpec(day, *lists, pick_language(accept_language), format).setup(data, ("query",))
    held = Held(state.max_held_bytes) if deckcheck_hold_results == "1" else None
    return _RecheckResponse(Rechecker(data, setup), state.admission, state.metrics, held)
