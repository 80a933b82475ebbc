"""Reports from the arrays: the violations of the decks the columnar verdict did not find legal, worked out for a
whole chunk at once, for every deck whose violations the arrays can tell.

A deck the columnar verdict calls clean (columnar.py: read whole, every copy a card it may hold on the day, in a
language it may stand in, one language where the backs show it) can break only the rules the arrays count: the
section sizes (TR 3 デッキの枚数制限), placement (TR 1 エクストラデッキ) and the copies of a name against three and
against the list (TR 3 枚数制限のあるカード, PR 3.A.2–4). Their findings are built here from the arrays: the deck's
entries as the engine numbers them (a ydke link's cards in the order of each card's first copy; a list's entries as
given), the copies of each name against the list's limits, and the copies standing where their card may not. They
are made by the engine's own constructors (rules/checks.py: `size_findings`, `placement_finding`, `copy_finding`),
and the engine orders them and attaches rule, penalty and citation (`report_of`), so a report is the engine's
whichever path made it. Every other deck goes to the engine. tests/test_columnar_reports.py holds the result lines
of both paths equal, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from deckcheck.batch.chunk import Chunk
from deckcheck.batch.columnar import Judged
from deckcheck.data import Card, CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.limits import MAX_ENTRIES
from deckcheck.model import SECTIONS, Context, Finding, Loc, Report
from deckcheck.rules.checks import copy_finding, placement_finding, size_findings
from deckcheck.rules.engine import report_of
from deckcheck.rules.facts import EXTRA, MAIN, CardArrays, name_limits

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class _Entries:
    """The entries of the decks reported on, deck by deck in input order: each one's deck (its row in the chunk),
    section (0 main, 1 extra, 2 side), index in its section, card (in the arrays) and copies."""

    deck: Ints
    section: Ints
    index: Ints
    card: Ints
    count: Ints


class _Facts(NamedTuple):
    """The card facts, with each card's canonical card (`cards`, by card) and the first card of it (`canonical`)."""

    arrays: CardArrays
    cards: list[Card]
    canonical: Ints


def reportable(chunk: Chunk, judged: Judged) -> Bools:
    """Per deck of the chunk: not certainly legal, and its report can be made from the arrays (a clean deck whose
    sections are within the bounds every input is held to, so the engine's path reads it without an error)."""
    within = (chunk.lengths.reshape(chunk.decks, 3) <= MAX_ENTRIES).all(axis=1)
    found: Bools = judged.clean & within & ~judged.legal[0]
    return found


def array_reports(chunk: Chunk, judged: Judged, context: Context, rows: Ints) -> list[Report]:
    """The engine's report under `context` on each deck of `rows` (decks `reportable` found), in order."""
    arrays = judged.arrays
    if arrays is None or len(rows) == 0:
        return []
    wanted = np.zeros(chunk.decks, dtype=np.bool_)
    wanted[rows] = True
    entries = _entries(chunk, judged.card, wanted)
    facts = _Facts(arrays, *_canonical(arrays, context.cards))
    found: dict[int, list[Finding]] = {}
    _copy_findings(entries, facts, context, found)
    _placement_findings(entries, facts, found)
    reports = []
    for row, (main, extra, side) in zip(rows.tolist(), chunk.lengths.reshape(-1, 3)[rows].tolist(), strict=True):
        counts = {"main": main, "extra": extra, "side": side}
        reports.append(report_of(counts, context, [*size_findings(counts), *found.get(row, ())]))
    return reports


@kept_with(maxsize=2)
def _canonical(arrays: CardArrays, cards: CardIndex) -> tuple[list[Card], Ints]:
    """Per card of the arrays (every passcode a deck may hold), its canonical card and that card's position in the
    list: a card's other printings (alternative artworks) count as the card."""
    canonical = [cards.by_passcode[passcode] for passcode in arrays.passcodes.tolist()]
    first: dict[int, int] = {}
    ids = [first.setdefault(card.passcode, index) for index, card in enumerate(canonical)]
    return canonical, np.array(ids, dtype=np.int64)


