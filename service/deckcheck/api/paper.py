"""POST /v1/decks/read: a photo, a scan or a PDF of a printed deck list in, the deck it holds out (paper/read.py),
every line that is not read for sure marked for staff to confirm. Read on a pool of its own threads
(Admission's `paper`), within a time budget, so OCR never holds a check thread or /healthz. The readers are imported
when a file is first read: a service installed without the paper extra serves every other route, and answers this
one 503 (paper_unavailable)."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import served
from deckcheck.api.metrics import Metrics
from deckcheck.api.problems import UnsupportedMediaType
from deckcheck.api.responses import PAPER_PROBLEMS, AcceptLanguage, json_response, pick_language
from deckcheck.data import Data
from deckcheck.errors import PaperError
from deckcheck.paper import MAX_PAGES, MAX_PIXELS, READING, require
from deckcheck.wire.answers import ReadResponse

READ_PATH = "/v1/decks/read"
MEDIA_TYPES = ("image/png", "image/jpeg", "application/pdf", "application/octet-stream")
_FILE = {"schema": {"type": "string", "format": "binary"}}
_OPENAPI: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": f"The file itself: a PNG or JPEG photo or scan (at most {MAX_PIXELS:,} pixels), or a PDF (its "
        f"first {MAX_PAGES} pages are read).",
        "content": dict.fromkeys(MEDIA_TYPES, _FILE),
    }
}


router = APIRouter(tags=["decks"])
"""The route that reads paper, on the app's own pool of threads for it, each file within DECKCHECK_PAPER_SECONDS."""


@router.post(
    READ_PATH,
    response_model=ReadResponse,
    operation_id="readPaper",
    responses=PAPER_PROBLEMS,
    openapi_extra=_OPENAPI,
)
async def read_deck(request: Request, accept_language: AcceptLanguage = None) -> Response:
    """Read the deck on a photo, a scan or a PDF of a printed list. A QR code of a ydke:// link (a deckcheck
    registration sheet has one) is read first and is exact; else every printed line is read by OCR and
    matched as a pasted list's line is. `deck` holds only the lines read for sure; every other line has
    `needs_review`, the reasons, a message in the language asked and the closest cards, for staff to confirm."""
    declared = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if declared not in MEDIA_TYPES:
        detail = f"send the file as one of {', '.join(MEDIA_TYPES)}, not {declared or 'no Content-Type'}"
        raise UnsupportedMediaType.one(["header", "Content-Type"], detail, "unsupported_media_type")
    content = await request.body()
    lang = pick_language(accept_language)
    state, data = app_state(request), served(request).data
    read = partial(_read, content, data, state.paper_seconds, lang, state.metrics)
    return json_response(await state.paper.run(request, read), lang)


def _read(content: bytes, data: Data, seconds: float, lang: str, metrics: Metrics) -> dict[str, Any]:
    try:
        require("reading paper", READING)
        from deckcheck.paper.answer import reading_json  # noqa: PLC0415 - the paper extra's: imported once it is known
        from deckcheck.paper.read import read_paper  # noqa: PLC0415

        reading = read_paper(content, data.cards, seconds)
    except PaperError as exc:
        metrics.paper_reads.labels(exc.kind).inc()
        raise
    metrics.paper_reads.labels(reading.source).inc()
    metrics.paper_lines.labels("review").inc(reading.needs_review)
    metrics.paper_lines.labels("sure").inc(len(reading.lines) - reading.needs_review)
    return reading_json(reading, lang)
