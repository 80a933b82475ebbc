"""The garbage collector, set for the two kinds of process the service runs: a server with many requests in
flight at once (`serving_collector`), and a recheck worker or Dask task checking a chunk of decks
(`collector_paused`).

A request in flight holds tracked objects (its scope, its parsed body, the connection's parser and task) for as long
as it waits, and at saturation many of them wait while the refused ones sleep. At the interpreter's thresholds the
collector looks at those objects again and again while they wait, and every collection stops every thread, /healthz's
included. SERVING_THRESHOLDS collects far less often: a request's objects are most often freed by their reference
counts, the request over, before a collection has to look at them (the measurements: docs/benchmarks.md, Overload).
What start-up made (the app, its routes, the name index; the data are frozen as they load, data/loader.py) lives as
long as the process and is moved out of the collector's sight too.

The batch paths pause the collector for a chunk instead: a chunk's objects live and die together, whereas a server's
threads never stop allocating.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Allocations (less deallocations) between collections of the youngest generation, and collections of each generation
# between collections of the next; chosen beside (10_000, 10, 10) and (20_000, 20, 20) under bench.overload, for the
# best /healthz at no more memory than the interpreter's thresholds (docs/benchmarks.md, Overload).
SERVING_THRESHOLDS = (50_000, 20, 100)


@contextmanager
def serving_collector() -> Iterator[None]:
    """While the app serves: what start-up made frozen, and the collector run at SERVING_THRESHOLDS; the thresholds
    before are restored after (a test process builds many apps)."""
    before = gc.get_threshold()
    gc.collect()  # start-up's garbage, not frozen with the rest
    gc.freeze()
    gc.set_threshold(*SERVING_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


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
