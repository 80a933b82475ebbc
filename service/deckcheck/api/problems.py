"""problem+json (RFC 9457) answers for every request error, and the handlers that route errors to them."""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from deckcheck.errors import RequestError

PROBLEM_TYPE = "urn:deckcheck:problem:"


def problem(status: int, detail: str, errors: Sequence[dict[str, Any]] = (), kind: str | None = None) -> Response:
    """An RFC 9457 application/problem+json response."""
    phrase = HTTPStatus(status).phrase
    body = {
        "type": PROBLEM_TYPE + (kind or phrase.lower().replace(" ", "-")),
        "title": phrase,
        "status": status,
        "detail": detail,
        "errors": list(errors),
    }
    return Response(orjson.dumps(body), status_code=status, media_type="application/problem+json")


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
    return problem(exc.status_code, str(exc.detail))


async def _on_crash(request: Request, exc: Exception) -> Response:
    return problem(500, "The server failed on this request; the failure has been logged.")


def install_error_handlers(app: FastAPI) -> None:
    """Route every kind of request error to a problem+json answer."""
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(RequestError, _on_request_error)
    app.add_exception_handler(HTTPException, _on_http)
    app.add_exception_handler(Exception, _on_crash)
