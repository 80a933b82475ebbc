"""problem+json (RFC 9457) answers for every request error, and the handlers that route errors to them: the one
table of every kind of problem an answer can be (PROBLEM_KINDS: its type, status and meaning, as the OpenAPI document
and docs/developers/api.md give them), and the one table that answers each kind of deckcheck's errors
(deckcheck/errors.py) with an HTTP status.

Every problem body carries the request id of the request it answers (see `deckcheck.api.middleware.observe`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
from deckcheck.events import EventsUnavailable, Forbidden, StaleVersion, Unauthorized
from deckcheck.logs import REQUEST_ID

PROBLEM_TYPE = "urn:deckcheck:problem:"
PROBLEM_JSON = "application/problem+json"
# Who answers a kind: the service, the proxy deploy/nginx.conf puts in front of it, or either.
SERVICE = ("service",)
PROXY = ("proxy",)
BOTH = ("service", "proxy")


@dataclass(frozen=True, slots=True)
class ProblemKind:
    """One kind of problem an answer can be, its `type` PROBLEM_TYPE + `name`: its status, who answers it, when (one
    sentence), and whether it is the kind of its status wherever the code that answers names none."""

    name: str
    status: int
    by: tuple[str, ...]
    meaning: str
    default: bool = False


# Every kind of problem, by status: the one list clients act on. tests/test_problem_kinds.py walks the code that
# answers problems and the proxy's configuration, and holds this table to the kinds they answer.
PROBLEM_KINDS: tuple[ProblemKind, ...] = (
    ProblemKind(
        "malformed-body", 400, SERVICE, "The body is not JSON that can be read: not UTF-8, or nested too deep."
    ),
    ProblemKind(
        "malformed-head", 400, SERVICE, "The request head is not HTTP/1.1 the server reads; the connection closes."
    ),
    ProblemKind("bad-request", 400, PROXY, "The request is not HTTP that the proxy can read."),
    ProblemKind(
        "unauthorized",
        401,
        SERVICE,
        "An event route was sent no staff token, or one that is not (or no longer) in use.",
        default=True,
    ),
    ProblemKind(
        "forbidden",
        403,
        SERVICE,
        "The token's role may not do this at its event; `detail` names those that may.",
        default=True,
    ),
    ProblemKind(
        "not-found", 404, BOTH, "No such path, card, list or file; `errors` names what was asked for.", default=True
    ),
    ProblemKind("method-not-allowed", 405, SERVICE, "The path takes other methods, which `Allow` names.", default=True),
    ProblemKind("not-acceptable", 406, SERVICE, "`Accept` refuses every form the answer comes in.", default=True),
    ProblemKind("body-timeout", 408, SERVICE, "The body stopped arriving, or came too slowly; the connection closes."),
    ProblemKind("head-timeout", 408, SERVICE, "The request head did not arrive in time; the connection closes."),
    ProblemKind("request-timeout", 408, PROXY, "The request did not reach the proxy in time."),
    ProblemKind(
        "precondition-failed",
        412,
        SERVICE,
        "The registration followed a version no longer current: `current` is the one that is.",
        default=True,
    ),
    ProblemKind("body-too-large", 413, BOTH, "The body is larger than the route reads; the connection closes."),
    ProblemKind(
        "results-too-large", 413, SERVICE, "A held recheck's results pass their limit: send its decks in parts."
    ),
    ProblemKind(
        "too-large",
        413,
        SERVICE,
        "The request passes a bound on what is read that has no kind of its own.",
        default=True,
    ),
    ProblemKind(
        "request-uri-too-long", 414, BOTH, "The target (path and query) is longer than the route reads.", default=True
    ),
    ProblemKind(
        "unsupported-media-type",
        415,
        SERVICE,
        "`Content-Type` is none the route reads, or a paper file no PNG, JPEG or PDF.",
        default=True,
    ),
    ProblemKind(
        "invalid-request",
        422,
        SERVICE,
        "The request does not fit the schema or asks for the impossible; `errors` says where.",
        default=True,
    ),
    ProblemKind("too-many-requests", 429, PROXY, "Too many requests at once from one address."),
    ProblemKind(
        "head-too-large", 431, SERVICE, "The request head is larger than the server reads; the connection closes."
    ),
    ProblemKind("request-header-fields-too-large", 431, PROXY, "The request head is larger than the proxy reads."),
    ProblemKind(
        "internal-server-error",
        500,
        BOTH,
        "The service or the proxy failed; the request id finds it in the log.",
        default=True,
    ),
    ProblemKind("bad-gateway", 502, PROXY, "No replica of the service could take the request."),
    ProblemKind(
        "overloaded",
        503,
        SERVICE,
        "Every check thread is busy and the queue full; `Retry-After` says when to try again.",
    ),
    ProblemKind("shutdown", 503, SERVICE, "The server shut down before a held recheck ended: send it again."),
    ProblemKind(
        "service-unavailable",
        503,
        BOTH,
        "What the request needs is not here now: the paper extra, the events database, or a replica.",
        default=True,
    ),
    ProblemKind(
        "gateway-timeout",
        504,
        BOTH,
        "Reading paper ran out of time, or no replica answered the proxy in time.",
        default=True,
    ),
)
# The kind of each status that an answer naming no kind gets: an error by its kind, the router's 404 and 405.
DEFAULT_KINDS = {kind.status: kind.name for kind in PROBLEM_KINDS if kind.default}


class NotAcceptable(InvalidInput):
    """The request's Accept refuses every form the answer comes in."""


