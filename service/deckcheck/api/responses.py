"""What every route answers with: JSON bodies, the message language, and the documented problem answers."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import Header
from fastapi.responses import Response

from deckcheck.api.schemas import Problem

PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}} for code in (400, 413, 422)
}
NOT_FOUND = {**PROBLEMS, 404: PROBLEMS[422]}
# The routes that run checks may also be refused while every check thread is busy (with Retry-After).
CHECK_PROBLEMS = {**PROBLEMS, 503: PROBLEMS[422]}
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
