"""A columnar verdict for a chunk of decks: every deck of the chunk decided at once, in numpy.

A chunk (chunk.py) holds every passcode of every section of every deck one after the other, the length of each
section, and for decks given as entries each copy's printed language. `verdict` decides for every deck of the chunk,
for each list asked about, whether the deck breaks no rule at all: section sizes (TR 1), placement (extra-deck cards
in the extra deck only), card types in force and printings of the format by the day (the facts of facts.py),
languages the format allows and printings in the TCG for cards in a TCG language, one language a deck unless the
protectors hide the backs, uniform protectors (TR 1 ※, TR 3), and copies per card *name* against three and against
each list (TR 1; for the current and the previous list in one pass, the copies counted once).

True is certainly legal; False is "needs the engine": a deck that breaks a rule, holds a passcode the facts leave
out (unknown, or of a type or printing not in force), an entry given by name, or could not be read. The engine
(rules/) then writes the report, so a report is the engine's whatever the path. A context with a roster sends every
deck to the engine. Property tests (tests/test_columnar.py) hold the verdict to the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from deckcheck.batch.chunk import Chunk
from deckcheck.data import MAX_COPIES, Banlist
from deckcheck.model import Context
from deckcheck.rules.checks import EXTRA_MAX, MAIN_MAX, MAIN_MIN, SIDE_MAX
from deckcheck.rules.eras import OCG_LANGUAGES, TCG_LANGUAGES
from deckcheck.rules.facts import CardArrays, card_arrays, card_indexes, name_limits

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
_SECTION_BITS = np.array([1, 2, 4], dtype=np.uint8)  # main, extra, side: as the facts' section bits
_ALLOWED = {"ocg": frozenset(OCG_LANGUAGES), "tcg": frozenset(TCG_LANGUAGES)}  # the languages each format allows
_TCG = frozenset(TCG_LANGUAGES)  # cards in these languages must have been printed in the TCG by the day


@dataclass(frozen=True, slots=True)
class Judged:
    """The columnar verdict on a chunk, with what the columnar reports (findings.py) read: per list, whether each
    deck is certainly legal; whether each deck is one whose violations the arrays can tell (`clean`: read whole,
    every copy a card it may hold on the day, in a language it may stand in, one language a deck where the backs
    show it), and the card facts with each copy's card in them (None and empty for a chunk only the engine
    judges)."""

    legal: list[Bools]
    clean: Bools
    arrays: CardArrays | None
    card: Ints
    known: Bools  # per copy: a card the deck may hold on the day
    deck: Ints  # per copy: its deck's row in the chunk
    outside: Bools  # per deck: clean but for copies that are not such cards, each in a language it may stand in


def verdict(chunk: Chunk, context: Context, banlists: Sequence[Banlist | None] | None = None) -> list[Bools]:
    """For each list of `banlists` (by default the context's own), whether each deck of the chunk is certainly
    legal on the context's date, format and languages. False is "needs the engine"; without a roster, on a deck
    the chunk holds whole (`readable`), False is exact: the engine finds the deck illegal under that list. The
    copies per name are counted once, whatever the number of lists."""
    return judge(chunk, context, banlists).legal


def judge(chunk: Chunk, context: Context, banlists: Sequence[Banlist | None] | None = None) -> Judged:
    """`verdict`, with what reporting on the decks it does not find legal reads."""
    lists: Sequence[Banlist | None] = [context.banlist] if banlists is None else banlists
    decks = chunk.decks
    protectors = context.protectors
    engine_only = context.roster is not None or (protectors is not None and protectors.used and not protectors.uniform)
    if decks == 0 or engine_only:
        nothing = np.zeros(decks, dtype=np.bool_)
        empty = np.zeros(0, dtype=np.int64)
        return Judged([nothing for _ in lists], nothing, None, empty, empty.astype(np.bool_), empty, nothing)
    arrays = card_arrays(context.cards, context.date, context.format)
    card, known = card_indexes(chunk.codes, arrays)
    per_deck = chunk.lengths.reshape(decks, 3).sum(axis=1)
    deck = np.repeat(np.arange(decks), per_deck)
    allowed, printed = _languages_ok(chunk, arrays, card, context)
    good = known & allowed & printed
    clean = chunk.readable & (np.bincount(deck[~good], minlength=decks) == 0)
    outside = chunk.readable & (np.bincount(deck[~(good | (~known & allowed))], minlength=decks) == 0) & ~clean
    if not (protectors is not None and protectors.used and protectors.opaque_back):
        one = ~_mixed(chunk, context.default_language)  # cards of two languages show it on their backs
        clean &= one
        outside &= one
    ok = clean & _sizes_ok(chunk) & _placed(chunk, arrays, card, deck)
    names = _sorted_names(chunk, arrays, card, ok)
    # Sorted rows: each cell's copies of its name before it (three at most), so a name held more than L times
    # holds a cell with L before it, whatever the list.
    before = np.zeros(names.shape, dtype=np.int8)
    for step in range(1, MAX_COPIES + 1):
        before[:, step:] += names[:, step:] == names[:, :-step]
    rows = np.flatnonzero(ok)
    verdicts = []
    for banlist in lists:
        over = (before >= np.take(name_limits(arrays, banlist), names)).any(axis=1)  # take: 2.5x [] on int32
        legal = np.zeros(decks, dtype=np.bool_)
        legal[rows] = ~over
        verdicts.append(legal)
    return Judged(verdicts, clean, arrays, card, known, deck, outside)


def _sizes_ok(chunk: Chunk) -> Bools:
    """Per deck: its section sizes are within TR 3's."""
    sizes = chunk.lengths.reshape(chunk.decks, 3)
    ok: Bools = (sizes[:, 0] >= MAIN_MIN) & (sizes[:, 0] <= MAIN_MAX)
    return ok & (sizes[:, 1] <= EXTRA_MAX) & (sizes[:, 2] <= SIDE_MAX)


def _placed(chunk: Chunk, arrays: CardArrays, card: Ints, deck: Ints) -> Bools:
    """Per deck: every copy stands in a section its card may stand in."""
    section = np.repeat(np.tile(_SECTION_BITS, chunk.decks), chunk.lengths)
    misplaced = arrays.bits[card] & section == 0
    placed: Bools = np.bincount(deck[misplaced], minlength=chunk.decks) == 0
    return placed


def _languages_ok(chunk: Chunk, arrays: CardArrays, card: Ints, context: Context) -> tuple[Bools, Bools]:
    """Per copy: whether its language (the context's default where the entry gives none) is one the format allows,
    and whether its card, if the language is a TCG one, was printed in the TCG by the day."""
    allowed = _ALLOWED[context.format]
    every = np.ones(len(card), dtype=np.bool_)
    if chunk.languages is None:  # every copy in the default language
        tag = context.default_language
        return (every if tag in allowed else ~every), (arrays.tcg[card] if tag in _TCG else every)
    tags = [tag or context.default_language for tag in chunk.tags]
    tag_ok = np.array([tag in allowed for tag in tags], dtype=np.bool_)[chunk.languages]
    tcg = np.array([tag in _TCG for tag in tags], dtype=np.bool_)[chunk.languages]
    return tag_ok, ~tcg | arrays.tcg[card]


def _mixed(chunk: Chunk, default: str) -> Bools:
    """Per deck: whether its copies stand in more than one language."""
    if chunk.languages is None or len(chunk.languages) == 0:
        return np.zeros(chunk.decks, dtype=np.bool_)
    tags = [tag or default for tag in chunk.tags]
    same = np.array([sorted(set(tags)).index(tag) for tag in tags], dtype=np.int64)[chunk.languages]
    per_deck = chunk.lengths.reshape(chunk.decks, 3).sum(axis=1)
    firsts = np.minimum(np.cumsum(per_deck) - per_deck, len(same) - 1)
    deck = np.repeat(np.arange(chunk.decks), per_deck)
    differs = same != np.repeat(same[firsts], per_deck)
    mixed: Bools = np.bincount(deck[differs], minlength=chunk.decks) > 0
    return mixed


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
