"""A columnar verdict for a chunk of ydke links: every deck of the chunk decided at once, in numpy.

First step of issue 12, item 1; not wired into the CLI or the API yet. `decode` reads a chunk of links into flat
arrays (every passcode of every section of every deck, one after the other, and the length of each section);
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

import binascii
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from deckcheck.data import MAX_COPIES, Banlist, CardIndex
from deckcheck.formats.ydke import YDKE_PREFIX, _b64
from deckcheck.model import Context, Format
from deckcheck.rules.checks import EXTRA_MAX, MAIN_MAX, MAIN_MIN, SIDE_MAX
from deckcheck.rules.fast import _TCG_LANGUAGES, _protectors_ok, card_table

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
_SECTION_BITS = np.array([1, 2, 4], dtype=np.uint8)  # main, extra, side: as card_table's section bits


@dataclass(frozen=True, slots=True, eq=False)
class CardArrays:
    """`card_table` as arrays indexed by card (position in `passcodes`, sorted): the facts built once per
    (cards, date, format)."""

    passcodes: npt.NDArray[np.uint32]  # sorted; a passcode not here is one no deck may hold on the day
    name: Ints  # dense name index per card, 0 .. len(name_ids) - 1
    bits: npt.NDArray[np.uint8]  # the sections the card may stand in
    tcg: Bools  # printed in the TCG by the day
    name_ids: tuple[int, ...]  # the CardIndex.name_id of each dense name index


@lru_cache(maxsize=32)
def card_arrays(cards: CardIndex, day: dt.date, fmt: Format) -> CardArrays:
    """The arrays of `card_table(cards, day, fmt)`."""
    table = card_table(cards, day, fmt)
    rows = sorted((p, facts) for p, facts in table.items() if p is not None)
    passcodes = np.array([p for p, _ in rows], dtype=np.uint32)
    names, dense = np.unique(np.array([f[0] for _, f in rows], dtype=np.int64), return_inverse=True)
    bits = np.array([f[1] for _, f in rows], dtype=np.uint8)
    tcg = np.array([f[2] for _, f in rows], dtype=np.bool_)
    return CardArrays(passcodes, dense.astype(np.int64), bits, tcg, tuple(int(n) for n in names))


@lru_cache(maxsize=64)
def name_limits(arrays: CardArrays, banlist: Banlist | None) -> Ints:
    """Copies allowed per dense name: three, or fewer as `banlist` says (a whitelist allows none it leaves out)."""
    if banlist is None:
        return np.full(len(arrays.name_ids), MAX_COPIES, dtype=np.int64)
    return np.array([min(MAX_COPIES, banlist.name_limit(n)) for n in arrays.name_ids], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A chunk of decks as flat arrays: `codes` holds every passcode (one per copy), deck by deck, main, extra
    then side; `lengths[3 * d + s]` is the number of copies in section s of deck d. `readable` is False for a
    deck whose link could not be read (its sections are empty)."""

    codes: npt.NDArray[np.uint32]
    lengths: Ints
    readable: Bools

    @property
    def decks(self) -> int:
        return len(self.readable)


