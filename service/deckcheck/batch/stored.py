"""The commonest recheck line, a stored deck's id and ydke link and nothing else, read for a whole chunk at once.

A store exports its decks in one form a line: `{"id":"deck-1","ydke":"ydke://…"}` as orjson, JavaScript's
`JSON.stringify` and Python's json with compact separators write it, or `{"id": "deck-1", "ydke": "ydke://…"}` as
Python's json writes it by default; the id may be a whole number. `stored_links` finds the lines of exactly that
form (the id first, every string printable ASCII with no escape, the link not starting or ending in a space) in a
few vector operations over the chunk's bytes joined, and gives each one's id as the bytes orjson writes of it and
its link's place in those bytes, which chunk.read_links reads where they stand. Such a line is one quick.quick
reads as a plain line with that id and link and nothing else (tests/test_stored_links.py holds the two to each
other); every other line goes to quick, line by line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from deckcheck.batch.chunk import LINE_END, NO_TEXT, QUOTE, values
from deckcheck.batch.files import MAX_LINE_BYTES, Joined
from deckcheck.batch.quick import LINK_GROUP, Quick
from deckcheck.batch.rendered import Heads
from deckcheck.limits import ID_RANGE, MAX_ID_CHARS
from deckcheck.wire.requests import MAX_SOURCE_CHARS

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]

_WHOLE = re.compile(rb"-?(?:0|[1-9][0-9]{0,18})")  # a JSON whole number as orjson writes it, of 19 digits at most
_NONE = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Stored:
    """The lines of a chunk in the stored form: their rows in the chunk (`rows`), each one's id as JSON (`ids`),
    and the place of each one's link in `buffer`, the chunk's lines joined (`starts`, `ends`), whose bytes' values
    chunk.read_links reads; `others`, the rows of every other line."""

    buffer: bytes
    value: npt.NDArray[np.uint8]  # chunk.values(buffer)
    rows: list[int]
    ids: list[bytes]
    starts: Ints
    ends: Ints
    others: list[int]

    def quick(self, at: int) -> Quick:
        """The plain line quick.quick reads of the `at`-th stored line."""
        link = self.buffer[self.starts[at] : self.ends[at]].decode("ascii")
        return Quick(_id(self.ids[at]), link, None, None, None, LINK_GROUP)

    def heads(self) -> Heads:
        """What the result line of each stored line begins with."""
        if self.ids and all(raw[:1] == b'"' for raw in self.ids):  # strings, read in one go: none holds a `\n`
            deck_ids: list[str | int] = [text[1:-1] for text in b"\n".join(self.ids).decode("ascii").split("\n")]
        else:
            deck_ids = [_id(raw) for raw in self.ids]
        return Heads(self.rows, self.ids, deck_ids, None)


def _id(raw: bytes) -> str | int:
    """The id written as JSON in `raw`: a string of printable ASCII with no escape, or a whole number."""
    return raw[1:-1].decode("ascii") if raw[:1] == b'"' else int(raw)


def stored_links(lines: Sequence[object] | Joined) -> Stored:
    """The lines of `lines` in the stored form (an item that is not bytes is not)."""
    if isinstance(lines, Joined):
        buffer, total = lines
    else:
        texts = [line if type(line) is bytes else b"" for line in lines]
        texts.append(b"")
        buffer, total = b"\n".join(texts), len(lines)
    value = values(buffer)
    marked = np.flatnonzero(value >= QUOTE)  # a dozen bytes a line of the form
    kind = value[marked]
    is_end = kind == LINE_END
    ends = marked[is_end]
    if len(ends) != total or not total:  # a line holding a line's end reads as no line of the form
        return Stored(buffer, value, [], [], _NONE, _NONE, list(range(total)))
    starts = np.append(0, ends[:-1] + 1)
    line_of = np.cumsum(is_end) - is_end
    is_quote = kind == QUOTE
    quotes = marked[is_quote]
    count = np.bincount(line_of[is_quote], minlength=len(ends))
    clean = (np.bincount(line_of[kind == NO_TEXT], minlength=len(ends)) == 0) & (ends - starts <= MAX_LINE_BYTES)
    view = np.frombuffer(buffer, dtype=np.uint8)
    first = np.cumsum(count) - count
    text = np.flatnonzero(clean & (count == 8))  # the id a string
    q = quotes[first[text, None] + np.arange(8)]
    ok = _head(view, starts[text], q[:, 0], q[:, 1]) & _separated(view, q[:, 1], q[:, 2], b":")
    ok &= (q[:, 3] - q[:, 2] - 1 <= MAX_ID_CHARS) & _separated(view, q[:, 3], q[:, 4], b",")
    ok &= _tail(view, q[:, 4:8], ends[text])
    found = [(text[ok], q[ok, 2], q[ok, 3] + 1, q[ok, 6] + 1, q[ok, 7])]
    whole = np.flatnonzero(clean & (count == 6))  # the id a whole number
    if len(whole):
        found.append(_whole_ids(buffer, whole, quotes[first[whole, None] + np.arange(6)], starts[whole], ends[whole]))
    rows, id_starts, id_ends, link_starts, link_ends = (np.concatenate(column) for column in zip(*found, strict=True))
    if len(found) > 1:
        order = np.argsort(rows)
        rows, id_starts, id_ends, link_starts, link_ends = (
            column[order] for column in (rows, id_starts, id_ends, link_starts, link_ends)
        )
    other = np.ones(total, dtype=np.bool_)
    other[rows] = False
    ids = [buffer[start:end] for start, end in zip(id_starts.tolist(), id_ends.tolist(), strict=True)]
    return Stored(buffer, value, rows.tolist(), ids, link_starts, link_ends, np.flatnonzero(other).tolist())


def _whole_ids(buffer: bytes, rows: Ints, q: Ints, starts: Ints, ends: Ints) -> tuple[Ints, Ints, Ints, Ints, Ints]:
    """Of the lines at `rows` (from `starts` to `ends` of `buffer`), the six quotes of each at `q`, those of the form
    whose id is a whole number: their rows, where each one's id starts and ends, and where its link does."""
    view = np.frombuffer(buffer, dtype=np.uint8)
    colon, comma = q[:, 1] + 1, q[:, 2] - 1 - (view[q[:, 2] - 1] == ord(" "))
    ok = _head(view, starts, q[:, 0], q[:, 1]) & (view[colon] == ord(":")) & (view[comma] == ord(","))
    ok &= _tail(view, q[:, 2:6], ends)
    number = colon + 1 + (view[colon + 1] == ord(" "))
    for at in np.flatnonzero(ok).tolist():
        raw = buffer[number[at] : comma[at]]
        ok[at] = _WHOLE.fullmatch(raw) is not None and raw != b"-0" and ID_RANGE[0] <= int(raw) <= ID_RANGE[1]
    return rows[ok], number[ok], comma[ok], q[ok, 4] + 1, q[ok, 5]


