"""A fast answer for one deck that breaks no rule, for `validate` on a single deck (/v1/validate, `deckcheck
validate` of one file).

Proving a deck legal needs none of the bookkeeping a violation report does. `legal_counts` answers with the section
sizes only when every check would find nothing; on any doubt (a name to resolve, a roster to compare, anything that
looks wrong) it answers None and the full engine decides. Batches take the columnar verdict (batch/columnar.py)
instead, which decides a whole chunk at once but costs more than this for a chunk of one deck. Both read the card
facts of rules/facts.py, and property tests hold both to the engine's verdict.
"""

from __future__ import annotations

import datetime as dt

from deckcheck.data import MAX_COPIES, Banlist, CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.model import Context, Copies, Deck, Format
from deckcheck.rules.checks import EXTRA_MAX, MAIN_MAX, MAIN_MIN, SIDE_MAX
from deckcheck.rules.eras import OCG_LANGUAGES, TCG_LANGUAGES
from deckcheck.rules.facts import EXTRA, MAIN, SIDE, card_arrays

TCG_LANGUAGE_SET = frozenset(TCG_LANGUAGES)  # the languages whose cards must be printed in the TCG
_LANGUAGES = {"ocg": frozenset(OCG_LANGUAGES), "tcg": TCG_LANGUAGE_SET}  # the languages each format allows
# passcode -> (name id, section bits, printed in the TCG by the day); cards no deck may hold on the day are absent
# (and so is None, the passcode of an entry given by name only).
Table = dict[int | None, tuple[int, int, bool]]


@kept_with(maxsize=32)
def card_table(cards: CardIndex, day: dt.date, fmt: Format) -> Table:
    """The facts of rules/facts.py as a dict, the fastest lookup for one deck at a time."""
    facts = card_arrays(cards, day, fmt)
    names = [facts.name_ids[name] for name in facts.name.tolist()]
    rows = zip(facts.passcodes.tolist(), names, facts.bits.tolist(), facts.tcg.tolist(), strict=True)
    return {passcode: (name, bits, tcg) for passcode, name, bits, tcg in rows}


def within_limits(held: dict[int, int], banlist: Banlist | None) -> bool:
    """No name held beyond three copies or beyond what `banlist` allows."""
    if held and max(held.values()) > MAX_COPIES:
        return False
    if banlist is None:
        return True
    limits = banlist.by_name
    if banlist.whitelist:
        return all(count <= limits.get(name, 0) for name, count in held.items())
    return all(held[name] <= limits[name] for name in held.keys() & limits.keys())


Tally = tuple[dict[int, int], tuple[int, int, int]]


def tally(deck: Deck, context: Context) -> Tally | None:
    """Copies per name and section sizes if `deck` certainly breaks no rule that does not read the list."""
    if context.roster is not None:
        return None
    table = card_table(context.cards, context.date, context.format)
    get = table.get
    default = context.default_language
    held: dict[int, int] = {}
    totals = []
    languages = set()
    for bit, entries in ((MAIN, deck.main), (EXTRA, deck.extra), (SIDE, deck.side)):
        total = 0
        for passcode, name, count, language, _lines in entries:
            facts = get(passcode) if name is None else None
            if facts is None or not facts[1] & bit:
                return None
            held[facts[0]] = held.get(facts[0], 0) + count
            total += count
            languages.add(language)
        totals.append(total)
    if None in languages:
        languages.discard(None)
        languages.add(default)
    if not languages.isdisjoint(TCG_LANGUAGE_SET) and not _printed_in_tcg(deck, table, default):
        return None
    sizes = (totals[0], totals[1], totals[2])
    return (held, sizes) if _sizes_ok(sizes) and protectors_ok(languages, context) else None


def link_counts(copies: Copies, context: Context) -> tuple[int, int, int] | None:
    """`legal_counts` of a deck given as copies per card in the default language (a ydke link's), read without
    making its entries: a request's check is mostly those (docs/benchmarks.md, The web edge)."""
    if context.roster is not None:
        return None
    table = card_table(context.cards, context.date, context.format)
    get = table.get
    held: dict[int, int] = {}
    for bit, section in ((MAIN, copies[0]), (EXTRA, copies[1]), (SIDE, copies[2])):
        for passcode, count in section.items():
            facts = get(passcode)
            if facts is None or not facts[1] & bit:
                return None
            held[facts[0]] = held.get(facts[0], 0) + count
    default = context.default_language
    if default in TCG_LANGUAGE_SET and not all(table[passcode][2] for section in copies for passcode in section):
        return None
    sizes = (copies[0].total(), copies[1].total(), copies[2].total())
    legal = _sizes_ok(sizes) and protectors_ok({default}, context) and within_limits(held, context.banlist)
    return sizes if legal else None


def _printed_in_tcg(deck: Deck, table: Table, default: str) -> bool:
    """Whether every card of the deck given in a TCG language was printed in the TCG by the day: a second pass, for
    the few decks that hold such cards. Every entry is in `table` by now."""
    for entries in (deck.main, deck.extra, deck.side):
        for passcode, _name, _count, language, _lines in entries:
            if (language or default) in TCG_LANGUAGE_SET and not table[passcode][2]:
                return False
    return True


def legal_counts(deck: Deck, context: Context) -> tuple[int, int, int] | None:
    """The main, extra and side deck sizes if `deck` certainly breaks no rule in `context`, else None."""
    counted = tally(deck, context)
    return counted[1] if counted is not None and within_limits(counted[0], context.banlist) else None


def _sizes_ok(sizes: tuple[int, int, int]) -> bool:
    return MAIN_MIN <= sizes[0] <= MAIN_MAX and sizes[1] <= EXTRA_MAX and sizes[2] <= SIDE_MAX


def protectors_ok(languages: set[str | None], context: Context) -> bool:
    """Whether cards in these languages pass the format's languages and the context's protectors without the
    engine: every language allowed, one language or opaque-backed protectors, uniform protectors if any."""
    if not languages <= _LANGUAGES[context.format]:
        return False
    protectors = context.protectors
    if len(languages) > 1 and not (protectors is not None and protectors.used and protectors.opaque_back):
        return False
    return protectors is None or not protectors.used or protectors.uniform
