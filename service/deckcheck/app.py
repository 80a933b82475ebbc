"""The ASGI application with the bundled data: `uvicorn deckcheck.app:app`."""

from deckcheck.api import create_app

app = create_app()
