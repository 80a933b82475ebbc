"""A path that is a route's but for a trailing slash (`/v1/rules/`, or `/desk` for `/desk/`) is redirected to the
route's by a Location that is the path and query alone, a reference relative to the request's own URL (RFC 9110
10.2.2). Starlette's own redirect (redirect_slashes) writes an absolute URL from the request's Host, which the client
writes: a forged Host made the service send its clients to another site."""

from __future__ import annotations

from fastapi import FastAPI
from starlette.responses import RedirectResponse
from starlette.routing import BaseRoute, Match
from starlette.types import Receive, Scope, Send


def install_slash_redirects(app: FastAPI) -> None:
    """In place of Starlette's redirect of `app`'s routes: a path with no route but one for the same path with a
    trailing slash added or taken away is redirected there (307, the method kept); any other gets the app's 404."""
    router = app.router
    router.redirect_slashes = False
    not_found = router.default

    async def redirect_or_not_found(scope: Scope, receive: Receive, send: Send) -> None:
        location = _other_slash(router.routes, scope) if scope["type"] == "http" else None
        if location is None:
            await not_found(scope, receive, send)
            return
        await RedirectResponse(location)(scope, receive, send)

    router.default = redirect_or_not_found


def _other_slash(routes: list[BaseRoute], scope: Scope) -> str | None:
    """The path and query of the request with the trailing slash added or taken away, when a route takes that path,
    else None. Every route's path begins with one slash and a name, so no path found begins with two (which a client
    would read as another host's)."""
    path: str = scope["path"]
    if path == "/":
        return None
    other = path.rstrip("/") if path.endswith("/") else path + "/"
    if all(route.matches({**scope, "path": other})[0] is Match.NONE for route in routes):
        return None
    query = scope["query_string"].decode("latin-1")
    return other + (f"?{query}" if query else "")
