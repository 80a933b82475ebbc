"""Working out ahead, for newly loaded data, what the checks of a day need (the rules in force, the card tables), so
that the first requests after a reload (api/served.py) do not pay for it."""

from __future__ import annotations

import datetime as dt

from deckcheck.data import CardIndex
from deckcheck.model import FORMATS
from deckcheck.rules.engine import cards_by_passcode
from deckcheck.rules.eras import ruleset_for
from deckcheck.rules.fast import card_table


def warm(cards: CardIndex, day: dt.date) -> None:
    """Work out, and keep with `cards`, the tables a check of either format on `day` reads, and the name search."""
    cards.search.build()
    for fmt in FORMATS:
        ruleset = ruleset_for(cards, fmt, day)
        cards_by_passcode(cards, ruleset.card_types)
        card_table(cards, day, fmt)  # and the arrays it is made from