def decode(links: Sequence[str]) -> Chunk:
    """Read a chunk of ydke links into flat arrays: each section's base64 decoded at C speed, every passcode read
    at once by `frombuffer` on the joined bytes."""
    raw: list[bytes] = []
    readable = np.ones(len(links), dtype=np.bool_)
    empty = (b"", b"", b"")
    for number, link in enumerate(links):
        sections = _sections(link)
        if sections is None:
            readable[number] = False
            sections = empty
        raw.extend(sections)
    lengths = np.fromiter((len(r) // 4 for r in raw), dtype=np.int64, count=len(raw))
    codes = np.frombuffer(b"".join(raw), dtype="<u4").astype(np.uint32, copy=False)
    return Chunk(codes, lengths, readable)


def _sections(link: str) -> tuple[bytes, bytes, bytes] | None:
    """The three sections' bytes, or None where `ydke_copies` would raise (the engine path gives the error)."""
    body = link.strip()
    if not body.startswith(YDKE_PREFIX):
        return None
    parts = body[len(YDKE_PREFIX) :].split("!")
    if len(parts) == 4 and parts[3] == "":
        parts.pop()
    if len(parts) != 3:
        return None
    out: list[bytes] = []
    for part in parts:
        try:
            data = binascii.a2b_base64(part, strict_mode=True)
        except binascii.Error:
            try:
                data = _b64(part)  # url-safe or unpadded: the slow path ydke_copies takes
            except ValueError:
                return None
        if len(data) % 4:
            return None
        out.append(data)
    return out[0], out[1], out[2]


def verdict(chunk: Chunk, context: Context, banlists: Sequence[Banlist | None] | None = None) -> list[Bools]:
    """For each list of `banlists` (by default the context's own), whether each deck of the chunk is certainly
    legal on the context's date, format and languages. False is "needs the engine". The copies per name are
    counted once, whatever the number of lists."""
    lists: Sequence[Banlist | None] = [context.banlist] if banlists is None else banlists
    decks = chunk.decks
    if decks == 0:
        return [np.zeros(0, dtype=np.bool_) for _ in lists]
    if context.roster is not None or not _protectors_ok({context.default_language}, context):
        return [np.zeros(decks, dtype=np.bool_) for _ in lists]
    arrays = card_arrays(context.cards, context.date, context.format)
    ok = _deck_ok(chunk, arrays, context.default_language in _TCG_LANGUAGES)
    deck_of_run, name_of_run, run_copies = _copies_per_name(chunk, arrays, ok)
    verdicts = []
    for banlist in lists:
        over = run_copies > name_limits(arrays, banlist)[name_of_run]
        verdicts.append(ok & (np.bincount(deck_of_run[over], minlength=decks) == 0))
    return verdicts


def _deck_ok(chunk: Chunk, arrays: CardArrays, tcg_language: bool) -> Bools:
    """Every rule but the list's, per deck: readable, section sizes, every passcode
    in the table, placed where it may stand, and printed in the TCG where the language asks for it."""
    decks = chunk.decks
    sizes = chunk.lengths.reshape(decks, 3)
    ok = chunk.readable & (sizes[:, 0] >= MAIN_MIN) & (sizes[:, 0] <= MAIN_MAX)
    ok &= (sizes[:, 1] <= EXTRA_MAX) & (sizes[:, 2] <= SIDE_MAX)
    card, known = _cards(chunk.codes, arrays)
    section = np.repeat(np.tile(_SECTION_BITS, decks), chunk.lengths)
    good = known & (arrays.bits[card] & section != 0)
    if tcg_language:
        good &= arrays.tcg[card]
    deck = np.repeat(np.arange(decks), sizes.sum(axis=1))
    ok &= np.bincount(deck[~good], minlength=decks) == 0
    return ok


def _cards(codes: npt.NDArray[np.uint32], arrays: CardArrays) -> tuple[Ints, Bools]:
    """The card index of each passcode (0 where unknown) and whether it is known."""
    if len(arrays.passcodes) == 0:
        return np.zeros(len(codes), dtype=np.int64), np.zeros(len(codes), dtype=np.bool_)
    index = np.searchsorted(arrays.passcodes, codes)
    np.minimum(index, len(arrays.passcodes) - 1, out=index)
    known = arrays.passcodes[index] == codes
    return np.where(known, index, 0).astype(np.int64, copy=False), known


def _copies_per_name(chunk: Chunk, arrays: CardArrays, ok: Bools) -> tuple[Ints, Ints, Ints]:
    """(deck, dense name, copies) of each name held by a deck still in question, by a sort of deck * names + name."""
    decks = chunk.decks
    per_deck = chunk.lengths.reshape(decks, 3).sum(axis=1)
    keep = np.repeat(ok, per_deck)
    card, _known = _cards(chunk.codes[keep], arrays)
    names = max(len(arrays.name_ids), 1)
    deck = np.repeat(np.arange(decks, dtype=np.int64), per_deck)[keep]
    wide = decks * names >= 2**32
    key = deck * names + arrays.name[card]
    key = np.sort(key if wide else key.astype(np.uint32)).astype(np.int64, copy=False)
    if len(key) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    copies = np.diff(np.append(starts, len(key)))
    run = key[starts]
    return run // names, run % names, copies
