"""What every route answers with: JSON bodies, the message language, and the documented problem answers."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import Header
from fastapi.responses import Response

from deckcheck.wire.answers import Problem


def _problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The problem+json answers a route documents."""
    return {status: {"model": Problem, "content": {"application/problem+json": {}}} for status in statuses}


# Any route: a query that does not fit (422), a head over the limit (431); and a resource that is not there (404).
BAD_QUERY = _problems(422, 431)
NOT_FOUND = _problems(404, 422, 431)
# Routes that run checks: also a body that is not JSON, stalls or is too large, and every check thread busy (503).
CHECK_PROBLEMS = _problems(400, 408, 413, 422, 431, 503)
# A name search: a query that does not fit, a head over the limit, every check thread busy.
SEARCH_PROBLEMS = _problems(422, 431, 503)
# A recheck: its lines are checked one by one, so only a stalled body or too large held results refuse it whole.
RECHECK_PROBLEMS = _problems(408, 413, 422, 431, 503)
AcceptLanguage = Annotated[str | None, Header(description="ja or en; default en")]


def json_response(body: Any, lang: str | None = None) -> Response:
    """A JSON response, with Content-Language when messages are in a language."""
    headers = {"Content-Language": lang} if lang else None
    return Response(orjson.dumps(body), media_type="application/json", headers=headers)


def pick_language(header: str | None) -> str:
    """The one of ja or en that Accept-Language prefers (higher q, then earlier); en when it names neither."""
    best, best_q = "en", 0.0
    for part in (header or "").split(","):
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().lower().split("-")[0]
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if lang in ("ja", "en") and q > best_q:
            best, best_q = lang, q
    return best
