"""Stored decks as NDJSON lines: NDJSON files, single deck files (.ydk .ydke .txt .json) and folders of them.

A deck file is read as the desk reads it (UTF-8, else Shift_JIS as Windows writes it, CP932), and its line carries
the encoding it was read in as its own field `encoding`, which its result echoes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from deckcheck.encoding import NotText, decoded_text
from deckcheck.formats import DECK_SUFFIXES, deck_file_format

NDJSON_SUFFIXES = frozenset({".ndjson", ".jsonl"})
_BATCH_WIDE = frozenset({"date", "format", "banlist", "roster", "duel", "phase"})


class Unread(NamedTuple):
    """A deck file that is no text the desk reads: its id (the path) and why, as a line's field errors."""

    id: str
    errors: list[dict[str, Any]]


def deck_lines(paths: Iterable[Path]) -> Iterator[bytes | Unread]:
    """NDJSON deck lines from NDJSON files, single deck files (.ydk .ydke .txt .json) and folders of them."""
    for path in paths:
        if path.is_dir():
            yield from deck_lines(sorted(p for p in path.rglob("*") if p.is_file() and _wanted(p)))
        elif path.suffix.lower() in NDJSON_SUFFIXES:
            with path.open("rb") as f:
                for raw in f:
                    yield raw.rstrip(b"\r\n")
        else:
            yield _deck_file_line(path)


def _wanted(path: Path) -> bool:
    return path.suffix.lower() in NDJSON_SUFFIXES or path.suffix.lower() in DECK_SUFFIXES


def _deck_file_line(path: Path) -> bytes | Unread:
    """One deck file as an NDJSON line whose id is the file's path."""
    try:
        text, encoding = decoded_text(path.read_bytes())
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
            return " ".join(text.splitlines()).encode()
        # The recheck's date and list stand for every deck: a stored request's own give way to them.
        deck = {key: value for key, value in body.items() if key not in _BATCH_WIDE}
        return orjson.dumps({**deck, "id": str(path), "encoding": encoding})
    return orjson.dumps({"id": str(path), fmt: text, "encoding": encoding})
