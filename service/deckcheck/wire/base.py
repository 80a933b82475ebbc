"""The base of the answer models."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WireModel(BaseModel):
    """An answer model whose validator is built when first used, not when its module is imported (pydantic's
    `defer_build`): a website's code that imports `deckcheck.client` pays for the answers it reads, not for all of
    them. The request models are built at once: FastAPI reads request bodies through them."""

    model_config = ConfigDict(defer_build=True)
