"""Reports from the arrays: the violations of the decks the columnar verdict did not find legal, worked out for a
whole chunk at once, for every deck whose violations the arrays can tell.

A deck the columnar verdict calls clean (columnar.py: read whole, every copy a card it may hold on the day, in a
language it may stand in, one language where the backs show it) can break only the rules the arrays count: the
section sizes (TR 3 デッキの枚数制限), placement (TR 1 エクストラデッキ) and the copies of a name against three and
against the list (TR 3 枚数制限のあるカード, PR 3.A.2–4). Their findings are built here from the arrays: the deck's
entries as the engine numbers them (entries.py, `deck_entries`), the copies of each name against the list's limits,
and the copies standing where their card may not. They are made by the engine's own constructors (rules/checks.py:
`size_findings`, `placement_finding`, `copy_finding`) and put in the engine's order (`violation_order`); rendered.py
makes them a result line's violations. A finding that recurs with other entries (a set of section sizes, the same
copies of the same cards) is made once, and each deck's is that finding with the deck's own entries beside it
(`Found`). Every other deck goes to the engine. tests/test_columnar_reports.py holds the result lines of both paths
equal, byte for byte.
"""

from __future__ import annotations

from collections.abc import Hashable
from operator import itemgetter
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from deckcheck.batch.chunk import Chunk
from deckcheck.batch.columnar import Judged
from deckcheck.batch.entries import Entries, deck_entries, stable_order
from deckcheck.data import Card, CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.limits import MAX_ENTRIES
from deckcheck.model import SECTIONS, Context, Entry, Finding, Loc
from deckcheck.rules.checks import (
    MAIN_MIN,
    copy_finding,
    placement_finding,
    size_findings,
    type_finding,
    unknown_finding,
)
from deckcheck.rules.engine import order_at, order_stem, ruleset_of, violation_order
from deckcheck.rules.eras import types_in_force
from deckcheck.rules.facts import EXTRA, MAIN, CardArrays, name_limits

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
MAX_SEEN = 100_000  # passcodes no deck may hold whose kind is kept (a deck holds few; hostile input many)
MAX_KEPT = 10_000  # copy findings a Memo keeps; past them it starts again (a recheck's repeat far sooner)
Order = tuple[int, str, tuple[int, int], tuple[int, ...]]  # violation_order's key
# A deck's finding: its place in the report (violation_order), the finding, which may be shared with other decks,
# and the deck's own entries it points at, which stand for the finding's own.
Found = tuple[Order, Finding, tuple[Loc, ...]]
Stem = tuple[int, str, tuple[int, ...]]  # violation_order's key but for the first entry (order_stem)
_IN_BOUNDS = {"main": MAIN_MIN, "extra": 0, "side": 0}  # section sizes TR 3 allows
_ORDER = itemgetter(0)


class _Facts(NamedTuple):
    """The card facts, with each card's canonical card (`cards`, by card) and the first card of it (`canonical`)."""

    arrays: CardArrays
    cards: list[Card]
    canonical: Ints


def reportable(chunk: Chunk, judged: Judged, context: Context) -> Bools:
    """Per deck of the chunk: not certainly legal, and its report can be made from the arrays: a clean deck, or one
    clean but for copies of passcodes no card has and of cards of types not in force (not for a card of a type in
    force that was not printed by the day: its copies count with the others), whose sections are within the bounds
    every input is held to, so the engine's path reads it without an error."""
    decks = chunk.decks
    within = (chunk.lengths.reshape(decks, 3) <= MAX_ENTRIES).all(axis=1) & ~judged.legal[0]
    outside = judged.outside & within
    if outside.any():
        deck = judged.deck
        odd = np.flatnonzero(~judged.known & outside[deck])
        kinds = _kinds(context.cards, ruleset_of(context).card_types)
        engine_only = [kinds.get(code) is None for code in chunk.codes[odd].tolist()]
        outside[deck[odd[np.array(engine_only, dtype=np.bool_)]]] = False
    found: Bools = (judged.clean & within) | outside
    return found


@kept_with(maxsize=8)
def _kinds(cards: CardIndex, types: tuple[str, ...]) -> _Kinds:
    """What a copy of a passcode no deck may hold on the day is that the arrays can report: a passcode no card has,
    or a card of a type not in force (a card whose type is in force but was not printed by the day is neither)."""
    return _Kinds(cards, frozenset(types))


class _Kinds:
    """Passcode -> "unknown" (no card has it), a card of a type not in force, or None (neither); looked up once."""

    def __init__(self, cards: CardIndex, types: frozenset[str]) -> None:
        self.cards = cards
        self.types = types
        self.seen: dict[int, str | Card | None] = {}

    def get(self, passcode: int) -> str | Card | None:
        kind = self.seen.get(passcode, "")
        if kind == "":
            card = self.cards.by_passcode.get(passcode)
            kind = "unknown" if card is None else None if types_in_force(card, self.types) else card
            if len(self.seen) < MAX_SEEN:
                self.seen[passcode] = kind
        return kind


