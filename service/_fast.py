"""A fast answer for the common case, a deck that breaks no rule.

Rechecking a million stored decks spends nearly all its time on legal decks, and proving a deck legal needs none
of the bookkeeping a violation report does. `certainly_legal` answers True only when every check in `_checks` and
`_roster` would find nothing; on any doubt (a name to resolve, a roster to compare, anything that looks wrong) it
answers False and the full engine decides. A property test holds the two to the same verdict.

The per-card facts the answer needs (canonical card, the sections it may stand in, copies allowed) depend only on
the event date and the list, so they are worked out once per date and list into one table.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from service._banlists import MAX_COPIES, Banlist
from service._cards import CardIndex
from service._checks import EXTRA_DECK_TYPES, EXTRA_MAX, LANGUAGES, MAIN_MAX, MAIN_MIN, SIDE_MAX
from service._formats import Copies
from service._model import Context, Deck, Protectors

_ALLOWED_LANGUAGES = frozenset(LANGUAGES)
_MAIN, _EXTRA, _SIDE = 1, 2, 4  # the sections a card may stand in, as bits
# passcode -> (canonical passcode, section bits, copies allowed); cards no deck may hold are absent (and so is
# None, the passcode of an entry given by name only).
Table = dict[int | None, tuple[int, int, int]]


@lru_cache(maxsize=32)
def card_table(cards: CardIndex, day: dt.date, banlist: Banlist | None) -> Table:
    """Every card a deck may hold on `day` under `banlist`, with where it may stand and how many copies."""
    table: Table = {}
    for passcode, card in cards.by_passcode.items():
        kind = card.extra_deck_type
        first = card.ja_first_print
        if card.pendulum or (kind != "none" and kind not in EXTRA_DECK_TYPES) or first is None or first > day:
            continue
        sections = (_EXTRA if kind in EXTRA_DECK_TYPES else _MAIN) | _SIDE
        allowed = MAX_COPIES if banlist is None else min(MAX_COPIES, banlist.limit(card.passcode))
        table[passcode] = (card.passcode, sections, allowed)
    return table


def certainly_legal(deck: Deck, context: Context) -> bool:
    """True only if `deck` breaks no rule in `context`."""
    return legal_counts(deck, context) is not None


def legal_counts(deck: Deck, context: Context) -> tuple[int, int, int] | None:
    """The main, extra and side deck sizes if `deck` certainly breaks no rule in `context`, else None."""
    if context.roster is not None:
        return None
    get = card_table(context.cards, context.date, context.banlist).get
    copies: dict[int, int] = {}
    totals = []
    languages = set()
    for bit, entries in ((_MAIN, deck.main), (_EXTRA, deck.extra), (_SIDE, deck.side)):
        total = 0
        for passcode, name, count, language, _lines in entries:
            facts = get(passcode) if name is None else None
            if facts is None or not facts[1] & bit:
                return None
            canonical = facts[0]
            held = copies.get(canonical, 0) + count
            if held > facts[2]:
                return None
            copies[canonical] = held
            total += count
            languages.add(language)
        totals.append(total)
    if None in languages:
        languages.discard(None)
        languages.add(context.default_language)
    legal = (
        MAIN_MIN <= totals[0] <= MAIN_MAX
        and totals[1] <= EXTRA_MAX
        and totals[2] <= SIDE_MAX
        and _protectors_ok(languages, context.protectors)
    )
    return (totals[0], totals[1], totals[2]) if legal else None


def legal_counts_of_copies(copies: Copies, context: Context) -> tuple[int, int, int] | None:
    """`legal_counts` for a deck given as copies per passcode (a ydke link): no names, no languages."""
    get = card_table(context.cards, context.date, context.banlist).get
    held: dict[int, int] = {}
    for bit, section in ((_MAIN, copies[0]), (_EXTRA, copies[1]), (_SIDE, copies[2])):
        for passcode, count in section.items():
            facts = get(passcode)
            if facts is None or not facts[1] & bit:
                return None
            canonical = facts[0]
            total = held.get(canonical, 0) + count
            if total > facts[2]:
                return None
            held[canonical] = total
    sizes = (copies[0].total(), copies[1].total(), copies[2].total())
    legal = (
        MAIN_MIN <= sizes[0] <= MAIN_MAX
        and sizes[1] <= EXTRA_MAX
        and sizes[2] <= SIDE_MAX
        and _protectors_ok({context.default_language}, context.protectors)
        and context.roster is None
    )
    return sizes if legal else None


def _protectors_ok(languages: set[str | None], protectors: Protectors | None) -> bool:
    if not languages <= _ALLOWED_LANGUAGES:
        return False
    if len(languages) > 1 and not (protectors is not None and protectors.used and protectors.opaque_back):
        return False
    return protectors is None or not protectors.used or protectors.uniform
