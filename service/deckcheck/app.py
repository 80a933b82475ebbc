"""The ASGI application: `uvicorn deckcheck.app:app`."""

from __future__ import annotations

from fastapi import FastAPI

from deckcheck import __version__
from deckcheck.api.problems import BodyLimit, install_error_handlers
from deckcheck.api.validate import install_routes
from deckcheck.config import Settings
from deckcheck.data import load_data


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


app = create_app()
