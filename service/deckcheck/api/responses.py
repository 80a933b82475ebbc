"""What every route answers with: JSON bodies, the message language, and the documented problem answers."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

import orjson
from fastapi import Header, Request
from fastapi.responses import Response

from deckcheck.api.negotiation import choose_language
from deckcheck.wire.answers import Problem


def _problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The problem+json answers a route documents, with the 500 any route answers when it fails. Declared on
    application/json here, where FastAPI puts a model; `deckcheck.api.openapi` moves them to problem+json."""
    return {status: {"model": Problem} for status in (*statuses, 500)}


# Any route: a query that does not fit (422), a head over the limit (431); and a resource that is not there (404).
BAD_QUERY = _problems(422, 431)
NOT_FOUND = _problems(404, 422, 431)
# Reading paper: also a file of no kind read (415) and a read past its time budget (504).
PAPER_PROBLEMS = _problems(408, 413, 415, 422, 431, 503, 504)
# A resource in several forms, when Accept refuses every one of them.
NEGOTIATED = _problems(404, 406, 422, 431)


def _header(description: str) -> dict[str, Any]:
    return {"description": description, "schema": {"type": "string"}}


_VALIDATORS = {
    "ETag": _header(
        "The data version, and the representation chosen where the URL has several: send it back in "
        "If-None-Match to get 304 while it is current."
    ),
    "Cache-Control": _header("public, max-age=3600 by default (DECKCHECK_CACHE_MAX_AGE)."),
}
_NEXT = _header(
    "RFC 8288 link to the next page, when there is one, relative to the request's URL: "
    '`<?q=dragon&offset=10>; rel="next"`.'
)


def cached(*, paged: bool = False, ok: dict[str, Any] | None = None) -> dict[int | str, dict[str, Any]]:
    """The documented answers of a read-only resource: its validators and freshness (and a link to the next page)
    on 200, beside `ok`, and 304 to a request that names its current ETag."""
    headers = {**_VALIDATORS, "Link": _NEXT} if paged else _VALIDATORS
    not_modified = "Not Modified: the ETag named in If-None-Match is still current; no body."
    return {200: {**(ok or {}), "headers": headers}, 304: {"description": not_modified, "headers": _VALIDATORS}}


# Routes that run checks: also a body that is not JSON, stalls or is too large, and every check thread busy (503).
CHECK_PROBLEMS = _problems(400, 408, 413, 422, 431, 503)
# A deck in the query: also a target too long to read (414) and every check thread busy (503).
LINK_PROBLEMS = _problems(414, 422, 431, 503)
# A conversion, which may also draw a QR code that Accept refuses in both its forms (406).
CONVERT_PROBLEMS = _problems(400, 406, 408, 413, 422, 431, 503)
# A name search: a query that does not fit, a head over the limit, every check thread busy.
SEARCH_PROBLEMS = _problems(422, 431, 503)
# The judge's routes: a body that is not JSON, stalls, is too large or names no item or no state; they run no check
# thread, so never a 503.
JUDGE_PROBLEMS = _problems(400, 408, 413, 422, 431)
# A recheck: its lines are checked one by one, so only a stalled body or too large held results refuse it whole.
RECHECK_PROBLEMS = _problems(408, 413, 422, 431, 503)
# An event's routes: a token missing (401), of a role not allowed (403), of another event or a player not registered
# (404), the events database unreachable (503); those that write also a body that does not fit, and a registration
# made against a version no longer current (412).
EVENT_READ_PROBLEMS = _problems(401, 403, 404, 422, 431, 503)
EVENT_WRITE_PROBLEMS = _problems(400, 401, 403, 404, 408, 412, 413, 422, 431, 503)
# What an answer in the language Accept-Language picks varies by (Vary), for a cache that keeps it.
BY_LANGUAGE = ("Accept-Language",)
AcceptLanguage = Annotated[
    str | None,
    Header(description="ja or en (the higher q of the two, RFC 9110 §12.5.4); default en.", examples=["ja, en;q=0.8"]),
]


def json_response(body: Any, lang: str | None = None) -> Response:
    """A JSON response, with Content-Language when messages are in a language."""
    headers = {"Content-Language": lang} if lang else None
    return Response(orjson.dumps(body), media_type="application/json", headers=headers)


def paged(response: Response, request: Request, next_offset: int | None) -> Response:
    """`response` with an RFC 8288 `Link` to the next page, the same request from `next_offset`, if there is one.
    The link is a reference relative to the request's own URL (RFC 3986 4.2: only the query changes), so it leads
    to the next page also through a proxy that serves the API under a path of its own."""
    if next_offset is not None:
        target = request.url.include_query_params(offset=next_offset)
        response.headers["Link"] = f'<?{target.query}>; rel="next"'
    return response


@lru_cache(maxsize=256)  # clients send the same few headers again and again; weighing one costs some 10 µs
def pick_language(header: str | None) -> str:
    """The one of ja or en that Accept-Language weighs higher (the earlier named on a tie); en when it weighs
    neither above 0."""
    return choose_language(header, ("ja", "en"), "en")
