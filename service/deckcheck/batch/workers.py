"""Rechecking lines of decks in chunks, in this process or in worker processes, in input order with flat memory."""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from deckcheck.batch.decoding import Line
from deckcheck.batch.files import Joined, Part, Span, deck_parts, span_lines
from deckcheck.batch.recheck import Rechecker
from deckcheck.batch.spec import BatchSpec
from deckcheck.batch.summary import Summary
from deckcheck.collector import collector_paused
from deckcheck.data import DataSource

CHUNK_LINES = 2000


_WORKER: Rechecker | None = None


def _start_worker(spec: BatchSpec, source: DataSource, inherited: Rechecker | None) -> None:
    """Make the worker's checker, or take the one it `inherited`: a forked worker holds its parent's, whose data
    are loaded already and shared with the parent until written, so no worker pays for loading them again."""
    global _WORKER  # noqa: PLW0603 - one checker per worker process, made once
    if inherited is not None:
        _WORKER = inherited
        return
    data = source.load()
    _WORKER = Rechecker(data, spec.setup(data))


def _check_part(first: int, part: Part, folder: str) -> tuple[str, Summary]:
    """A part's result lines, written to a file of their own in `folder` (a pipe moves 64 KiB a call, so handing on
    a large recheck's results that way costs the command system time: docs/benchmarks.md, Rechecks), and its summary,
    in a worker process which does nothing else, the collector paused."""
    assert _WORKER is not None
    with collector_paused():
        out, summary = _WORKER.check_lines(first, _lines(part))
    path = os.path.join(folder, str(first))
    with open(path, "wb") as f:
        f.write(out)
    return path, summary


def _lines(part: Part) -> Sequence[Line] | Joined:
    return span_lines(part) if isinstance(part, Span) else part


def _taken(path: str) -> bytes:
    """The result lines a worker wrote, its file gone."""
    try:
        return Path(path).read_bytes()
    finally:
        os.unlink(path)


def run_batch(
    paths: Iterable[Path],
    *,
    checker: Rechecker,
    spec: BatchSpec,
    workers: int,
    write: Callable[[bytes], object],
    progress: Callable[[int], None],
    source: DataSource,
) -> Summary:
    """Check every line of the decks in `paths`, writing result lines in input order; return the summary.

    The input goes in parts of CHUNK_LINES lines; with several workers, each reads the lines of its part itself
    where the part is a span of a file (the command reads no line of it), at most two parts per worker are in
    flight, so memory does not grow with the input.
    """
    summary = Summary()
    first = 1

    def finish(out: bytes, part: Summary) -> None:
        write(out)
        summary.merge(part)
        progress(summary.lines)

    def take(written: Future[tuple[str, Summary]]) -> None:
        path, part = written.result()
        finish(_taken(path), part)

    if workers <= 1:
        for part in deck_parts(paths, CHUNK_LINES, spans=False):
            lines = _lines(part)
            finish(*checker.check_lines(first, lines))
            first += len(lines)
        return summary
    window: deque[Future[tuple[str, Summary]]] = deque()
    context = multiprocessing.get_context()
    inherited = checker if context.get_start_method() == "fork" else None  # else the workers load the data
    starting = (spec, source, inherited)
    with (
        tempfile.TemporaryDirectory(prefix="deckcheck-recheck-") as folder,
        ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=starting) as pool,
    ):
        for part in deck_parts(paths, CHUNK_LINES, spans=True):
            window.append(pool.submit(_check_part, first, part, folder))
            first += part.lines if isinstance(part, Span) else len(part)
            if len(window) >= 2 * workers:
                take(window.popleft())
        while window:
            take(window.popleft())
    return summary


def default_workers() -> int:
    """One worker per core."""
    return os.cpu_count() or 1
