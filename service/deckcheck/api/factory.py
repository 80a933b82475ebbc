"""The ASGI application: the data loaded once, every route, error handler and limit around them."""

from __future__ import annotations

from fastapi import FastAPI

from deckcheck import __version__
from deckcheck.api.banlists import build_banlists_router
from deckcheck.api.cards import build_cards_router
from deckcheck.api.decks import build_decks_router
from deckcheck.api.limits import BodyLimit
from deckcheck.api.problems import install_error_handlers
from deckcheck.api.rechecks import build_rechecks_router
from deckcheck.api.validate import build_router
from deckcheck.config import Settings
from deckcheck.data import Data, load_data


def create_app(settings: Settings | None = None) -> FastAPI:
    """Load the data once and build the app around it; broken data or settings stop start-up here."""
    settings = settings or Settings.from_env()
    data = load_data(settings.data_dir)
    app = FastAPI(
        title="deckcheck",
        version=__version__,
        summary="Checks Yu-Gi-Oh! OCG deck lists against the 2008 OCG tournament rules and penalty regulations.",
    )
    install_error_handlers(app)
    install_routes(app, data)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes, streaming_paths=frozenset({"/v1/rechecks"}))
    return app


def install_routes(app: FastAPI, data: Data) -> None:
    """Mount every route on `app`."""
    app.include_router(build_router(data))
    app.include_router(build_decks_router(data))
    app.include_router(build_cards_router(data))
    app.include_router(build_banlists_router(data))
    app.include_router(build_rechecks_router(data))
