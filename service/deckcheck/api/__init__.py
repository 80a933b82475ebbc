"""The HTTP API: thin routes over the engine, problem+json answers, the body limit."""

from deckcheck.api.factory import create_app

__all__ = ["create_app"]