def _head(view: npt.NDArray[np.uint8], starts: Ints, q0: Ints, q1: Ints) -> Bools:
    """Per line: it opens with `{"id"`."""
    ok: Bools = (q0 == starts + 1) & (q1 == q0 + 3) & (view[starts] == ord("{"))
    ok &= (view[q0 + 1] == ord("i")) & (view[q0 + 2] == ord("d"))
    return ok


def _separated(view: npt.NDArray[np.uint8], before: Ints, after: Ints, mark: bytes) -> Bools:
    """Per line: between two quotes stands `mark` alone or followed by one space."""
    gap = after - before
    ok: Bools = (view[before + 1] == mark[0]) & ((gap == 2) | ((gap == 3) & (view[before + 2] == ord(" "))))
    return ok


def _tail(view: npt.NDArray[np.uint8], q: Ints, ends: Ints) -> Bools:
    """Per line, from the quotes of `"ydke"` on: `"ydke":"<link>"}` and the line's end, the link of one character
    at least, neither its first nor its last a space, and of MAX_SOURCE_CHARS at most."""
    key, q1, q2, q3 = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    ok: Bools = (q1 == key + 5) & _separated(view, q1, q2, b":") & (q3 == ends - 2) & (view[ends - 1] == ord("}"))
    for offset, char in enumerate(b"ydke", 1):
        ok &= view[key + offset] == char
    size = q3 - q2 - 1
    ok &= (size >= 1) & (size <= MAX_SOURCE_CHARS) & (view[q2 + 1] != ord(" ")) & (view[q3 - 1] != ord(" "))
    return ok