class Memo:
    """What the decks of a recheck find again and again, made once under one context: the findings of each
    section's size, and every other finding but for its entries, by what it is made of (for a copy finding, its
    cards' copies and the section of its first entry, what copy_finding reads; for a passcode no card has or a card
    of a type not in force, the passcode, its copies and section). Each deck's finding made from one is that finding
    itself, which renderers key on (`shared`: the ids of the findings the memo holds). What it holds is few objects,
    kept few: the collector walks them all again and again, so a memo that grew with the recheck (every set of
    section sizes seen, a rendering of every finding) would make each line cost more than the last
    (docs/benchmarks.md, Rechecks)."""

    def __init__(self) -> None:
        self.sizes: dict[tuple[int, int], tuple[Found, ...]] = {}  # by section and size
        self.made: dict[Hashable, tuple[Finding, Stem]] = {}
        self.shared: set[int] = set()

    def size_findings(self, counts: tuple[int, int, int]) -> tuple[Found, ...]:
        """size_findings of a deck of these section sizes."""
        main, extra, side = counts
        return self._size_findings(0, main) + self._size_findings(1, extra) + self._size_findings(2, side)

    def _size_findings(self, section: int, count: int) -> tuple[Found, ...]:
        found = self.sizes.get((section, count))
        if found is None:  # the section's findings, the others in bounds (size_findings reads each alone)
            made = list(size_findings(_IN_BOUNDS | {SECTIONS[section]: count}))
            self.shared.update(id(finding) for finding in made)
            found = self.sizes[section, count] = tuple((violation_order(f), f, f.loc) for f in made)
        return found

    def get(self, key: Hashable) -> tuple[Finding, Stem] | None:
        """The finding made of `key`, if made already, with its order_stem."""
        return self.made.get(key)

    def keep(self, key: Hashable, made: Finding) -> tuple[Finding, Stem]:
        """Keep the finding made of `key`."""
        if len(self.made) >= MAX_KEPT:
            for old, _stem in self.made.values():
                self.shared.discard(id(old))
            self.made.clear()
        self.shared.add(id(made))
        kept = self.made[key] = made, order_stem(made)
        return kept


def array_findings(chunk: Chunk, judged: Judged, context: Context, rows: Ints, memo: Memo) -> list[list[Found]]:
    """What the checks find under `context` in each deck of `rows` (decks `reportable` found), in order, each
    deck's findings in the order of its report (`violation_order`); `memo` keeps what the decks find again."""
    arrays = judged.arrays
    if arrays is None or len(rows) == 0:
        return []
    wanted = np.zeros(chunk.decks, dtype=np.bool_)
    wanted[rows] = True
    entries = deck_entries(chunk, judged, wanted)
    facts = _Facts(arrays, *_canonical(arrays, context.cards))
    found: dict[int, list[Found]] = {}
    _outside_findings(entries, context, found, memo)
    entries = entries.only(entries.known)
    _copy_findings(entries, facts, context, found, memo)
    _placement_findings(entries, facts, found)
    decks = []
    for row, counts in zip(rows.tolist(), chunk.lengths.reshape(-1, 3)[rows].tolist(), strict=True):
        deck = [*memo.size_findings(tuple(counts)), *found.get(row, ())]
        decks.append(sorted(deck, key=_ORDER) if len(deck) > 1 else deck)
    return decks


@kept_with(maxsize=2)
def _canonical(arrays: CardArrays, cards: CardIndex) -> tuple[list[Card], Ints]:
    """Per card of the arrays (every passcode a deck may hold), its canonical card and that card's position in the
    list: a card's other printings (alternative artworks) count as the card."""
    canonical = [cards.by_passcode[passcode] for passcode in arrays.passcodes.tolist()]
    first: dict[int, int] = {}
    ids = [first.setdefault(card.passcode, index) for index, card in enumerate(canonical)]
    return canonical, np.array(ids, dtype=np.int64)


