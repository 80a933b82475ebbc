"""Query parameters an API route does not take are refused with 422, as unknown body fields are, rather than
ignored: `?ofset=20` or `?lang=ja` would otherwise answer something other than what was asked, and look right. The
pages (api/pages.py) are not held to it: people open them from any link, a query string and all."""

from __future__ import annotations

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute


async def refuse_unknown_query(request: Request) -> None:
    """A dependency of every API route (the factory adds it to each API router): 422 naming each query parameter
    the route does not take. On the event loop: it costs a walk of a few fields."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not request.query_params:
        return
    known = frozenset(_names(route.dependant))
    unknown = [name for name in dict.fromkeys(request.query_params.keys()) if name not in known]
    if unknown:
        takes = f"this route takes {', '.join(sorted(known))}" if known else "this route takes none"
        errors = [
            {"loc": ("query", name), "msg": f"Unknown query parameter; {takes}", "type": "extra_forbidden"}
            for name in unknown
        ]
        raise RequestValidationError(errors)


def _names(dependant: Dependant) -> list[str]:
    """The query parameters a route's endpoint and its dependencies take."""
    found = [field.alias for field in dependant.query_params]
    for dependency in dependant.dependencies:
        found += _names(dependency)
    return found
