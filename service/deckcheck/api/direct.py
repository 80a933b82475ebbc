"""The hot routes answered directly: POST /v1/validate, GET /v1/cards/{passcode} and GET /healthz, the requests
deck-builder sites and load balancers send most, spent most of their time in the app in FastAPI's machinery around
them (matching the request against each included router in turn, solving every parameter through its dependency
tree): about 90 µs of a small check's 235 (docs/benchmarks.md, The web edge).

`Direct`, the innermost of the service's layers (inside the limits, the gate and the request's id), gives a plain
request of one of its routes (no query string; for a body, one the route's reader takes whole) to the route's own
endpoint, with the arguments FastAPI would give it, and the endpoint's errors to the app's own exception handlers.
Anything else goes on to FastAPI as declared, with the body as it was read, or the failure reading it met: every
answer, every error and the OpenAPI document stay the declared route's.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.routing import APIRoute
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.routing import Match
from starlette.types import ASGIApp, ExceptionHandler, Message, Receive, Scope, Send

from deckcheck.api.middleware.limits import replaying

# What a route's reader makes of a request and its body (b"" for a route without one): the endpoint's keyword
# arguments, exactly those FastAPI would solve, or None to leave the request to FastAPI.
Reader = Callable[[Request, bytes], dict[str, Any] | None]
DirectRoutes = Iterable[tuple[APIRouter, Callable[..., Any], Reader]]


class Direct:
    """Answer the plain requests of `routes` (each a router, the endpoint of one of its routes, and its reader)
    without FastAPI's routing and dependencies, errors as the app's `handlers` answer them; pass every other request
    on to `app`."""

    def __init__(self, app: ASGIApp, routes: DirectRoutes, handlers: Mapping[Any, ExceptionHandler]) -> None:
        self.app = app
        # As FastAPI gives its own ExceptionMiddleware the app's handlers: a 500 is the outer layers' to answer.
        handled = {key: handler for key, handler in handlers.items() if key not in (500, Exception)}
        self.routes = [DirectRoute(router, endpoint, read, app, handled) for router, endpoint, read in routes]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["query_string"]:
            for route in self.routes:
                match, child_scope = route.declared.matches(scope)
                if match == Match.FULL:
                    scope.update(child_scope)
                    await route.answer(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class DirectRoute:
    """One route answered directly: reads a request of it, and answers it or leaves it to `app`; `answer` does so
    with the endpoint's errors answered by the app's handlers."""

    def __init__(
        self,
        router: APIRouter,
        endpoint: Callable[..., Any],
        read: Reader,
        app: ASGIApp,
        handlers: Mapping[Any, ExceptionHandler],
    ) -> None:
        self.declared = next(r for r in router.routes if isinstance(r, APIRoute) and r.endpoint is endpoint)
        if not inspect.iscoroutinefunction(endpoint):
            raise TypeError(f"{endpoint.__name__} must run on the event loop to be answered directly")
        self.endpoint = endpoint
        self.read = read
        self.takes_body = self.declared.body_field is not None
        self.app = app
        self.answer = ExceptionMiddleware(self, handlers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        body = b""
        if self.takes_body:
            try:
                body = await request.body()
            except Exception as error:  # FastAPI meets the same failure, and answers it as declared
                await self._leave(scope, _failing(error), send)
                return
        arguments = self.read(request, body)
        if arguments is None:
            await self._leave(scope, replaying(body, receive) if self.takes_body else receive, send)
            return
        response = await self.endpoint(**arguments)
        await response(scope, receive, send)

    async def _leave(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Route the request as FastAPI routes it."""
        await self.app(scope, receive, send)


def plain_request(request: Request, body: bytes) -> dict[str, Any]:
    """The reader of a route whose endpoint takes the request alone."""
    return {"request": request}


def _failing(error: Exception) -> Receive:
    """A receive that fails as reading the body did."""

    async def fail() -> Message:
        raise error

    return fail
