"""Decks given as entries (a JSON request's lists, a .ydk file, a text list) as a chunk for the columnar verdict.

An entry gives a passcode and a count of copies; each copy becomes one passcode of the chunk, with the entry's
printed language, and the chunk keeps each entry's copies (the columnar reports point at entries). An entry given
by name or of no copies, and a section of more cards than any section may hold, make the deck one
only the engine judges: it stands in the chunk unreadable, with empty sections, so a chunk holds at most MAIN_MAX
copies a section however large the deck.

Back the other way, the columnar reports (findings.py) read a chunk's decks as entries as the engine numbers them
(`deck_entries`): a ydke link's cards in the order of each card's first copy, a list's entries as given.
`validate_all` reports on many such decks at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from deckcheck.batch.chunk import Chunk
from deckcheck.batch.columnar import Judged, verdict
from deckcheck.model import Context, Deck, Report
from deckcheck.rules import legal_report, validate
from deckcheck.rules.checks import MAIN_MAX

_PASSCODES = 2**32  # passcodes the chunk's uint32 holds: every real one, and every one a request may give
Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]


def entries_chunk(decks: Sequence[Deck]) -> Chunk:
    """The chunk of these decks, in order."""
    tags: dict[str | None, int] = {None: 0}  # None: the default language
    codes: list[int] = []
    counts: list[int] = []
    languages: list[int] = []
    lengths: list[int] = []
    readable: list[bool] = []
    for deck in decks:
        mark = len(codes)
        sizes = [0, 0, 0]
        ok = True
        for section, entries in enumerate((deck.main, deck.extra, deck.side)):
            for passcode, name, count, language, _lines in entries:
                if name is not None or passcode is None or passcode >= _PASSCODES or count < 1:
                    ok = False
                    break
                codes.append(passcode)
                counts.append(count)
                languages.append(tags.setdefault(language, len(tags)))
                sizes[section] += count
            if not ok or sizes[section] > MAIN_MAX:
                ok = False
                break
        if not ok:
            del codes[mark:], counts[mark:], languages[mark:]
            sizes = [0, 0, 0]
        lengths += sizes
        readable.append(ok)
    repeats = np.array(counts, dtype=np.int64)
    return Chunk(
        np.repeat(np.array(codes, dtype=np.uint32), repeats),
        np.array(lengths, dtype=np.int64),
        np.array(readable, dtype=np.bool_),
        np.repeat(np.array(languages, dtype=np.uint16), repeats),
        tuple(tags),
        repeats,
    )


@dataclass(frozen=True, slots=True)
class Entries:
    """The entries of the decks reported on, deck by deck in input order: each one's deck (its row in the chunk),
    section (0 main, 1 extra, 2 side), index in its section, card (in the arrays) and copies."""

    deck: Ints
    section: Ints
    index: Ints
    card: Ints
    count: Ints
    code: npt.NDArray[np.uint32]  # the passcode
    known: Bools  # a card the deck may hold on the day (else `card` means nothing)

    def only(self, kept: Bools) -> Entries:
        """The entries `kept` says."""
        return Entries(*(getattr(self, name)[kept] for name in self.__slots__))


def stable_order(keys: Ints) -> Ints:
    """`np.argsort(keys, kind="stable")` of keys of 0 or more. Where each key, shifted, leaves room for its position
    in 63 bits, the position is packed in and the values sorted: numpy's vectorised sort of values takes a third of
    the time of its stable sort of indexes (docs/benchmarks.md, Rechecks)."""
    shift = max(len(keys) - 1, 0).bit_length()
    if len(keys) == 0 or int(keys.max()).bit_length() + shift > 63:
        return np.argsort(keys, kind="stable")
    order: Ints = np.sort((keys << shift) | np.arange(len(keys))) & ((1 << shift) - 1)
    return order


def deck_entries(chunk: Chunk, judged: Judged, wanted: Bools) -> Entries:
    """The entries of the decks `wanted`, as the engine numbers them."""
    if chunk.entries is None:  # a link's cards: one entry per passcode of a section, at its first copy
        rows = np.flatnonzero(wanted)
        lengths = chunk.lengths.reshape(-1, 3)[rows]
        take = np.flatnonzero(wanted[judged.deck])  # the copies of those decks, each one's deck and section
        deck = np.repeat(rows, lengths.sum(axis=1))
        section = np.repeat(np.tile(np.arange(3, dtype=np.int64), len(rows)), lengths.ravel())
        # One key per copy: its deck and section, then its passcode; a stable sort keeps each key's copies in order.
        key = ((deck * 4 + section) << 32) | chunk.codes[take].astype(np.int64)
        order = stable_order(key)
        key = key[order]
        new = np.ones(len(order), dtype=np.bool_)
        new[1:] = key[1:] != key[:-1]
        starts = np.flatnonzero(new)
        # Each entry at its first copy, in input order: marked where it stands rather than sorted back.
        copies = np.zeros(len(take), dtype=np.int64)
        copies[order[starts]] = np.diff(np.append(starts, len(order)))
        firsts = np.flatnonzero(copies)
        first, count, deck, section = take[firsts], copies[firsts], deck[firsts], section[firsts]
    else:  # a list's entries, as given
        counts = chunk.entries
        firsts = np.cumsum(counts) - counts
        kept = wanted[judged.deck[firsts]]
        first, count = firsts[kept], counts[kept]
        deck = judged.deck[first]
        section = np.repeat(np.tile(np.arange(3, dtype=np.int64), chunk.decks), chunk.lengths)[first]
    new = np.ones(len(first), dtype=np.bool_)
    new[1:] = (deck[1:] != deck[:-1]) | (section[1:] != section[:-1])
    starts = np.flatnonzero(new)
    index = np.arange(len(first)) - np.repeat(starts, np.diff(np.append(starts, len(first))))
    return Entries(deck, section, index, judged.card[first], count, chunk.codes[first], judged.known[first])


# Reports on many decks at once: the columnar verdict finds the legal ones together, the engine reports on the
# rest. For callers that hold decks already read (`deckcheck validate` over many files): a legal deck's report is
# the one `validate` gives it (`legal_report` of its counts), and every other deck's comes from `validate` itself.


def validate_all(decks: Sequence[tuple[Deck, Context]]) -> list[Report]:
    """`validate(deck, context)` for each pair, in order; the decks of one context are judged together."""
    groups: dict[Context, list[int]] = {}
    for index, (_deck, context) in enumerate(decks):
        groups.setdefault(context, []).append(index)
    reports: list[Report | None] = [None] * len(decks)
    for context, members in groups.items():
        if len(members) == 1:  # the fast answer for one deck costs less than a chunk of one
            reports[members[0]] = validate(decks[members[0]][0], context)
            continue
        chunk = entries_chunk([decks[index][0] for index in members])
        for index, legal in zip(members, verdict(chunk, context)[0].tolist(), strict=True):
            deck = decks[index][0]
            reports[index] = legal_report(deck.counts(), context) if legal else validate(deck, context)
    return [report for report in reports if report is not None]
