"""Stored decks as NDJSON lines: NDJSON files, single deck files (.ydk .ydke .txt .json) and folders of them.

A deck file is read as the desk reads it (UTF-8, else Shift_JIS as Windows writes it, CP932), and its line carries
the encoding it was read in as its own field `encoding`, which its result echoes, and comes as `Decoded`, so the
recheck's summary counts it with the NDJSON lines read in the same encoding (batch/decoding.py `read_lines`). It
becomes one line, so a file past what a line may hold is an error line read no further than that. An NDJSON line is
handed on as its bytes, read as text line by line when it is checked.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import numpy as np
import orjson

from deckcheck.encoding import Encoding, NotText, decoded_text
from deckcheck.formats import DECK_SUFFIXES, deck_file_format
from deckcheck.input_files import FileTooLarge, read_bounded

MAX_LINE_BYTES = 1024 * 1024  # the most one recheck line may hold (a longer one is an error line)
_KEPT = MAX_LINE_BYTES + 2  # bytes kept of a line too long, for its error line
_BLOCK = 1024 * 1024  # bytes read at a time
MAX_JOINED_BYTES = 16 * 1024 * 1024  # a span read whole (spans hold CHUNK_LINES lines, a few hundred bytes each)
_END = ord("\n")
NDJSON_SUFFIXES = frozenset({".ndjson", ".jsonl"})
_BATCH_WIDE = frozenset({"date", "format", "banlist", "roster", "duel", "phase"})


class Unread(NamedTuple):
    """A deck file that is no text the desk reads: its id (the path) and why, as a line's field errors."""

    id: str
    errors: list[dict[str, Any]]


class Decoded(NamedTuple):
    """A line already read as text and written as UTF-8 (a deck file, a table's row), and the encoding its text
    was read in: what the recheck's summary counts it under."""

    line: bytes
    encoding: Encoding


class Span(NamedTuple):
    """Whole lines of an NDJSON file that can be read again (a regular file): the bytes from `start` to `stop`,
    `lines` lines. A worker reads a span's lines itself, so they are not read, cut, and handed on to it."""

    path: str
    start: int
    stop: int
    lines: int


class Joined(NamedTuple):
    """Whole NDJSON lines as they stand in a file, each ended by a line end: `lines` lines, none with a `\\r` (which
    deck_lines would strip). Each line is what deck_lines reads of it once cut at the line ends (`lines_at`)."""

    data: bytes
    lines: int

    def lines_at(self, rows: Sequence[int]) -> list[bytes]:
        """The lines at `rows`, as deck_lines reads them (of a line too long, its first _KEPT bytes)."""
        lines = self.data.split(b"\n")
        return [_line(lines[row]) for row in rows]


# A part of a recheck's input: its lines, or a span of a file whose lines span_lines reads.
Part = list[bytes | Decoded | Unread] | Span


def deck_lines(paths: Iterable[Path]) -> Iterator[bytes | Decoded | Unread]:
    """NDJSON deck lines from NDJSON files, single deck files (.ydk .ydke .txt .json) and folders of them."""
    for path in _files(paths):
        if path.suffix.lower() in NDJSON_SUFFIXES:
            with path.open("rb") as f:
                yield from _ndjson_lines(f)
        else:
            yield _deck_file_line(path)


def deck_parts(paths: Iterable[Path], size: int, *, spans: bool) -> Iterator[Part]:
    """The lines deck_lines gives, in parts of `size` lines at most: with `spans`, a regular NDJSON file as spans of
    it, for workers to read; every other line (of a pipe, or a single deck file, or any without `spans`, where the
    lines are read once, here) in lists."""
    held: list[bytes | Decoded | Unread] = []
    for path in _files(paths):
        if spans and path.suffix.lower() in NDJSON_SUFFIXES and path.is_file():
            if held:
                yield held
                held = []
            yield from ndjson_spans(path, size)
            continue
        for line in deck_lines([path]):
            held.append(line)
            if len(held) == size:
                yield held
                held = []
    if held:
        yield held


def ndjson_spans(path: Path, size: int) -> Iterator[Span]:
    """The file at `path` cut into spans of `size` lines (the last may hold fewer), its line ends found a block at a
    time; a line is what _ndjson_lines reads as one, however long."""
    start = offset = held = 0  # where the span begins, where the block begins, the line ends in the span so far
    last = b"\n"  # the last byte read
    with path.open("rb") as f:
        while block := f.read(_BLOCK):
            ends = np.flatnonzero(np.frombuffer(block, np.uint8) == _END)
            for end in ends[size - held - 1 :: size].tolist():
                stop = offset + end + 1
                yield Span(str(path), start, stop, size)
                start = stop
            held = (held + len(ends)) % size
            offset += len(block)
            last = block[-1:]
    if offset > start:
        yield Span(str(path), start, offset, held + (last != b"\n"))


