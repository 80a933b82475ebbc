"""The card facts the batch verdict (batch/columnar.py) and the fast answer for one deck (fast.py) read, as arrays
indexed by card and built once per (cards, date, format), with the copies each list allows per card name, and a
hashed lookup from passcode to card.

The facts are the rules the engine reads off a card alone: whether its type is in force and it was printed in the
format by the day (TR 1, the eras of rules/eras.py), which sections it may stand in (TR 1: extra-deck cards in the extra
deck only), whether it was printed in the TCG by the day (for cards in a TCG language), and the name its copies
count under (TR 1: three copies of one name).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from deckcheck.data import MAX_COPIES, Banlist, CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.model import Format
from deckcheck.rules.eras import printed_in, printed_in_tcg, ruleset_for, types_in_force

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
MAIN, EXTRA, SIDE = 1, 2, 4  # the sections a card may stand in, as bits
NO_LIMIT = 127  # the copies allowed to the padding name of no card: more than any count


@dataclass(frozen=True, slots=True, eq=False)
class CardArrays:
    """The facts of every card a deck may hold, as arrays indexed by card (position in `passcodes`, sorted): built
    once per (cards, date, format)."""

    passcodes: npt.NDArray[np.uint32]  # sorted; a passcode not here is one no deck may hold on the day
    name: Ints  # dense name index per card, 0 .. len(name_ids) - 1
    bits: npt.NDArray[np.uint8]  # the sections the card may stand in
    tcg: Bools  # printed in the TCG by the day
    name_ids: tuple[int, ...]  # the CardIndex.name_id of each dense name index
    lookup: _Lookup  # passcode -> card, by hashing
    memo: dict[Hashable, Any] = field(repr=False, default_factory=dict)  # the limits per name of each list


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


@kept_with(maxsize=32)
def card_arrays(cards: CardIndex, day: dt.date, fmt: Format) -> CardArrays:
    """Every card a deck of the format may hold on `day` (its type in force, printed in the format by the day), with
    the sections it may stand in and whether it was printed in the TCG by the day; copies count under the card's
    name (CardIndex.name_id)."""
    types = set(ruleset_for(cards, fmt, day).card_types)
    rows = []
    for passcode, card in sorted(cards.by_passcode.items()):
        if types_in_force(card, types) and printed_in(card, fmt, day):
            placed = (MAIN if card.extra_deck_type == "none" else EXTRA) | SIDE
            in_tcg = printed_in_tcg(card, day)
            rows.append((passcode, cards.name_id(card.passcode), placed, in_tcg))
    passcodes = np.array([r[0] for r in rows], dtype=np.uint32)
    names, dense = np.unique(np.array([r[1] for r in rows], dtype=np.int64), return_inverse=True)
    bits = np.array([r[2] for r in rows], dtype=np.uint8)
    tcg = np.array([r[3] for r in rows], dtype=np.bool_)
    names_of = tuple(int(n) for n in names)
    return CardArrays(passcodes, dense.astype(np.int64), bits, tcg, names_of, _build_lookup(passcodes))


@kept_with(maxsize=64)
def name_limits(arrays: CardArrays, banlist: Banlist | None) -> Ints:
    """Copies allowed per dense name: three, or fewer as `banlist` says (a whitelist allows none it leaves out);
    one more entry, for the padding of the sorted rows of names, that no count reaches."""
    limits = [MAX_COPIES if banlist is None else min(MAX_COPIES, banlist.name_limit(n)) for n in arrays.name_ids]
    return np.array([*limits, NO_LIMIT], dtype=np.int8)


def card_indexes(codes: npt.NDArray[np.uint32], arrays: CardArrays) -> tuple[Ints, Bools]:
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
