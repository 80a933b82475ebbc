"""Rechecking lines of decks in chunks, in this process or in worker processes, in input order with flat memory."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from deckcheck.batch.recheck import Line, Rechecker
from deckcheck.batch.spec import BatchSpec
from deckcheck.batch.summary import Summary
from deckcheck.data import DataSource

CHUNK_LINES = 2000


_WORKER: Rechecker | None = None


def _start_worker(spec: BatchSpec, source: DataSource, inherited: Rechecker | None) -> None:
    """Make the worker's checker, or take the one it `inherited`: a forked worker holds its parent's, whose data
    are loaded already and shared with the parent until written (loading them again cost each worker 0.7 s)."""
    global _WORKER  # noqa: PLW0603 - one checker per worker process, made once
    if inherited is not None:
        _WORKER = inherited
        return
    data = source.load()
    _WORKER = Rechecker(data, spec.setup(data))


def _check_chunk(first: int, lines: list[Line]) -> tuple[bytes, Summary]:
    """A chunk's result lines and summary in a worker process, which does nothing else: the collector waits for the
    chunk's end, as the chunk's objects live and die together (collecting during it walked them again and again,
    a tenth of a line's cost), and runs then if it is due."""
    assert _WORKER is not None
    gc.disable()
    try:
        return _WORKER.check_lines(first, lines)
    finally:
        gc.enable()


def _chunks(lines: Iterable[Line]) -> Iterator[tuple[int, list[Line]]]:
    chunk: list[Line] = []
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
    lines: Iterable[Line],
    *,
    checker: Rechecker,
    spec: BatchSpec,
    workers: int,
    write: Callable[[bytes], object],
    progress: Callable[[int], None],
    source: DataSource,
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
            finish(*checker.check_lines(first, chunk))
        return summary
    window: deque[Future[tuple[bytes, Summary]]] = deque()
    context = multiprocessing.get_context()
    inherited = checker if context.get_start_method() == "fork" else None  # else the workers load the data
    starting = (spec, source, inherited)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=starting) as pool:
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
