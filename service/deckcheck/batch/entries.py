"""Decks given as entries (a JSON request's lists, a .ydk file, a text list) as a chunk for the columnar verdict.

An entry gives a passcode and a count of copies; each copy becomes one passcode of the chunk, with the entry's
printed language, and the chunk keeps each entry's copies (the columnar reports point at entries). An entry given
by name or of no copies, and a section of more cards than any section may hold, make the deck one
only the engine judges: it stands in the chunk unreadable, with empty sections, so a chunk holds at most MAIN_MAX
copies a section however large the deck.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from deckcheck.batch.chunk import Chunk
from deckcheck.model import Deck
from deckcheck.rules.checks import MAIN_MAX

_PASSCODES = 2**32  # passcodes the chunk's uint32 holds: every real one, and every one a request may give


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