class UnsupportedMediaType(InvalidInput):
    """The request's Content-Type is none the route reads."""


class TargetTooLong(TooLarge):
    """The request's target (path and query) is longer than the route reads."""


# Each kind's status, and the few errors of a kind whose status is their own; an error is answered with the status
# of the first class of its MRO found here, and that status's default kind (PROBLEM_KINDS). BrokenData is the
# service's fault: it is left to the handler of crashes (a 500 that names nothing of the data, its traceback logged),
# never answered from here.
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
    Unauthorized: 401,
    Forbidden: 403,
    StaleVersion: 412,
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
    *,
    extra: Mapping[str, Any] | None = None,
) -> bytes:
    """The JSON of an RFC 9457 problem, with the id of the request it answers (by default the current one)."""
    phrase = HTTPStatus(status).phrase
    # A status of no kind in the table (none that the service answers, as the test of the table finds) by its phrase.
    body = {
        "type": PROBLEM_TYPE + (kind or DEFAULT_KINDS.get(status) or phrase.lower().replace(" ", "-")),
        "title": phrase,
        "status": status,
        "detail": detail,
        "errors": list(errors),
        "request_id": request_id or REQUEST_ID.get(),
        **(extra or {}),
    }
    return orjson.dumps(body)


def problem(
    status: int,
    detail: str,
    errors: Sequence[dict[str, Any]] = (),
    kind: str | None = None,
    headers: Mapping[str, str] | None = None,
    *,
    extra: Mapping[str, Any] | None = None,
) -> Response:
    """An RFC 9457 application/problem+json response; `extra`: members of its own kind (RFC 9457 3.2)."""
    body = problem_body(status, detail, errors, kind, extra=extra)
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
    return problem(status_of(exc), str(exc), exc.errors, headers=_headers_of(request, exc))


def _headers_of(request: Request, exc: Error) -> dict[str, str] | None:
    """The headers a problem of this error carries: how to authenticate (RFC 9110 11.6.1), when to try again."""
    if isinstance(exc, Unauthorized):
        return {"WWW-Authenticate": 'Bearer realm="deckcheck events"'}
    if isinstance(exc, EventsUnavailable):
        return {"Retry-After": str(request.app.state.deckcheck.retry_after)}
    return None


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