def _entries(chunk: Chunk, card: Ints, wanted: Bools) -> _Entries:
    """The entries of the decks `wanted`, as the engine numbers them."""
    decks = chunk.decks
    section_of = np.repeat(np.tile(np.arange(3, dtype=np.int64), decks), chunk.lengths)
    deck_of = np.repeat(np.arange(decks, dtype=np.int64), chunk.lengths.reshape(decks, 3).sum(axis=1))
    if chunk.entries is None:  # a link's cards: one entry per passcode of a section, at its first copy
        take = np.flatnonzero(wanted[deck_of])
        keys = (take, chunk.codes[take], section_of[take], deck_of[take])
        order = np.lexsort(keys)
        _, code, section, deck = (key[order] for key in keys)
        new = np.ones(len(order), dtype=np.bool_)
        new[1:] = (deck[1:] != deck[:-1]) | (section[1:] != section[:-1]) | (code[1:] != code[:-1])
        starts = np.flatnonzero(new)
        first, count = take[order][starts], np.diff(np.append(starts, len(order)))
        by_input = np.argsort(first, kind="stable")
        first, count = first[by_input], count[by_input]
    else:  # a list's entries, as given
        counts = chunk.entries
        firsts = np.cumsum(counts) - counts
        kept = wanted[deck_of[firsts]]
        first, count = firsts[kept], counts[kept]
    deck, section = deck_of[first], section_of[first]
    new = np.ones(len(first), dtype=np.bool_)
    new[1:] = (deck[1:] != deck[:-1]) | (section[1:] != section[:-1])
    starts = np.flatnonzero(new)
    index = np.arange(len(first)) - np.repeat(starts, np.diff(np.append(starts, len(first))))
    return _Entries(deck, section, index, card[first], count)


def _copy_findings(entries: _Entries, facts: _Facts, context: Context, found: dict[int, list[Finding]]) -> None:
    """check_copies: each name a deck holds more copies of than three or than the list allows."""
    arrays, cards, canonical = facts
    limits = name_limits(arrays, context.banlist)
    width = len(limits)
    name = arrays.name[entries.card]
    groups, inverse = np.unique(entries.deck * width + name, return_inverse=True)
    totals = np.bincount(inverse, weights=entries.count, minlength=len(groups))
    over = totals > limits[groups % width]
    chosen = np.flatnonzero(over[inverse])
    chosen = chosen[np.argsort(inverse[chosen], kind="stable")]  # by name, each name's entries in input order
    group, deck = inverse[chosen].tolist(), entries.deck[chosen].tolist()
    sections, indexes = entries.section[chosen].tolist(), entries.index[chosen].tolist()
    held_cards, counts = canonical[entries.card[chosen]].tolist(), entries.count[chosen].tolist()
    at = 0
    while at < len(chosen):
        end = at
        locs: list[Loc] = []
        held: dict[int, int] = {}  # copies per card, in the order of each card's first entry
        while end < len(chosen) and group[end] == group[at]:
            locs.append((SECTIONS[sections[end]], indexes[end]))
            held[held_cards[end]] = held.get(held_cards[end], 0) + counts[end]
            end += 1
        copies = tuple((cards[index], number) for index, number in held.items())
        found.setdefault(deck[at], []).append(copy_finding(copies, tuple(locs), context.banlist, context.cards))
        at = end


def _placement_findings(entries: _Entries, facts: _Facts, found: dict[int, list[Finding]]) -> None:
    """check_placement: each card with copies where it may not stand (an extra-deck card in the main deck, any
    other in the extra deck), pointing at those copies."""
    arrays, cards, canonical = facts
    bits = arrays.bits[entries.card]
    wrong = ((entries.section == 0) & (bits & MAIN == 0)) | ((entries.section == 1) & (bits & EXTRA == 0))
    chosen = np.flatnonzero(wrong)
    if len(chosen) == 0:
        return
    misplaced: dict[tuple[int, int], tuple[list[Loc], list[int]]] = {}  # by deck and card, in input order
    rows = zip(
        entries.deck[chosen].tolist(),
        canonical[entries.card[chosen]].tolist(),
        entries.section[chosen].tolist(),
        entries.index[chosen].tolist(),
        entries.count[chosen].tolist(),
        strict=True,
    )
    for deck, card, section, index, count in rows:
        locs, counts = misplaced.setdefault((deck, card), ([], []))
        locs.append((SECTIONS[section], index))
        counts.append(count)
    for (deck, card), (locs, counts) in misplaced.items():
        found.setdefault(deck, []).append(placement_finding(cards[card], tuple(locs), sum(counts)))
