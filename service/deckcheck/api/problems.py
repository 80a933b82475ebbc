"""HTTP plumbing: problem+json answers for every request error, the body size limit, Accept-Language."""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


class BodyLimit:
    """Refuse request bodies larger than `limit` bytes with 413, before the app reads them. Streaming routes
    (`streaming_paths`) read their bodies line by line and limit each line instead."""

    def __init__(self, app: ASGIApp, limit: int, streaming_paths: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.limit = limit
        self.streaming_paths = streaming_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.streaming_paths:
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"The request body is larger than {self.limit} bytes."
        error = {"loc": ["body"], "msg": detail, "type": "body_too_large"}
        await problem(413, detail, [error], "body-too-large")(scope, receive, send)


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
