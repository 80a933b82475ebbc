"""The base of every wire model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WireModel(BaseModel):
    """A pydantic model whose validator is built when first used, not when its module is imported (pydantic's
    `defer_build`): a website's code that imports `deckcheck.client` pays for the answers it reads, not for every
    model of the API."""

    model_config = ConfigDict(defer_build=True)
