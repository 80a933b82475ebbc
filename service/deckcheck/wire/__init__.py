"""The JSON wire form shared by the API, the command line and batch rechecks: request bodies, read into the
engine's decks and contexts, and reports written back as JSON."""

from deckcheck.wire.inputs import (
    DEFAULT_LANGUAGES,
    bundled_list,
    context_for,
    deck_from,
    limit_errors,
    named_list,
    read_errors,
    today,
)
from deckcheck.wire.reports import banlist_json, report_json, ruleset_json, violations_json
from deckcheck.wire.request_values import DeckFormat, IsoDate
from deckcheck.wire.requests import (
    BANLIST_ID_PATTERN,
    ConvertRequest,
    DeckIn,
    EntryIn,
    InlineBanlist,
    LflistBanlist,
    ProtectorsIn,
    RecheckLine,
    ValidateRequest,
)

__all__ = [
    "BANLIST_ID_PATTERN",
    "DEFAULT_LANGUAGES",
    "ConvertRequest",
    "DeckFormat",
    "DeckIn",
    "EntryIn",
    "InlineBanlist",
    "IsoDate",
    "LflistBanlist",
    "ProtectorsIn",
    "RecheckLine",
    "ValidateRequest",
    "banlist_json",
    "bundled_list",
    "context_for",
    "deck_from",
    "limit_errors",
    "named_list",
    "read_errors",
    "report_json",
    "ruleset_json",
    "today",
    "violations_json",
]
