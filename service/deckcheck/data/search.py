"""Card-name search: exact, then prefix, then substring, then fuzzy, with width and kana variants folded."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from deckcheck.data.card import Card
from deckcheck.data.names import normalize_name

_HIRAGANA = re.compile("[\u3041-\u3096]+")
_NOT_WORD = re.compile(r"[\W_]+")
_FUZZY_CUTOFF = 55.0


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
    """An immutable index over every Japanese and English card name."""

    __slots__ = ("_cards", "_keys", "_names")

    def __init__(self, names: Iterable[tuple[str, str, Card]]) -> None:
        """Index (normalised name, name as printed, card) rows."""
        rows = sorted({(_fold_normalized(key), name, card.passcode): card for key, name, card in names}.items())
        self._keys = tuple(key for (key, _name, _passcode), _card in rows)
        self._names = tuple(name for (_key, name, _passcode), _card in rows)
        self._cards = tuple(card for _row, card in rows)

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
        if len(hits) < limit and len(key) >= 2:
            inside = [i for i, k in enumerate(self._keys) if key in k and not k.startswith(key)]
            for index in sorted(inside, key=lambda i: (len(self._keys[i]), self._keys[i])):
                take(index, "substring", 80.0 + 9.0 * len(key) / len(self._keys[index]))
        if len(hits) < limit:
            fuzzy = process.extract(key, self._keys, scorer=fuzz.QRatio, limit=limit * 3, score_cutoff=_FUZZY_CUTOFF)
            for _choice, score, index in fuzzy:
                take(index, "fuzzy", 0.8 * float(score))  # below every substring hit
        return hits[:limit]
