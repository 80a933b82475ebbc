"""A Python client of the deckcheck HTTP API, on httpx: `Client` for blocking code, `AsyncClient` for asyncio or
trio. Each method returns the service's own answer models (`deckcheck.wire.answers`; a recheck's lines are
`deckcheck.wire.answers.recheck`), and an error answer raises `DeckcheckError`."""

from deckcheck.client.aio import AsyncClient
from deckcheck.client.common import DeckcheckError
from deckcheck.client.sync import Client
from deckcheck.wire.answers.recheck import (
    RecheckAnswerLine,
    RecheckErrorLine,
    RecheckResultLine,
    RecheckSummaryLine,
)

__all__ = [
    "AsyncClient",
    "Client",
    "DeckcheckError",
    "RecheckAnswerLine",
    "RecheckErrorLine",
    "RecheckResultLine",
    "RecheckSummaryLine",
]
