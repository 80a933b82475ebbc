"""A columnar verdict for a chunk of ydke links: every deck of the chunk decided at once, in numpy.

First step of issue 12, item 1; not wired into the CLI or the API yet. chunk.py's `decode` reads a chunk of links into
flat arrays (every passcode of every section of every deck, one after the other, and the length of each section);
`verdict` decides for every deck the rules the per-deck fast path (rules/fast.py, `tally_copies` then
`within_limits`) decides: section sizes, placement (extra-deck cards in the extra deck only), the card types in
force and the printings of the format by the day (both through `card_table`), printings in the TCG for a TCG
default language, and copies per card *name* against three and against each list asked about.

A deck is legal (True) only if the fast path would find it legal; anything else is False, "needs the engine":
a deck that breaks a rule, holds a passcode `card_table` leaves out (unknown, or of a type or printing not in
force), or could not be read. limits.py's bounds (500 cards a section) lie far past the section sizes: a deck
past them is not legal here, and the per-line path gives its error. Languages and protectors are per request,
not per card, for a ydke link (every card stands in the default language): the chunk's context decides them
once, and a context the fast path would refuse (a roster, or protectors or a language that need the engine)
sends every deck to the engine.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from deckcheck.batch.chunk import Chunk
from deckcheck.data import MAX_COPIES, Banlist, CardIndex
from deckcheck.model import Context, Format
from deckcheck.rules.checks import EXTRA_MAX, MAIN_MAX, MAIN_MIN, SIDE_MAX
from deckcheck.rules.fast import TCG_LANGUAGE_SET, card_table, protectors_ok

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
_SECTION_BITS = np.array([1, 2, 4], dtype=np.uint8)  # main, extra, side: as card_table's section bits
_NO_LIMIT = 127


@dataclass(frozen=True, slots=True, eq=False)
class CardArrays:
    """`card_table` as arrays indexed by card (position in `passcodes`, sorted): the facts built once per
    (cards, date, format)."""

    passcodes: npt.NDArray[np.uint32]  # sorted; a passcode not here is one no deck may hold on the day
    name: Ints  # dense name index per card, 0 .. len(name_ids) - 1
    bits: npt.NDArray[np.uint8]  # the sections the card may stand in
    tcg: Bools  # printed in the TCG by the day
    name_ids: tuple[int, ...]  # the CardIndex.name_id of each dense name index
    lookup: _Lookup  # passcode -> card, by hashing


_MULTIPLIERS = (0x9E3779B1, 0x85EBCA6B, 0xC2B2AE35, 0x27D4EB2F, 0x165667B1, 0xD3A2646C, 0xFD7046C5, 0xB55A4F09)


@dataclass(frozen=True, slots=True, eq=False)
class _Lookup:
    """Two multiplicative hash tables of card indexes (`empty` where none): every card in the first table's slot
    of its passcode or, where another card took that slot, in the second's, whose multiplier is chosen so that no
    two of those cards share a slot. A hit is checked against the card's passcode, so unknown passcodes miss."""

    first: Ints
    second: Ints
    multiplier: np.uint32
    shifts: tuple[np.uint32, np.uint32]
    empty: int


def _build_lookup(passcodes: npt.NDArray[np.uint32]) -> _Lookup:
    count = len(passcodes)
    bits = max(int(count * 16).bit_length(), 8)
    first = np.full(1 << bits, count, dtype=np.int64)
    slots = _hash(passcodes, np.uint32(_MULTIPLIERS[0]), np.uint32(32 - bits))
    first[slots[::-1]] = np.arange(count)[::-1]  # the lowest card of a slot keeps it
    losers = np.flatnonzero(first[slots] != np.arange(count))
    for extra in range(max(int(len(losers) * len(losers)).bit_length(), 4), 31):
        for multiplier in _MULTIPLIERS[1:]:
            hashed = _hash(passcodes[losers], np.uint32(multiplier), np.uint32(32 - extra))
            if len(np.unique(hashed)) == len(losers):
                second = np.full(1 << extra, count, dtype=np.int64)
                second[hashed] = losers
                shifts = (np.uint32(32 - bits), np.uint32(32 - extra))
                return _Lookup(first, second, np.uint32(multiplier), shifts, count)
    raise AssertionError("no multiplier separates the passcodes")  # pragma: no cover


def _hash(codes: npt.NDArray[np.uint32], multiplier: np.uint32, shift: np.uint32) -> npt.NDArray[np.uint32]:
    return (codes * multiplier) >> shift  # wraps modulo 2**32


@lru_cache(maxsize=32)
def card_arrays(cards: CardIndex, day: dt.date, fmt: Format) -> CardArrays:
    """The arrays of `card_table(cards, day, fmt)`."""
    table = card_table(cards, day, fmt)
    rows = sorted((p, facts) for p, facts in table.items() if p is not None)
    passcodes = np.array([p for p, _ in rows], dtype=np.uint32)
    names, dense = np.unique(np.array([f[0] for _, f in rows], dtype=np.int64), return_inverse=True)
    bits = np.array([f[1] for _, f in rows], dtype=np.uint8)
    tcg = np.array([f[2] for _, f in rows], dtype=np.bool_)
    names_of = tuple(int(n) for n in names)
    return CardArrays(passcodes, dense.astype(np.int64), bits, tcg, names_of, _build_lookup(passcodes))


