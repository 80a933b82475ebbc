"""The JSON wire form shared by the API, the command line and batch rechecks: request bodies, read into the
engine's decks and contexts, and reports written back as JSON."""

from deckcheck.wire.inputs import JAPAN, context_for, deck_from, limit_errors, named_list, read_errors
from deckcheck.wire.reports import banlist_json, report_json
from deckcheck.wire.requests import (
    BANLIST_ID_PATTERN,
    ConvertRequest,
    DeckFormat,
    DeckIn,
    EntryIn,
    InlineBanlist,
    IsoDate,
    ProtectorsIn,
    RecheckLine,
    ValidateRequest,
)

__all__ = [
    "BANLIST_ID_PATTERN",
    "JAPAN",
    "ConvertRequest",
    "DeckFormat",
    "DeckIn",
    "EntryIn",
    "InlineBanlist",
    "IsoDate",
    "ProtectorsIn",
    "RecheckLine",
    "ValidateRequest",
    "banlist_json",
    "context_for",
    "deck_from",
    "limit_errors",
    "named_list",
    "read_errors",
    "report_json",
]
