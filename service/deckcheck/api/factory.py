"""The ASGI application: the data loaded once, every route, error handler and limit around them."""

from __future__ import annotations

import signal
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import MappingProxyType
from typing import TYPE_CHECKING

from fastapi import Depends, FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import BaseModel

from deckcheck import __version__
from deckcheck.api import banlists, cards, decks, events, health, judge, pages, paper, players, rechecks, validate
from deckcheck.api.app_state import AppState, app_state
from deckcheck.api.decks import CONVERT_PATH, PARSE_PATH
from deckcheck.api.direct import Direct, plain_request
from deckcheck.api.lifecycle import Lifecycle
from deckcheck.api.live_data import DataStore
from deckcheck.api.middleware.admission import Admission, ClientGone, Overloaded, Pool
from deckcheck.api.middleware.caching import HeadAsGet
from deckcheck.api.middleware.gate import Gate, Gated, refusal
from deckcheck.api.middleware.limits import BodyStalled, RequestLimits
from deckcheck.api.middleware.observe import CLIENT_GONE, Observe
from deckcheck.api.openapi import install_openapi
from deckcheck.api.page_files import PageFiles
from deckcheck.api.paper import READ_PATH
from deckcheck.api.problems import install_error_handlers
from deckcheck.api.rechecks import RECHECK_PATH
from deckcheck.api.slashes import install_slash_redirects
from deckcheck.api.validate import VALIDATE_PATH
from deckcheck.collector import serving_collector
from deckcheck.config import Settings, load_settings
from deckcheck.events import EventStore

if TYPE_CHECKING:  # FastAPI before 0.142 has no telemetry, and takes the setting as an extra it ignores
    from fastapi.telemetry import TelemetryConfig