@lru_cache(maxsize=64)
def name_limits(arrays: CardArrays, banlist: Banlist | None) -> Ints:
    """Copies allowed per dense name: three, or fewer as `banlist` says (a whitelist allows none it leaves out);
    one more entry, for the padding of `_sorted_names`, that no count reaches."""
    limits = [MAX_COPIES if banlist is None else min(MAX_COPIES, banlist.name_limit(n)) for n in arrays.name_ids]
    return np.array([*limits, _NO_LIMIT], dtype=np.int8)


def verdict(chunk: Chunk, context: Context, banlists: Sequence[Banlist | None] | None = None) -> list[Bools]:
    """For each list of `banlists` (by default the context's own), whether each deck of the chunk is certainly
    legal on the context's date, format and languages. False is "needs the engine". The copies per name are
    counted once, whatever the number of lists."""
    lists: Sequence[Banlist | None] = [context.banlist] if banlists is None else banlists
    decks = chunk.decks
    if decks == 0:
        return [np.zeros(0, dtype=np.bool_) for _ in lists]
    if context.roster is not None or not protectors_ok({context.default_language}, context):
        return [np.zeros(decks, dtype=np.bool_) for _ in lists]
    arrays = card_arrays(context.cards, context.date, context.format)
    card, known = _cards(chunk.codes, arrays)
    ok = _deck_ok(chunk, arrays, card, known, context.default_language in TCG_LANGUAGE_SET)
    names = _sorted_names(chunk, arrays, card, ok)
    # Sorted rows: a name held more than L times holds one cell equal to the cell L before it.
    same = [names[:, step:] == names[:, :-step] for step in range(1, MAX_COPIES + 1)]
    rows = np.flatnonzero(ok)
    verdicts = []
    for banlist in lists:
        limits = name_limits(arrays, banlist)[names]
        over = (limits == 0).any(axis=1)
        for step, equal in enumerate(same, 1):
            over |= (equal & (limits[:, step:] == step)).any(axis=1)
        legal = np.zeros(decks, dtype=np.bool_)
        legal[rows] = ~over
        verdicts.append(legal)
    return verdicts


def _deck_ok(chunk: Chunk, arrays: CardArrays, card: Ints, known: Bools, tcg_language: bool) -> Bools:
    """Every rule but the list's, per deck: readable, section sizes, every passcode
    in the table, placed where it may stand, and printed in the TCG where the language asks for it."""
    decks = chunk.decks
    sizes = chunk.lengths.reshape(decks, 3)
    ok = chunk.readable & (sizes[:, 0] >= MAIN_MIN) & (sizes[:, 0] <= MAIN_MAX)
    ok &= (sizes[:, 1] <= EXTRA_MAX) & (sizes[:, 2] <= SIDE_MAX)
    section = np.repeat(np.tile(_SECTION_BITS, decks), chunk.lengths)
    good = known & (arrays.bits[card] & section != 0)
    if tcg_language:
        good &= arrays.tcg[card]
    deck = np.repeat(np.arange(decks), sizes.sum(axis=1))
    ok &= np.bincount(deck[~good], minlength=decks) == 0
    return ok


def _cards(codes: npt.NDArray[np.uint32], arrays: CardArrays) -> tuple[Ints, Bools]:
    """The card index of each passcode (0 where unknown) and whether it is known."""
    table = arrays.lookup
    if len(arrays.passcodes) == 0:
        return np.zeros(len(codes), dtype=np.int64), np.zeros(len(codes), dtype=np.bool_)
    padded = np.append(arrays.passcodes, np.uint32(0))  # the passcode of `empty`: a hit on it is checked apart
    card = table.first[_hash(codes, np.uint32(_MULTIPLIERS[0]), table.shifts[0])]
    known = (padded[card] == codes) & (card != table.empty)
    if not known.all():
        missed = np.flatnonzero(~known)
        again = table.second[_hash(codes[missed], table.multiplier, table.shifts[1])]
        card[missed] = again
        known[missed] = (padded[again] == codes[missed]) & (again != table.empty)
    card[~known] = 0
    return card, known


def _sorted_names(chunk: Chunk, arrays: CardArrays, card: Ints, ok: Bools) -> npt.NDArray[np.int32]:
    """One row per deck still in question: the dense name of each of its copies, sorted, padded at the end with a
    name of no card."""
    decks = chunk.decks
    per_deck = chunk.lengths.reshape(decks, 3).sum(axis=1)
    rows = np.flatnonzero(ok)
    width = int(per_deck[rows].max()) if len(rows) else 0
    pad = len(arrays.name_ids)
    width = max(width, 1)
    # Each copy's cell, row by row; the copies of the other decks all land in a scratch tail after the rows.
    scratch = len(rows) * width
    starts = np.cumsum(per_deck) - per_deck
    base = np.full(decks, scratch, dtype=np.int64)
    base[rows] = np.arange(len(rows), dtype=np.int64) * width
    cells = np.arange(len(chunk.codes), dtype=np.int64) + np.repeat(base - starts, per_deck)
    flat = np.full(scratch + int(per_deck.max()), pad, dtype=np.int32)
    flat[cells] = arrays.name[card]
    names = flat[:scratch].reshape(len(rows), width)
    names.sort(axis=1)
    return names
