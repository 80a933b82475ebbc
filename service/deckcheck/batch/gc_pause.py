"""The garbage collector paused while a chunk of decks is checked, in a process whose threads do little else."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the collector for the block: a chunk's objects live and die together, and collecting during it walks
    them again and again, a share of every line's cost (docs/benchmarks.md, Rechecks); it runs after the block if it
    is due. For a recheck worker process and a Dask worker's task, never for the server, whose other threads keep
    allocating. The collector is left running if it ran before, whichever of several threads pausing it ends last."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
