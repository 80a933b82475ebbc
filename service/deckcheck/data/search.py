"""Card-name search: exact, then prefix, then substring, then fuzzy, with width and kana variants folded.

Among the names that start with the query, those where the query ends at a word boundary of the name (its end, a
space or punctuation: "Stardust" in "Stardust Dragon", "スターダスト" in "スターダスト・ドラゴン") come before those
where it is only the start of a longer word ("Starduston", "スターダストン"); kana and kanji run on with no boundary.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import threading
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from deckcheck.data.card import Card
from deckcheck.data.memo import kept_with
from deckcheck.data.names import dashed_words, loose_key, loose_words
from deckcheck.data.search_index import KeyIndex

_RUN = 2048  # names sorted at once
_SUGGESTIONS_CACHED = 4096  # names whose suggestions each index remembers


def _word_ends(words: list[str]) -> int:
    """Where the words of a name (`loose_words`) end in its folded key: bit n is set when the first n characters of
    the key are whole words of the name (the last bit is the whole key)."""
    ends, at = 0, 0
    for word in words:
        at += len(word)
        ends |= 1 << at
    return ends


def _prefix_score(query: int, name: int, whole_words: bool) -> float:
    """The score of a name that starts with the query, by their lengths: 95 to 99 when the query is whole words of
    the name, 90 to 95 when it ends inside a word; higher the more of the name it spells."""
    return 95.0 + 4.0 * query / name if whole_words else 90.0 + 5.0 * query / name


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: the card, which of its names matched, how, and a score from 0 to 100."""

    card: Card
    name: str
    match: str
    score: float


Row = tuple[tuple[str, str, int], tuple[int, Card]]  # (folded key, name, passcode) -> (where its words end, card)
Named = tuple[str, Card, int]  # a name as printed, its card, and where its words end in the key it was found by


def _row(normalized: str, name: str, card: Card) -> Row:
    """The index row of a name, its words split once for both its key and where they end."""
    words = loose_words(normalized)
    return ("".join(words), name, card.passcode), (_word_ends(words), card)


def _sorted_in_runs(rows: dict[tuple[str, str, int], tuple[int, Card]]) -> list[Row]:
    """`sorted(rows.items())`, sorted in runs that a Python generator merges: one sort of every name holds the GIL for
    tens of milliseconds at once, which a reload beside running checks (api/live_data.py) would make them wait."""
    items = list(rows.items())
    runs = [sorted(items[start : start + _RUN]) for start in range(0, len(items), _RUN)]
    return list(heapq.merge(*runs))


class NameSearch:
    """Every Japanese and English card name, searched (safe to share between threads): the index is built when a
    search first needs it, or ahead by `build` (the server builds it at start and on every reload, so no request
    waits for it). A recheck of stored decks by passcode never needs it, and building it is about half of loading the
    data (docs/benchmarks.md, Rechecks). A bounded cache of recent suggestions beside it.

    Beside the names, the readings and short names players write for cards (data/readings.py: `うらら`, `Ash`), which
    only suggestions offer: a name is never read as a card by them."""

    __slots__ = ("_built", "_lock", "_names", "_readings", "memo")

    def __init__(self, names: Iterable[tuple[str, str, Card]], readings: Iterable[tuple[str, Card]] = ()) -> None:
        """Search (normalised name, name as printed, card) rows; suggest by (reading or short name, card) rows."""
        self._names: list[tuple[str, str, Card]] | None = list(names)
        self._readings = tuple(readings)
        self._built: _Index | None = None
        self._lock = threading.Lock()
        # Recent suggestions (data/memo.py): not functools.lru_cache over a bound method, which would make the index
        # a cycle of references that only a full collection frees, where a reload must free the data it replaced.
        self.memo: dict[Hashable, Any] = {}

    def build(self) -> _Index:
        """The index, built now if it is not yet (once, whichever thread asks first)."""
        built = self._built
        if built is None:
            with self._lock:
                if self._built is None:
                    assert self._names is not None
                    self._built, self._names = _Index(self._names, self._readings), None
                built = self._built
        return built

    @kept_with(maxsize=_SUGGESTIONS_CACHED)
    def suggestions(self, name: str) -> tuple[Hit, ...]:
        """The three cards `name` most likely means (`guesses(name, 3)`); remembered for recent names (the oldest
        forgotten first)."""
        return tuple(self.guesses(name, 3))

    def guesses(self, name: str, limit: int) -> list[Hit]:
        """The best `limit` cards `name` may mean, best first: the cards it names whole (`search`'s exact hits), then
        those whose reading or short name it is (match "reading": `うらら` for 灰流うらら), then `search`'s others."""
        return self.build().guesses(name, limit)

    def named(self, key: str) -> list[Named]:
        """Every name a key of `data.names.read_keys` finds: those whose loose key is `key` (a printed dash left out),
        and those whose read key is (each dash ー)."""
        return self.build().named(key)

    def search(self, query: str, limit: int = 10) -> list[Hit]:
        """The best `limit` cards for `query`, best first, one hit per card."""
        return self.build().search(query, limit)


