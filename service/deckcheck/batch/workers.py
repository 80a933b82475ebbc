"""Rechecking files of decks, in this process or in worker processes, in input order with flat memory."""

from __future__ import annotations

import datetime as dt
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import orjson

from deckcheck.batch.recheck import Rechecker, RecheckSetup, Summary
from deckcheck.data import Data, load_data
from deckcheck.wire.inputs import named_list

CHUNK_LINES = 2000
NDJSON_SUFFIXES = frozenset({".ndjson", ".jsonl"})
DECK_SUFFIXES = {".ydk": "ydk", ".ydke": "ydke", ".txt": "text", ".json": "json"}
_BATCH_WIDE = frozenset({"date", "banlist", "roster", "duel", "phase"})


@dataclass(frozen=True, slots=True)
class BatchSpec:
    """A recheck's settings in a form that crosses to worker processes: list ids or inline lists as JSON."""

    date: dt.date
    banlist: str | None
    previous: str | None
    lang: str = "en"

    def setup(self, data: Data) -> RecheckSetup:
        """The setup these settings name; an unknown list id or a bad inline list raises RequestError."""
        chosen = named_list(self.banlist, data, ["banlist"]) or data.banlists.in_force(self.date)
        return RecheckSetup(self.date, chosen, named_list(self.previous, data, ["previous"]), self.lang)


def deck_lines(paths: Iterable[Path]) -> Iterator[bytes]:
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


def deck_file_format(path: Path, text: str) -> str:
    """The form a deck file is written in: by its suffix, and a text file holding a ydke link is one."""
    fmt = DECK_SUFFIXES.get(path.suffix.lower(), "text")
    return "ydke" if fmt == "text" and text.lstrip().startswith("ydke://") else fmt


def _deck_file_line(path: Path) -> bytes:
    """One deck file as an NDJSON line whose id is the file's path."""
    text = path.read_text(encoding="utf-8-sig", errors="replace")
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
        return orjson.dumps({**deck, "id": str(path)})
    return orjson.dumps({"id": str(path), fmt: text})


_WORKER: Rechecker | None = None


def _start_worker(spec: BatchSpec, data_dir: Path) -> None:
    global _WORKER  # noqa: PLW0603 - one checker per worker process, made once
    data = load_data(data_dir)
    _WORKER = Rechecker(data, spec.setup(data))


def _check_chunk(first: int, lines: list[bytes]) -> tuple[bytes, Summary]:
    assert _WORKER is not None
    return check_chunk(_WORKER, first, lines)


def check_chunk(checker: Rechecker, first: int, lines: Sequence[bytes | None]) -> tuple[bytes, Summary]:
    """The result lines of consecutive input lines numbered from `first`, and their summary (None stands for a
    line too long to keep)."""
    summary = Summary()
    out = []
    for offset, raw in enumerate(lines):
        line, outcome = checker.check(first + offset, raw)
        summary.add(outcome)
        out.append(line)
    return b"".join(out), summary


def _chunks(lines: Iterable[bytes]) -> Iterator[tuple[int, list[bytes]]]:
    chunk: list[bytes] = []
    first = 1
    for raw in lines:
        chunk.append(raw)
        if len(chunk) == CHUNK_LINES:
            yield first, chunk
            first += len(chunk)
            chunk = []
    if chunk:
        yield first, chunk


def run_batch(
    lines: Iterable[bytes],
    *,
    checker: Rechecker,
    spec: BatchSpec,
    workers: int,
    write: Callable[[bytes], None],
    progress: Callable[[int], None],
    data_dir: Path,
) -> Summary:
    """Check every line, writing result lines in input order; return the summary.

    With several workers, at most two chunks per worker are in flight, so memory does not grow with the input.
    """
    summary = Summary()

    def finish(out: bytes, part: Summary) -> None:
        write(out)
        summary.merge(part)
        progress(summary.lines)

    if workers <= 1:
        for first, chunk in _chunks(lines):
            finish(*check_chunk(checker, first, chunk))
        return summary
    window: deque[Future[tuple[bytes, Summary]]] = deque()
    with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(spec, data_dir)) as pool:
        for first, chunk in _chunks(lines):
            window.append(pool.submit(_check_chunk, first, chunk))
            if len(window) >= 2 * workers:
                finish(*window.popleft().result())
        while window:
            finish(*window.popleft().result())
    return summary


def default_workers() -> int:
    """One worker per core."""
    return os.cpu_count() or 1
