"""Working out ahead, for newly loaded data, what the checks of a day need (the rules in force, the card tables), so
that the first requests after a reload (api/served.py) do not pay for it."""

from __future__ import annotations

import datetime as dt

from deckcheck.data import CardIndex
from deckcheck.data.memo import kept_for
from deckcheck.model import FORMATS, Format
from deckcheck.rules.engine import cards_by_passcode
from deckcheck.rules.eras import ruleset_for
from deckcheck.rules.fast import card_table

LATELY = 4  # how many of the card tables the replaced data held last are worked out again for the new


def warm(cards: CardIndex, day: dt.date, replaced: CardIndex | None = None) -> None:
    """Work out, and keep with `cards`, the tables a check of either format on `day` reads, and the name search;
    and, for data that replace `replaced`, those of the days and formats whose tables `replaced` held last: a client
    may check decks as of another day than today, and the first checks after a reload paid for its tables (some 60
    ms a format) while others waited behind them."""
    cards.search.build()
    lately = kept_for(replaced, card_table)[-LATELY:] if replaced is not None else []
    for each_day, fmt in [*((day, fmt) for fmt in FORMATS), *lately]:
        _tables(cards, each_day, fmt)


def _tables(cards: CardIndex, day: dt.date, fmt: Format) -> None:
    ruleset = ruleset_for(cards, fmt, day)
    cards_by_passcode(cards, ruleset.card_types)
    card_table(cards, day, fmt)  # and the arrays it is made from
