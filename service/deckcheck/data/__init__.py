"""The data the rules read, loaded once at start-up and immutable: the card catalogue with its name search, and the
Forbidden/Limited lists."""

from deckcheck.data.banlists import (
    MAX_COPIES,
    STATUS_LIMITS,
    STATUS_NAMES,
    Banlist,
    Banlists,
    build_limits,
    differences,
    make_banlist,
)
from deckcheck.data.card import Card
from deckcheck.data.cards import CARD_COLUMNS, CardIndex
from deckcheck.data.freshness import Cadence
from deckcheck.data.lflist import (
    LflistError,
    LflistList,
    as_banlist,
    banlists_as_lflist,
    read_lflist,
    write_lflist,
)
from deckcheck.data.loader import DEFAULT_DATA_DIR, Data, DataSource, load_data
from deckcheck.data.names import normalize_name
from deckcheck.data.search import Hit, NameSearch

__all__ = [
    "CARD_COLUMNS",
    "DEFAULT_DATA_DIR",
    "MAX_COPIES",
    "STATUS_LIMITS",
    "STATUS_NAMES",
    "Banlist",
    "Banlists",
    "Cadence",
    "Card",
    "CardIndex",
    "Data",
    "DataSource",
    "Hit",
    "LflistError",
    "LflistList",
    "NameSearch",
    "as_banlist",
    "banlists_as_lflist",
    "build_limits",
    "differences",
    "load_data",
    "make_banlist",
    "normalize_name",
    "read_lflist",
    "write_lflist",
]
