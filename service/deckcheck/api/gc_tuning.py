"""The garbage collector of a serving process, set for many requests in flight at once.

A request in flight holds tracked objects (its scope, its parsed body, the connection's parser and task) for as long
as it waits, and at saturation 130 of them wait while the refused ones sleep. With the interpreter's thresholds
(700, 10, 10), 10 s of 400 clients retrying at once saw 466 collections of the youngest generation, 42 of the middle
one (18.7 ms on average, up to 36.9 ms) and 4 full ones (up to 58.4 ms): 1.44 s of the 10, every thread stopped
meanwhile, and most of /healthz's 99th percentile. At SERVING_THRESHOLDS the same 10 s saw one collection, of 15 ms,
and 685 good answers a second against 415: a request's objects are most often freed by their reference counts, the
request over, before a collection has to look at them (README, Overload).

What start-up made (the app, its routes, the name index; the data are frozen as they load, data/loader.py) lives as
long as the process and is moved out of the collector's sight too. The batch paths pause the collector for a chunk
instead (batch/gc_pause.py): a server's threads never stop allocating.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Allocations (less deallocations) between collections of the youngest generation, and collections of each generation
# between collections of the next; chosen beside (10_000, 10, 10) and (20_000, 20, 20) under bench.overload, with the
# same memory (124 MB at 400 clients) as the interpreter's.
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