class _Index:
    """The rows of every name sorted by folded key, and the index over the keys; the names that hold dashes by
    their read keys; the readings by their loose keys. Never changed once built."""

    __slots__ = ("_cards", "_dashed", "_ends", "_index", "_keys", "_names", "_readings")

    def __init__(self, names: Iterable[tuple[str, str, Card]], readings: Iterable[tuple[str, Card]] = ()) -> None:
        """Index (normalised name, name as printed, card) rows and (reading, card) rows."""
        names = list(names)
        rows = _sorted_in_runs(dict(_row(key, name, card) for key, name, card in names))
        self._keys = tuple(key for (key, _name, _passcode), _value in rows)
        self._names = tuple(name for (_key, name, _passcode), _value in rows)
        self._ends = tuple(ends for _row, (ends, _card) in rows)
        self._cards = tuple(card for _row, (_ends, card) in rows)
        self._index = KeyIndex(self._keys)
        # A name's loose key drops its dashes; read, each is ー (data/names.py): a tenth of the names hold one.
        self._dashed: dict[str, list[Named]] = {}
        for normalized, name, card in names:
            if "-" in normalized:
                words = dashed_words(normalized)
                self._dashed.setdefault("".join(words), []).append((name, card, _word_ends(words)))
        self._readings: dict[str, list[tuple[str, Card]]] = {}
        for reading, card in readings:
            self._readings.setdefault(loose_key(reading), []).append((reading, card))

    def named(self, key: str) -> list[Named]:
        """Every name whose loose key is `key`, then every name holding dashes whose read key is."""
        start = bisect.bisect_left(self._keys, key)  # rows are sorted by key
        end = bisect.bisect_right(self._keys, key, start)
        rows = zip(self._names[start:end], self._cards[start:end], self._ends[start:end], strict=True)
        return [*rows, *self._dashed.get(key, ())]

    def guesses(self, query: str, limit: int) -> list[Hit]:
        """The cards `query` names whole, then those it is a reading of, then the rest of `search`: the best
        `limit`, one hit per card."""
        found = self.search(query, limit)
        read = [Hit(card, reading, "reading", 100.0) for reading, card in self._readings.get(loose_key(query), ())]
        whole = [hit for hit in found if hit.match == "exact"]
        hits: dict[int, Hit] = {}
        for hit in (*whole, *read, *found):
            hits.setdefault(hit.card.passcode, hit)
        return list(hits.values())[:limit]

    def _starting_with(self, key: str) -> Iterator[tuple[int, str, float]]:
        """(row, match, score) of every key that starts with `key`, best first."""
        start = bisect.bisect_left(self._keys, key)  # rows are sorted by key
        prefixed = list(itertools.takewhile(lambda i: self._keys[i].startswith(key), range(start, len(self._keys))))
        for index in prefixed:
            if self._keys[index] == key:
                yield index, "exact", 100.0
        # Names the query spells whole words of first, then the others; shorter names first in each: the card the
        # prefix most nearly spells.
        by_length = sorted(prefixed, key=lambda i: (len(self._keys[i]), self._keys[i]))
        for whole in (True, False):
            for index in by_length:
                if bool(self._ends[index] >> len(key) & 1) is whole:
                    yield index, "prefix", _prefix_score(len(key), len(self._keys[index]), whole)

    def _candidates(self, key: str, limit: int) -> Iterator[tuple[int, str, float]]:
        """The names for `key`, best kind first: those starting with it, then (from two characters) those holding
        it, shortest first, then at most `limit` * 3 fuzzy ones, each below every substring hit. Lazy: a search
        that has its hits stops finding more."""
        yield from self._starting_with(key)
        shared = self._index.shared(key)
        if len(key) >= 2:
            inside = self._index.containing(key, shared)
            for index in sorted(inside, key=lambda i: (len(self._keys[i]), self._keys[i])):
                yield index, "substring", 80.0 + 9.0 * len(key) / len(self._keys[index])
        for index, score in itertools.islice(self._index.fuzzy(key, shared), limit * 3):
            yield index, "fuzzy", 0.8 * score

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

        for index, match, score in self._candidates(key, limit):
            take(index, match, score)
            if len(hits) == limit:
                break  # later candidates could not come before these, and finding them costs
        return hits[:limit]
