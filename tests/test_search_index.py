"""The indexed name search finds exactly what the full scan it replaced finds: the same hits, in the same order, with
the same match kinds and scores, for any query and any limit. The scan is bench.search.ReferenceSearch."""

from __future__ import annotations

import random
import string
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.names import mistyped_names
from bench.search import ReferenceSearch
from deckcheck import Data
from deckcheck.data import Hit, NameSearch

KANA = [chr(c) for c in range(0x3041, 0x3097)] + [chr(c) for c in range(0x30A1, 0x30FB)] + ["ー"]
OTHERS = [*string.ascii_letters, *string.digits, *" -!?'&.,:・＝（）「」ＡＢｃ１２"]
SLIPS = ("drop", "double", "swap", "replace", "insert")

Row = tuple[int, str, str, float]


def _rows(hits: list[Hit]) -> list[Row]:
    return [(hit.card.passcode, hit.name, hit.match, hit.score) for hit in hits]


@pytest.fixture(scope="module")
def search(data: Data) -> NameSearch:
    """The bundled data's name search."""
    return data.cards.search


@pytest.fixture(scope="module")
def reference(search: NameSearch) -> ReferenceSearch:
    """The full scan over the same rows."""
    return ReferenceSearch(search)


@pytest.fixture(scope="module")
def names(data: Data) -> list[str]:
    """Every Japanese and English card name."""
    cards = data.cards.by_passcode.values()
    return sorted({name for card in cards for name in (card.name_ja, card.name_en) if name})


@pytest.fixture(scope="module")
def alphabet(names: list[str]) -> list[str]:
    """The characters of the card names, the kana, and some Latin letters, digits and punctuation, wide and narrow."""
    return sorted({char for name in names for char in name} | set(KANA) | set(OTHERS))


def _same(search: NameSearch, reference: ReferenceSearch, query: str, limit: int) -> None:
    assert _rows(search.search(query, limit)) == _rows(reference.search(query, limit)), (query, limit)


@settings(max_examples=300, deadline=None)
@given(draw=st.data())
def test_random_text(search: NameSearch, reference: ReferenceSearch, alphabet: list[str], draw: st.DataObject) -> None:
    chars = st.one_of(st.sampled_from(alphabet), st.sampled_from(KANA), st.sampled_from(OTHERS))
    query = draw.draw(st.text(chars, max_size=30), label="query")
    _same(search, reference, query, draw.draw(st.integers(1, 50), label="limit"))


@settings(max_examples=300, deadline=None)
@given(draw=st.data())
def test_slips_of_real_names(
    search: NameSearch, reference: ReferenceSearch, names: list[str], alphabet: list[str], draw: st.DataObject
) -> None:
    query = draw.draw(st.sampled_from(names), label="name")
    for _ in range(draw.draw(st.integers(0, 3), label="slips")):
        at = draw.draw(st.integers(0, len(query)))
        kind = draw.draw(st.sampled_from(SLIPS))
        char = draw.draw(st.sampled_from(alphabet))
        if kind == "drop":
            query = query[:at] + query[at + 1 :]
        elif kind == "double":
            query = query[: at + 1] + query[at:]
        elif kind == "swap":
            query = query[:at] + query[at + 1 : at + 2] + query[at : at + 1] + query[at + 2 :]
        else:
            query = query[:at] + char + query[at + (kind == "replace") :]
    start = draw.draw(st.integers(0, len(query)), label="start")
    end = draw.draw(st.integers(start, len(query)), label="end")
    _same(search, reference, query[start:end], draw.draw(st.integers(1, 50), label="limit"))


def test_every_limit(data: Data, search: NameSearch, reference: ReferenceSearch) -> None:
    queries = [*mistyped_names(data, 8), "ブルーアイズ", "ドラゴン", "dark mag", "magician", "ー", "e", "1", "ﾌﾞﾗｯｸ"]
    for query in queries:
        for limit in range(1, 51):
            _same(search, reference, query, limit)


@pytest.mark.parametrize("limit", [3, 10])
def test_mistyped_names(data: Data, search: NameSearch, reference: ReferenceSearch, limit: int) -> None:
    for name in mistyped_names(data, 500):
        _same(search, reference, name, limit)


@pytest.mark.parametrize("limit", [3, 10])
def test_prefixes_and_substrings_of_real_names(
    search: NameSearch, reference: ReferenceSearch, names: list[str], limit: int
) -> None:
    rng = random.Random(2008)
    for name in rng.sample(names, 200):
        start = rng.randrange(len(name))
        for query in (name[: rng.randint(1, 6)], name[start : start + rng.randint(2, 8)], name):
            _same(search, reference, query, limit)


def test_threads_share_one_index(data: Data, search: NameSearch) -> None:
    names = mistyped_names(data, 200, seed=7)
    alone = [_rows(search.search(name, 3)) for name in names]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda name: _rows(search.search(name, 3)), names))
    assert together == alone


def test_suggestions_are_the_best_three_and_remembered(search: NameSearch) -> None:
    name = "Blue-Eyes Whtie Dragn"
    first = search.suggestions(name)
    assert first == tuple(search.search(name, 3))
    assert [hit.match for hit in first] == ["fuzzy"] * 3
    assert search.suggestions(name) is first
    assert search.suggestions("ブルーアイズ・ホワイト・ドラゴン") == tuple(
        search.search("ブルーアイズ・ホワイト・ドラゴン", 3)
    )