# The headers a page may send beyond the CORS-safelisted ones, and those it may read in an answer.
REQUEST_HEADERS = [
    "Content-Type",
    "Accept-Language",
    "If-None-Match",
    "X-Request-ID",
    "Deckcheck-Banlist",
    "Deckcheck-Previous",
    "Deckcheck-Hold-Results",
]
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}
CHECK_PATHS = (VALIDATE_PATH, PARSE_PATH, CONVERT_PATH)  # the routes whose work runs on the check threads
EXPOSED_HEADERS = ["ETag", "Link", "Retry-After", "X-Request-ID", "Deckcheck-Data-Version"]
# The routes api/direct.py answers itself: each a router, the endpoint of one of its routes, and its reader.
DIRECT_ROUTES = (
    (validate.router, validate.validate_deck, validate.read_validate),
    (cards.router, cards.card, cards.read_card),
    (health.router, health.healthz, plain_request),
)
# The API's routers, in the order of the OpenAPI document; each module's own, the same for every app.
API_ROUTERS = (
    health.router,
    validate.router,
    decks.router,
    paper.router,
    cards.router,
    banlists.router,
    rechecks.router,
    judge.router,
    events.router,
    players.router,
)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Load the data and build the app around them; broken settings, or broken data with no last good data kept
    for the updates folder (api/live_data.py `DataStore.start`), stop start-up here. The data are loaded again on SIGHUP
    or a change of the updates folder (api/live_data.py)."""
    settings = settings or load_settings()
    if threading.current_thread() is threading.main_thread():
        # Told to reload while it starts, the server ignores SIGHUP rather than die (the default), and loads the data
        # as they are now; once the app runs, SIGHUP reloads them (api/live_data.py).
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    source = settings.data_source(made=False)  # a folder gone fails the load: the last good data are served
    store = DataStore.start(source, settings.cache_max_age)
    store.current.data.cards.search.build()  # before any request: a search must not wait for it
    metrics = store.metrics
    admission = Admission(
        settings.check_threads,
        settings.max_waiting,
        settings.max_rechecks,
        metrics,
        settings.queue_seconds,
        inline_lag=settings.inline_lag,
    )
    paper_pool = Pool(settings.paper_threads, settings.paper_waiting, metrics, settings.queue_seconds)
    lifecycle = Lifecycle(settings.drain_seconds)
    watched = {"updates_dir": str(source.updates), "updates_poll_seconds": settings.updates_poll}
    event_store = EventStore.open(settings.events_db)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lifecycle.watch_signals()
        with serving_collector():
            async with store.watching(settings.updates_poll):
                yield
        event_store.close()

    app = FastAPI(
        title="deckcheck",
        version=__version__,
        summary="Checks Yu-Gi-Oh! OCG deck lists against the 2008 OCG tournament rules and penalty regulations.",
        lifespan=lifespan,
        # /docs is Swagger UI from files in the package (api/pages.py), never from a CDN; no ReDoc.
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        # The service's own logs and metrics observe it (api/middleware/observe.py). FastAPI's OpenTelemetry, left on,
        # looks up the tracing configuration for every request: 3 % of a small check's time (docs/benchmarks.md).
        telemetry=NO_TELEMETRY,
    )
    install_openapi(app)
    AppState(
        admission=admission,
        paper=paper_pool,
        metrics=metrics,
        lifecycle=lifecycle,
        watched=MappingProxyType(watched),
        retry_after=settings.retry_after,
        paper_seconds=settings.paper_seconds,
        max_held_bytes=settings.max_held_bytes,
        pages=PageFiles.load(app.title, app.openapi_url or "/openapi.json"),
        events=event_store,
    ).install(app)
    install_error_handlers(app, passed_on=[BodyStalled])  # answered 408 by RequestLimits
    app.add_exception_handler(Overloaded, _overloaded)
    app.add_exception_handler(ClientGone, _client_gone)
    for router in API_ROUTERS:
        app.include_router(router, dependencies=[Depends(refuse_unknown_query)])
    # The pages ignore a query string: people open them from links of every kind (a cache-buster, a tracking tag).
    app.include_router(pages.router)
    install_slash_redirects(app)
    # Innermost: the hot routes' plain requests go to their endpoints without FastAPI's routing and dependency solving,
    # their errors to the app's handlers (complete when the layers are built, at the first request).
    app.add_middleware(Direct, routes=DIRECT_ROUTES, handlers=app.exception_handlers)
    app.add_middleware(
        RequestLimits,
        max_head=settings.max_head_bytes,
        limit=settings.max_body_bytes,
        timeout=settings.body_timeout,
        streaming_paths=frozenset({RECHECK_PATH}),
        min_rate=settings.body_min_rate,
        path_limits={READ_PATH: settings.max_paper_bytes},
    )
    # Outside the limits: a request is admitted or refused by its head, before its body is read.
    gated = {("POST", path): Gated(path, admission.enter, admission.leave) for path in CHECK_PATHS}
    # A deck in the query is checked as one in the body: admitted by the same queue, or refused alike (HEAD is routed
    # as GET before the gate, by HeadAsGet).
    gated[("GET", VALIDATE_PATH)] = gated[("POST", VALIDATE_PATH)]
    gated[("POST", READ_PATH)] = Gated(READ_PATH, paper_pool.enter, paper_pool.leave)
    gated[("POST", RECHECK_PATH)] = Gated(
        RECHECK_PATH, admission.open_recheck, admission.close_recheck, body_timeout=settings.body_timeout
    )
    app.add_middleware(
        Gate,
        routes=gated,
        retry_after=settings.retry_after,
        pause=settings.refusal_pause,
        rate=settings.refusal_rate,
    )
    app.add_middleware(HeadAsGet)
    app.add_middleware(Observe, metrics=metrics, access_log=settings.access_log, store=store)
    # Outermost, so that every answer a browser gets, a refusal included, can be read by the page that asked.
    # A preflight is answered here, before the access log.
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_methods=["GET", "POST"],
        allow_headers=REQUEST_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        max_age=settings.cors_max_age,
    )
    return app


async def _overloaded(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Overloaded)
    return refusal(app_state(request).retry_after, exc.waited)


async def _client_gone(request: Request, exc: Exception) -> Response:
    return Response(status_code=CLIENT_GONE)  # no one reads it; the access log records the request as abandoned


# Query parameters an API route does not take are refused with 422, as unknown body fields are, rather than
# ignored: `?ofset=20` or `?lang=ja` would otherwise answer something other than what was asked, and look right.
# The pages (api/pages.py) are not held to it: people open them from any link, a query string and all.


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
    """The query parameters a route's endpoint and its dependencies take, each field of a model of them included."""
    found: list[str] = []
    for field in dependant.query_params:
        model = field.field_info.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            found += [info.alias or name for name, info in model.model_fields.items()]
        else:
            found.append(field.alias)
    for dependency in dependant.dependencies:
        found += _names(dependency)
    return found