def _outside_findings(entries: Entries, context: Context, found: dict[int, list[Found]], memo: Memo) -> None:
    """check_unknown and check_card_types: each passcode no card has, and each card of a type not in force, with
    the copies of its entries."""
    odd = np.flatnonzero(~entries.known)
    if len(odd) == 0:
        return
    kinds = _kinds(context.cards, ruleset_of(context).card_types)
    kind_of: dict[int, str | Card] = {}  # by the passcode its findings are grouped under
    keys = []
    for code in entries.code[odd].tolist():
        kind = kinds.get(code)
        assert kind is not None  # reportable() left such decks to the engine
        key = code if isinstance(kind, str) else kind.passcode
        kind_of[key] = kind
        keys.append(key)
    ruleset = ruleset_of(context)
    for (deck, key), (locs, count) in _grouped(entries, odd, keys).items():
        made_once = memo.get((key, count, locs[0][0]))
        if made_once is None:
            kind = kind_of[key]
            if isinstance(kind, str):
                finding = unknown_finding(Entry(key), locs, count, "unknown_passcode", context)
            else:
                finding = type_finding(kind, locs, count, ruleset)
            made_once = memo.keep((key, count, locs[0][0]), finding)
        made, stem = made_once
        found.setdefault(deck, []).append((order_at(stem, locs[0]), made, locs))


def _grouped(entries: Entries, chosen: Ints, keys: list[int]) -> dict[tuple[int, int], tuple[tuple[Loc, ...], int]]:
    """The entries `chosen` grouped by deck and their `keys`, in input order: each group's entries and copies."""
    groups: dict[tuple[int, int], tuple[list[Loc], list[int]]] = {}
    rows = zip(
        entries.deck[chosen].tolist(),
        keys,
        entries.section[chosen].tolist(),
        entries.index[chosen].tolist(),
        entries.count[chosen].tolist(),
        strict=True,
    )
    for deck, key, section, index, count in rows:
        locs, counts = groups.setdefault((deck, key), ([], []))
        locs.append((SECTIONS[section], index))
        counts.append(count)
    return {group: (tuple(locs), sum(counts)) for group, (locs, counts) in groups.items()}


def _copy_findings(
    entries: Entries, facts: _Facts, context: Context, found: dict[int, list[Found]], memo: Memo
) -> None:
    """check_copies: each name a deck holds more copies of than three or than the list allows."""
    arrays, cards, canonical = facts
    limits = name_limits(arrays, context.banlist)
    width = len(limits)
    if len(entries.card) == 0:
        return
    # The entries by deck and name, each name's in input order.
    by_name = entries.deck * width + arrays.name[entries.card]
    order = stable_order(by_name)
    by_name = by_name[order]
    new = np.ones(len(by_name), dtype=np.bool_)
    new[1:] = by_name[1:] != by_name[:-1]
    starts = np.flatnonzero(new)
    over = np.add.reduceat(entries.count[order], starts) > limits[by_name[starts] % width]
    group_of = np.cumsum(new) - 1  # per entry in sorted order: its group
    kept = over[group_of]
    chosen = order[kept]
    group, deck = group_of[kept].tolist(), entries.deck[chosen].tolist()
    sections, indexes = entries.section[chosen].tolist(), entries.index[chosen].tolist()
    held_cards, counts = canonical[entries.card[chosen]].tolist(), entries.count[chosen].tolist()
    at = 0
    while at < len(chosen):
        end = at + 1
        while end < len(chosen) and group[end] == group[at]:
            end += 1
        if end == at + 1:  # most often one entry holds the name's copies
            locs: tuple[Loc, ...] = ((SECTIONS[sections[at]], indexes[at]),)
            key: tuple[tuple[tuple[int, int], ...], int] = (((held_cards[at], counts[at]),), sections[at])
        else:
            locs = tuple((SECTIONS[sections[i]], indexes[i]) for i in range(at, end))
            held: dict[int, int] = {}  # copies per card, in the order of each card's first entry
            for i in range(at, end):
                held[held_cards[i]] = held.get(held_cards[i], 0) + counts[i]
            key = (tuple(held.items()), sections[at])
        made_once = memo.get(key)
        if made_once is None:
            copies = tuple((cards[index], number) for index, number in key[0])
            made_once = memo.keep(key, copy_finding(copies, locs, context.banlist, context.cards))
        made, stem = made_once
        # violation_order's key: the entries stand in input order, so the first of them is the first entry.
        found.setdefault(deck[at], []).append((order_at(stem, locs[0]), made, locs))
        at = end


def _placement_findings(entries: Entries, facts: _Facts, found: dict[int, list[Found]]) -> None:
    """check_placement: each card with copies where it may not stand (an extra-deck card in the main deck, any
    other in the extra deck), pointing at those copies."""
    arrays, cards, canonical = facts
    bits = arrays.bits[entries.card]
    wrong = ((entries.section == 0) & (bits & MAIN == 0)) | ((entries.section == 1) & (bits & EXTRA == 0))
    chosen = np.flatnonzero(wrong)
    if len(chosen) == 0:
        return
    for (deck, card), (locs, count) in _grouped(entries, chosen, canonical[entries.card[chosen]].tolist()).items():
        finding = placement_finding(cards[card], locs, count)
        found.setdefault(deck, []).append((violation_order(finding), finding, locs))
