"""Benchmark one card-name suggestion, `search(name, 3)`, against the full scan it replaced: `python -m bench.search`.

Run by hand, never as a timed test. Prints, in one run over the load benchmark's mistyped names (uncached): the
time per name of the reference scan below and of the indexed search (best of two and of three runs), their ratio, and
the index's build time and size.
`ReferenceSearch` is the search as it was before the index, kept verbatim but for the order of prefix hits, changed
the same way since (names the query spells whole words of first); tests/test_search_index.py holds the indexed search
to it.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import re
import time
import tracemalloc
from collections.abc import Callable

from rapidfuzz import fuzz, process

from bench.names import mistyped_names
from deckcheck import load_data
from deckcheck.data import Hit, NameSearch
from deckcheck.data.names import loose_key, loose_text, normalize_name
from deckcheck.data.search_index import KeyIndex

_FUZZY_CUTOFF = 55.0


class ReferenceSearch:
    """NameSearch.search as it was before the index: scans every key for substrings, rapidfuzz over all of them; and
    finds where words end by matching the query's characters against the printed name again, punctuation between."""

    def __init__(self, search: NameSearch) -> None:
        """Search the same rows as `search`."""
        built = search.build()
        self._keys = built._keys
        self._names = built._names
        self._cards = built._cards

    def search(self, query: str, limit: int = 10) -> list[Hit]:
        """The best `limit` cards for `query`, best first, one hit per card."""
        key = loose_key(query)
        if not key:
            return []
        hits: list[Hit] = []
        seen: set[int] = set()

        def take(index: int, match: str, score: float) -> None:
            card = self._cards[index]
            if card.passcode not in seen:
                seen.add(card.passcode)
                hits.append(Hit(card, self._names[index], match, round(score, 1)))

        for index, match, score in self._starting_with(key):
            take(index, match, score)
        if len(hits) < limit and len(key) >= 2:
            inside = [i for i, k in enumerate(self._keys) if key in k and not k.startswith(key)]
            for index in sorted(inside, key=lambda i: (len(self._keys[i]), self._keys[i])):
                take(index, "substring", 80.0 + 9.0 * len(key) / len(self._keys[index]))
        if len(hits) < limit:
            fuzzy = process.extract(key, self._keys, scorer=fuzz.QRatio, limit=limit * 3, score_cutoff=_FUZZY_CUTOFF)
            for _choice, score, index in fuzzy:
                take(index, "fuzzy", 0.8 * float(score))  # below every substring hit
        return hits[:limit]

    def _starting_with(self, key: str) -> list[tuple[int, str, float]]:
        """The names that are `key` (exact), then those that start with it: those it spells whole words of first (a
        boundary after it), then shorter names first."""
        start = bisect.bisect_left(self._keys, key)  # rows are sorted by key
        prefixed = list(itertools.takewhile(lambda i: self._keys[i].startswith(key), range(start, len(self._keys))))
        found = [(index, "exact", 100.0) for index in prefixed if self._keys[index] == key]
        words = re.compile(r"[\W_]*" + r"[\W_]*".join(map(re.escape, key)) + r"(?:[\W_]|$)")
        whole = {i for i in prefixed if words.match(loose_text(normalize_name(self._names[i])))}
        for index in sorted(prefixed, key=lambda i: (i not in whole, len(self._keys[i]), self._keys[i])):
            ratio = len(key) / len(self._keys[index])
            found.append((index, "prefix", 95.0 + 4.0 * ratio if index in whole else 90.0 + 5.0 * ratio))
        return found


def _per_name(search: Callable[[str, int], list[Hit]], names: list[str], rounds: int) -> float:
    """The best of `rounds` runs of `search(name, 3)` over `names`, in seconds per name."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for name in names:
            search(name, 3)
        best = min(best, time.perf_counter() - start)
    return best / len(names)


def _build(keys: tuple[str, ...]) -> tuple[float, int]:
    """The best of three build times of the index over `keys`, in seconds, and the bytes one index holds."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        KeyIndex(keys)
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    index = KeyIndex(keys)
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del index
    return best, held


def main() -> None:
    """Time the reference and the indexed search side by side and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--names", type=int, default=2000, help="mistyped names to suggest for (default 2000)")
    args = parser.parse_args()
    data = load_data()
    search = data.cards.search
    names = mistyped_names(data, args.names)
    keys = search.build()._keys
    build, held = _build(keys)
    reference = _per_name(ReferenceSearch(search).search, names, 2)
    indexed = _per_name(search.search, names, 3)
    print(f"search(name, 3) over {len(names):,} mistyped names and {len(keys):,} keys, uncached")
    print(f"  reference scan  {1000 * reference:8.3f} ms per name")
    print(f"  indexed         {1000 * indexed:8.3f} ms per name")
    print(f"  ratio           {reference / indexed:8.1f} x")
    print(f"  index build     {1000 * build:8.1f} ms, {held / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
