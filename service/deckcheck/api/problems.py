"""problem+json (RFC 9457) answers for every request error, and the handlers that route errors to them: the one
table that answers each kind of deckcheck's errors (deckcheck/errors.py) with an HTTP status.

Every problem body carries the request id of the request it answers (see `deckcheck.api.middleware.observe`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.routing import Match

from deckcheck.errors import (
    BrokenData,
    Error,
    InvalidInput,
    NotAnImage,
    NotFound,
    TimedOut,
    TooLarge,
    Unavailable,
)
from deckcheck.logs import REQUEST_ID

PROBLEM_TYPE = "urn:deckcheck:problem:"
PROBLEM_JSON = "application/problem+json"


class NotAcceptable(InvalidInput):
    """The request's Accept refuses every form the answer comes in."""


class UnsupportedMediaType(InvalidInput):
    """The request's Content-Type is none the route reads."""


class TargetTooLong(TooLarge):
    """The request's target (path and query) is longer than the route reads."""


# Each kind's status, and the few errors of a kind whose status is their own; an error is answered with the status
# of the first class of its MRO found here. The problem type of a 422 is invalid-request, of any other its status's
# phrase. BrokenData is the service's fault: it is left to the handler of crashes (a 500 that names nothing of the
# data, its traceback logged), never answered from here.
STATUSES: dict[type[Error], int] = {
    InvalidInput: 422,
    NotFound: 404,
    TooLarge: 413,
    Unavailable: 503,
    TimedOut: 504,
    BrokenData: 500,
    NotAcceptable: 406,
    UnsupportedMediaType: 415,
    TargetTooLong: 414,
    NotAnImage: 415,
}


def status_of(error: Error) -> int:
    """The HTTP status `error` is answered with."""
    return next(STATUSES[cls] for cls in type(error).__mro__ if cls in STATUSES)


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


async def _on_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Error)
    status = status_of(exc)
    return problem(status, str(exc), exc.errors, "invalid-request" if status == 422 else None)


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400:
        # FastAPI says this when the body is not JSON it can parse (bad encoding, nesting too deep).
        errors = [{"loc": ["body"], "msg": str(exc.detail), "type": "json_invalid"}]
        return problem(400, "The body is not JSON that can be read.", errors, "malformed-body")
    if exc.status_code == 405:  # Allow names every method of the target (RFC 9110 15.5.6), not the first route's
        return problem(405, str(exc.detail), headers={"Allow": ", ".join(_allowed(request))})
    return problem(exc.status_code, str(exc.detail), headers=exc.headers)


def _allowed(request: Request) -> list[str]:
    """The methods a route at the request's path answers, HEAD wherever GET is (middleware/caching.py)."""
    routes = request.app.router.routes
    methods = {
        method
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
        if any(route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes)
    }
    return sorted(methods | ({"HEAD"} if "GET" in methods else set()))


async def _passed_on(request: Request, exc: Exception) -> Response:
    raise exc


def install_error_handlers(app: FastAPI, passed_on: Sequence[type[Error]] = ()) -> None:
    """Route every kind of request error to a problem+json answer (crashes: `deckcheck.api.middleware.observe`).
    `passed_on`: errors of a kind the table answers that a middleware around the app answers in its own way; they
    pass the app's handlers to it."""
    app.add_exception_handler(RequestValidationError, _on_validation)
    for answered in (cls for cls, status in STATUSES.items() if status != 500):
        app.add_exception_handler(answered, _on_error)
    for passed in passed_on:
        app.add_exception_handler(passed, _passed_on)
    app.add_exception_handler(HTTPException, _on_http)