def span_lines(span: Span) -> list[bytes] | Joined:
    """The lines of a span, read as deck_lines reads them; the file must not have changed since it was cut. A span
    of at most MAX_JOINED_BYTES with no `\\r` comes as it stands in the file (`Joined`), its lines not cut apart."""
    size = span.stop - span.start
    with open(span.path, "rb") as f:
        f.seek(span.start)
        data = f.read(size) if size <= MAX_JOINED_BYTES else None
        got: list[bytes] | Joined
        if data is not None and b"\r" not in data:
            got = Joined(data if data.endswith(b"\n") or not data else data + b"\n", span.lines)
            count = got.data.count(b"\n")
        else:  # cut into lines from the bytes read, or, for a span too large to hold, from the file
            got = list(_ndjson_lines(f if data is None else io.BytesIO(data), size))
            count = len(got)
    if count != span.lines:
        raise OSError(f"{span.path} changed while it was read: lines were added or removed")
    return got


def _files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files named, a folder's own in order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and _wanted(p))
        else:
            yield path


def _ndjson_lines(f: BinaryIO, size: int | None = None) -> Iterator[bytes]:
    """Each line of an NDJSON file (or of its next `size` bytes) without its end, read no further than
    MAX_LINE_BYTES: of a longer line only its first MAX_LINE_BYTES + 2 bytes are kept, which make its error line
    (line_too_long), and the rest is read past a block at a time, as /v1/rechecks reads it, so a line without an end
    costs no more memory than a line may hold. The file is read a block at a time and cut into lines in one call:
    line by line, the reading thread would wait for the lock of the interpreter after every read, beside the threads
    that feed the workers."""
    carry = b""  # the start of a line whose end is not read yet, at most _KEPT bytes of it
    past = False  # the line in `carry` is longer than a line may hold: the rest of it is read past
    for block in _blocks(f, size):
        lines = block.split(b"\n")
        if len(lines) > 1:
            lines[0] = carry + lines[0] if not past else carry
            carry, past = lines.pop(), False
            yield from map(_line, lines)
        elif not past:
            carry += block
        if len(carry) > _KEPT:
            carry, past = carry[:_KEPT], True
    if carry or past:
        yield carry if past else _line(carry)


def _blocks(f: BinaryIO, size: int | None) -> Iterator[bytes]:
    """The file's blocks to its end, or to `size` bytes on."""
    if size is None:
        while block := f.read(_BLOCK):
            yield block
        return
    while size > 0 and (block := f.read(min(_BLOCK, size))):
        size -= len(block)
        yield block


def _line(raw: bytes) -> bytes:
    """A line without its end, or of a line too long its first _KEPT bytes."""
    return raw.rstrip(b"\r") if len(raw) < _KEPT else raw[:_KEPT]


def _wanted(path: Path) -> bool:
    return path.suffix.lower() in NDJSON_SUFFIXES or path.suffix.lower() in DECK_SUFFIXES


def _deck_file_line(path: Path) -> Decoded | Unread:
    """One deck file as an NDJSON line whose id is the file's path."""
    try:
        text, encoding = decoded_text(read_bounded(path, MAX_LINE_BYTES, "a recheck line may hold"))
    except FileTooLarge as exc:
        return Unread(str(path), [{"loc": [], "msg": f"the file holds {exc}", "type": "file_too_large"}])
    except NotText as exc:
        return Unread(str(path), [{"loc": [], "msg": str(exc), "type": "not_text"}])
    fmt = deck_file_format(path, text)
    if fmt == "json":
        try:
            body = orjson.loads(text)
        except orjson.JSONDecodeError:
            body = None
        if not isinstance(body, dict):
            # Not a deck object: passed on as one line (JSON allows any whitespace for the line breaks), so it
            # gets the error line the parser gives it.
            return Decoded(" ".join(text.splitlines()).encode(), encoding)
        # The recheck's date and list stand for every deck: a stored request's own give way to them.
        deck = {key: value for key, value in body.items() if key not in _BATCH_WIDE}
        return Decoded(orjson.dumps({**deck, "id": str(path), "encoding": encoding}), encoding)
    return Decoded(orjson.dumps({"id": str(path), fmt: text, "encoding": encoding}), encoding)
