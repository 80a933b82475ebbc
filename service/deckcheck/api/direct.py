"""The hot routes answered directly: POST /v1/validate, GET /v1/cards/{passcode} and GET /healthz, the requests
deck-builder sites and load balancers send most, spent most of their time in the app in FastAPI's machinery around
them (matching the request against each included router in turn, solving every parameter through its dependency
tree): about 90 µs of a small check's 235 (docs/benchmarks.md, The web edge).

A `Direct` route, tried before every other, gives a plain request of its route (no query string; for a body, one
the route's reader takes whole) to the route's own endpoint, with the arguments FastAPI would give it. Anything
else goes on to FastAPI as declared, with the body as it was read, or the failure reading it met: every answer,
every error and the OpenAPI document stay the declared route's.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match, Router
from starlette.types import Message, Receive, Scope, Send

from deckcheck.api.middleware.limits import replaying

# What a route's reader makes of a request and its body (b"" for a route without one): the endpoint's keyword
# arguments, exactly those FastAPI would solve, or None to leave the request to FastAPI.
Reader = Callable[[Request, bytes], dict[str, Any] | None]
# The scope key of a request a Direct route left to FastAPI: the router tries it again, without the Direct routes.
DECLINED = "deckcheck.declined"


class Direct(BaseRoute):
    """The route of `endpoint` in `router`, answered without FastAPI's routing and dependencies when `read` takes
    the request; `app_router` is the app's own, which routes the requests it leaves."""

    def __init__(self, router: APIRouter, endpoint: Callable[..., Any], read: Reader, app_router: Router) -> None:
        self.route = next(r for r in router.routes if isinstance(r, APIRoute) and r.endpoint is endpoint)
        if not inspect.iscoroutinefunction(endpoint):
            raise TypeError(f"{endpoint.__name__} must run on the event loop to be answered directly")
        self.path_format = self.route.path_format  # for FastAPI's record of the route a request took
        self.read = read
        self.takes_body = self.route.body_field is not None
        self.app_router = app_router

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http" or scope["query_string"] or DECLINED in scope:
            return Match.NONE, {}
        match, child_scope = self.route.matches(scope)
        return (Match.FULL, child_scope) if match == Match.FULL else (Match.NONE, {})

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
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
        response = await self.route.endpoint(**arguments)
        await response(scope, receive, send)

    async def _leave(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Route the request as if no Direct route were there."""
        scope[DECLINED] = True
        await self.app_router(scope, receive, send)


def install_direct(app_router: Router, routes: Iterable[tuple[APIRouter, Callable[..., Any], Reader]]) -> None:
    """Try the Direct route of each (router, endpoint, reader) of `routes` before any other of `app_router`."""
    app_router.routes[:0] = [Direct(router, endpoint, read, app_router) for router, endpoint, read in routes]


def plain_request(request: Request, body: bytes) -> dict[str, Any]:
    """The reader of a route whose endpoint takes the request alone."""
    return {"request": request}


def _failing(error: Exception) -> Receive:
    """A receive that fails as reading the body did."""

    async def fail() -> Message:
        raise error

    return fail
