"""The index behind card-name search: which folded keys hold a query, and which come near it, without scanning them all.

Both answers start from one number per key: how many characters it shares with the query, counted as multisets. A key
holds the query only if it shares all of them. And as QRatio is 200 * LCS / (len(query) + len(key)), and the longest
common subsequence is never longer than the characters shared, the same number caps each key's fuzzy score. The
counts come from a 0/1 matrix row per common token, (character, n) for "holds the character at least n times", and a
list of keys per rare one. rapidfuzz then scores only the keys whose cap reaches the cutoff, highest cap first, and
hands each result on as soon as no key left to score could come before it.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process

FUZZY_CUTOFF = 55  # the lowest QRatio a fuzzy hit may have
_COMMON = 500  # a token held by this many keys or more gets a row of the matrix rather than a list of keys
_FIRST_BATCH = 64  # keys scored at first; each batch after is twice the one before

Rows = npt.NDArray[np.intp]
Counts = npt.NDArray[np.unsignedinteger[Any]]
_Array = TypeVar("_Array", bound=npt.NDArray[Any])


class _Char(NamedTuple):
    """Where the tokens of one character are: (char, 1), (char, 2), ... are held by ever fewer keys, so the common ones
    come first, as consecutive rows of the matrix, and the rare ones after, as lists of keys."""

    first: int  # the matrix row of (char, 1), when it is common
    common: int  # how many of the character's tokens are common
    rare: tuple[Rows, ...]  # the keys holding each rare token, in order


class KeyIndex:
    """Token sets over a fixed sequence of keys, built once and never changed (safe to share between threads). A
    token is (character, n): the keys holding it have the character at least n times."""

    __slots__ = ("_chars", "_held", "_key_objects", "_keys", "_lengths", "_lengths_scaled")

    def __init__(self, keys: Sequence[str]) -> None:
        """Index `keys`; results name keys by their position in it."""
        self._keys = tuple(keys)
        self._key_objects = _frozen(np.array(self._keys, dtype=object))
        lengths = np.fromiter(map(len, self._keys), dtype=np.int32, count=len(self._keys))
        chars, holders, starts = _tokens(self._keys, lengths)
        common: list[Rows] = []
        self._chars: dict[str, _Char] = {}
        for char, first, last in zip(chars.tolist(), starts[:-1].tolist(), starts[1:].tolist(), strict=True):
            tokens = holders[first:last]  # (char, 1), (char, 2), ...: ever fewer keys
            many = sum(len(token) >= _COMMON for token in tokens)
            self._chars[chr(char)] = _Char(len(common), many, tuple(_frozen(token) for token in tokens[many:]))
            common.extend(tokens[:many])
        held = np.zeros((len(common), len(self._keys)), dtype=np.uint8)
        if common:
            held[np.repeat(np.arange(len(common)), [len(token) for token in common]), np.concatenate(common)] = 1
        self._held = _frozen(held)
        self._lengths = _frozen(lengths)
        self._lengths_scaled = _frozen(FUZZY_CUTOFF * lengths)

    def shared(self, key: str) -> Counts:
        """How many characters each key shares with `key`, counted as multisets (a new array, the caller's own)."""
        common: list[int] = []
        rare: list[Rows] = []
        for char, count in Counter(key).items():
            if place := self._chars.get(char):
                common.extend(range(place.first, place.first + min(count, place.common)))
                rare.extend(place.rare[: max(count - place.common, 0)])
        counts: Counts = np.add.reduce(self._held[common], axis=0, dtype=np.min_scalar_type(len(key)))
        for rows in rare:
            counts[rows] += 1  # the keys holding one token are distinct
        return counts

    def containing(self, key: str, shared: Counts) -> list[int]:
        """The keys that hold `key` but do not start with it, in index order; `shared` is `self.shared(key)`."""
        rows: list[int] = (shared == len(key)).nonzero()[0].tolist()
        return [row for row in rows if key in self._keys[row] and not self._keys[row].startswith(key)]

    def fuzzy(self, key: str, shared: Counts) -> Iterator[tuple[int, float]]:
        """(row, QRatio) of every key scoring at least FUZZY_CUTOFF against `key`, in the order rapidfuzz's
        `process.extract` over all the keys gives them: best score first, then lower row first. `shared` is
        `self.shared(key)`."""
        ceiling = shared.astype(np.int32) * 200  # the score is at most 200 * shared / (len(key) + len(row))
        rows = (ceiling - self._lengths_scaled >= FUZZY_CUTOFF * len(key)).nonzero()[0]
        # Score the rows by the whole points of their bound, highest first (a radix sort, as the points are small).
        points = (ceiling[rows] // (len(key) + self._lengths[rows])).astype(np.uint8)
        order = np.argsort(points, kind="stable")[::-1]
        found: list[tuple[float, int]] = []  # a heap of (-score, row)
        done, batch = 0, _FIRST_BATCH
        while done < len(order):
            scored = rows[order[done : done + batch]]
            choices = self._key_objects[scored].tolist()
            scores = process.cdist([key], choices, scorer=fuzz.QRatio, score_cutoff=FUZZY_CUTOFF, dtype=np.float64)[0]
            passed = scores.nonzero()[0]  # below the cutoff scores 0
            for score, row in zip(scores[passed].tolist(), scored[passed].tolist(), strict=True):
                heapq.heappush(found, (-score, row))
            done, batch = done + len(scored), batch * 2
            # No row left scores this much: its bound is below it by 1 / (len(key) + len(row)) at least, far more than
            # any float error in rapidfuzz's score.
            unscored_below = int(points[order[done]]) + 1 if done < len(order) else 0
            while found and -found[0][0] >= unscored_below:
                score, row = heapq.heappop(found)
                yield row, -score


def _frozen(array: _Array) -> _Array:
    array.flags.writeable = False
    return array


def _tokens(keys: tuple[str, ...], lengths: npt.NDArray[np.int32]) -> tuple[Counts, list[Rows], Counts]:
    """Every token of the keys, sorted by character, then n: the characters (code points, ascending), the keys
    holding each token (ascending), and where each character's tokens start in that list (one more at the end).
    Each character of a key is one token: (char, n) for its nth time in the key."""
    codes = np.frombuffer("".join(keys).encode("utf-32-le"), dtype=np.uint32)
    rows = np.repeat(np.arange(len(keys), dtype=np.intp), lengths)
    order = np.lexsort((codes, rows))  # by key, then character; stable
    rows, codes = rows[order], codes[order]
    at = np.arange(len(codes))
    run = np.ones(len(codes), dtype=bool)  # where a run of one character in one key starts
    run[1:] = (rows[1:] != rows[:-1]) | (codes[1:] != codes[:-1])
    nth = at - np.maximum.accumulate(np.where(run, at, 0))  # n - 1
    order = np.lexsort((rows, nth, codes))
    rows, nth, codes = rows[order], nth[order], codes[order]
    token = np.ones(len(codes), dtype=bool)  # where a token's keys start
    token[1:] = (codes[1:] != codes[:-1]) | (nth[1:] != nth[:-1])
    token_starts = token.nonzero()[0]
    holders = np.split(rows, token_starts[1:]) if len(codes) else []
    char = nth[token_starts] == 0  # the tokens (char, 1): where each character's tokens start
    return codes[token_starts[char]], holders, np.append(char.nonzero()[0], len(token_starts))
