"""Card-name search: exact, then prefix, then substring, then fuzzy, with width and kana variants folded."""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from deckcheck.data.card import Card
from deckcheck.data.names import normalize_name
from deckcheck.data.search_index import KeyIndex

_HIRAGANA = re.compile("[\u3041-\u3096]+")
_NOT_WORD = re.compile(r"[\W_]+")
_SUGGESTIONS_CACHED = 4096  # names whose suggestions each index remembers


def search_key(text: str) -> str:
    """The folded form names are searched by: SPEC normalisation, hiragana as katakana, no spaces or punctuation."""
    return _fold_normalized(normalize_name(text))


def _fold_normalized(name: str) -> str:
    return _NOT_WORD.sub("", _HIRAGANA.sub(_to_katakana, name))


def _to_katakana(match: re.Match[str]) -> str:
    return "".join(chr(ord(char) + 0x60) for char in match.group())


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: the card, which of its names matched, how, and a score from 0 to 100."""

    card: Card
    name: str
    match: str
    score: float


class NameSearch:
    """An immutable index over every Japanese and English card name, with a bounded cache of recent suggestions (safe to
    share between threads)."""

    __slots__ = ("_cards", "_index", "_keys", "_names", "_suggestions")

    def __init__(self, names: Iterable[tuple[str, str, Card]]) -> None:
        """Index (normalised name, name as printed, card) rows."""
        rows = sorted({(_fold_normalized(key), name, card.passcode): card for key, name, card in names}.items())
        self._keys = tuple(key for (key, _name, _passcode), _card in rows)
        self._names = tuple(name for (_key, name, _passcode), _card in rows)
        self._cards = tuple(card for _row, card in rows)
        self._index = KeyIndex(self._keys)
        self._suggestions = functools.lru_cache(maxsize=_SUGGESTIONS_CACHED)(self._suggest)

    def suggestions(self, name: str) -> tuple[Hit, ...]:
        """The three cards `name` most likely means, as `search(name, 3)` finds them; remembered for recent names."""
        return self._suggestions(name)

    def _suggest(self, name: str) -> tuple[Hit, ...]:
        return tuple(self.search(name, 3))

    def search(self, query: str, limit: int = 10) -> list[Hit]:
        """The best `limit` cards for `query`, best first, one hit per card."""
        key = search_key(query)
        if not key:
            return []
        hits: list[Hit] = []
        seen: set[int] = set()

        def take(index: int, match: str, score: float) -> None:
            card = self._cards[index]
            if card.passcode not in seen:
                seen.add(card.passcode)
                hits.append(Hit(card, self._names[index], match, round(score, 1)))

        start = bisect.bisect_left(self._keys, key)  # rows are sorted by key
        prefixed = []
        for index in range(start, len(self._keys)):
            if not self._keys[index].startswith(key):
                break
            prefixed.append(index)
        for index in prefixed:
            if self._keys[index] == key:
                take(index, "exact", 100.0)
        # Shorter names first: the card the prefix most nearly spells.
        for index in sorted(prefixed, key=lambda i: (len(self._keys[i]), self._keys[i])):
            take(index, "prefix", 90.0 + 9.0 * len(key) / len(self._keys[index]))
        if len(hits) < limit:
            shared = self._index.shared(key)
            if len(key) >= 2:
                inside = self._index.containing(key, shared)
                for index in sorted(inside, key=lambda i: (len(self._keys[i]), self._keys[i])):
                    take(index, "substring", 80.0 + 9.0 * len(key) / len(self._keys[index]))
            if len(hits) < limit:
                for index, score in itertools.islice(self._index.fuzzy(key, shared), limit * 3):
                    take(index, "fuzzy", 0.8 * score)  # below every substring hit
                    if len(hits) == limit:
                        break  # the rest could not change the answer, and finding them costs
        return hits[:limit]
