"""problem+json (RFC 9457) answers for every request error, and the handlers that route errors to them.

Every problem body carries the request id of the request it answers (see `deckcheck.api.middleware.observe`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from http import HTTPStatus
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from deckcheck.errors import RequestError

PROBLEM_TYPE = "urn:deckcheck:problem:"
PROBLEM_JSON = "application/problem+json"
# The id of the request being answered; set by the middleware that opens every request.
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)


def problem_body(
    status: int,
    detail: str,
    errors: Sequence[dict[str, Any]] = (),
    kind: str | None = None,
    request_id: str | None = None,
) -> bytes:
    """The JSON of an RFC 9457 problem, with the id of the request it answers (by default the current one)."""
    phrase = HTTPStatus(status).phrase
    body = {
        "type": PROBLEM_TYPE + (kind or phrase.lower().replace(" ", "-")),
        "title": phrase,
        "status": status,
        "detail": detail,
        "errors": list(errors),
        "request_id": request_id or REQUEST_ID.get(),
    }
    return orjson.dumps(body)


def problem(
    status: int,
    detail: str,
    errors: Sequence[dict[str, Any]] = (),
    kind: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """An RFC 9457 application/problem+json response."""
    body = problem_body(status, detail, errors, kind)
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _field_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    return [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]


async def _on_validation(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = _field_errors(exc)
    if all(e["type"] == "json_invalid" for e in errors):
        return problem(400, "The body is not valid JSON.", errors, "malformed-body")
    where = ", ".join(".".join(str(part) for part in e["loc"]) for e in errors[:5])
    return problem(422, f"The request does not fit the schema at {where}.", errors, "invalid-request")


async def _on_request_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return problem(exc.status, str(exc), exc.errors, "invalid-request" if exc.status == 422 else None)


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400:
        # FastAPI says this when the body is not JSON it can parse (bad encoding, nesting too deep).
        errors = [{"loc": ["body"], "msg": str(exc.detail), "type": "json_invalid"}]
        return problem(400, "The body is not JSON that can be read.", errors, "malformed-body")
    # The router's own headers stay: Allow on a 405 (RFC 9110 15.5.6).
    return problem(exc.status_code, str(exc.detail), headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    """Route every kind of request error to a problem+json answer (crashes: `deckcheck.api.middleware.observe`)."""
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(RequestError, _on_request_error)
    app.add_exception_handler(HTTPException, _on_http)
