"""The indexed name search finds exactly what the full scan it replaced finds: the same hits, in the same order, with
the same match kinds and scores, for any query and any limit. The scan is bench.search.ReferenceSearch. And both
rank real names as they should: among names that start with the query, those where it ends at a word boundary
first."""

from __future__ import annotations

import random
import string
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.names import mistyped_names
from bench.search import ReferenceSearch
from deckcheck import Data
from deckcheck.data import Hit, NameSearch
from deckcheck.data.names import normalize_name
from tests.profiles import examples

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


@settings(max_examples=examples(300), deadline=None)
@given(draw=st.data())
def test_random_text(search: NameSearch, reference: ReferenceSearch, alphabet: list[str], draw: st.DataObject) -> None:
    chars = st.one_of(st.sampled_from(alphabet), st.sampled_from(KANA), st.sampled_from(OTHERS))
    query = draw.draw(st.text(chars, max_size=30), label="query")
    _same(search, reference, query, draw.draw(st.integers(1, 50), label="limit"))


@settings(max_examples=examples(300), deadline=None)
@given(draw=st.data())
def test_slips_of_real_names(
    search: NameSearch, reference: ReferenceSearch, names: list[str], alphabet: list[str], draw: st.DataObject
) -> None:
    query = names[draw.draw(st.integers(0, len(names) - 1), label="name")]  # sampled_from hashes every name a draw
    for _ in range(draw.draw(st.integers(0, 3), label="slips")):
        at = draw.draw(st.integers(0, len(query)))
        kind = draw.draw(st.sampled_from(SLIPS))
        char = alphabet[draw.draw(st.integers(0, len(alphabet) - 1))]
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


@pytest.mark.slow
def test_every_limit(data: Data, search: NameSearch, reference: ReferenceSearch) -> None:
    queries = [*mistyped_names(data, 8), "ブルーアイズ", "ドラゴン", "dark mag", "magician", "ー", "e", "1", "ﾌﾞﾗｯｸ"]
    for query in queries:
        # The scan's best 50, worked out once: its best `limit` are their first `limit` (checked at three limits).
        best = _rows(reference.search(query, 50))
        assert [_rows(reference.search(query, limit)) for limit in (1, 3, 10)] == [best[:1], best[:3], best[:10]]
        assert [_rows(search.search(query, limit)) for limit in range(1, 51)] == [best[:n] for n in range(1, 51)]


@pytest.mark.slow
@pytest.mark.parametrize("limit", [3, 10])
def test_mistyped_names(data: Data, search: NameSearch, reference: ReferenceSearch, limit: int) -> None:
    for name in mistyped_names(data, 500):
        _same(search, reference, name, limit)


@pytest.mark.slow
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


def test_the_index_is_built_once_by_whichever_thread_asks_first(data: Data) -> None:
    cards = [card for card in data.cards.by_passcode.values() if card.name_en][:2000]
    rows = [(normalize_name(card.name_en), card.name_en, card) for card in cards]
    fresh, asked = NameSearch(rows), threading.Barrier(8)

    def first_search(name: str) -> tuple[int, list[Row]]:
        asked.wait()  # every thread asks at once, before any index is built
        return id(fresh.build()), _rows(fresh.search(name, 3))

    names = [card.name_en[:-2] for card in cards[:8]]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(first_search, names))
    assert {built for built, _rows_found in answers} == {id(fresh.build())}
    assert [found for _built, found in answers] == [_rows(NameSearch(rows).search(name, 3)) for name in names]


def test_suggestions_are_the_best_three_and_remembered(search: NameSearch) -> None:
    name = "Blue-Eyes Whtie Dragn"
    first = search.suggestions(name)
    assert first == tuple(search.search(name, 3))
    assert [hit.match for hit in first] == ["fuzzy"] * 3
    assert search.suggestions(name) is first
    # A reading of a card's name (cards/readings.tsv) puts that card first, before the search's hits.
    reading = search.suggestions("ブルーアイズ・ホワイト・ドラゴン")
    assert [(hit.card.passcode, hit.match) for hit in reading][:1] == [(89631139, "reading")]
    assert reading[1:] == tuple(search.search("ブルーアイズ・ホワイト・ドラゴン", 2))


# Whole answers on real names: the names the query spells whole words of (a space, a dash, a slash, ・ or the end
# after it), then those where it runs on into a longer word (Starduston, スターダストン, Kuribohrn), then substrings.
GOLDEN: dict[tuple[str, int], list[Row]] = {
    ("Stardust", 22): [
        (35129241, "Stardust Wish", "prefix", 97.7),
        (91262474, "Stardust Wurm", "prefix", 97.7),
        (27196937, "Stardust Flash", "prefix", 97.5),
        (63184227, "Stardust Trail", "prefix", 97.5),
        (44508094, "Stardust Dragon", "prefix", 97.3),
        (13556444, "Stardust Mirage", "prefix", 97.3),
        (80244114, "Stardust Phantom", "prefix", 97.1),
        (20590784, "Stardust Re-Spark", "prefix", 97.1),
        (89181369, "Stardust Shimmer", "prefix", 97.1),
        (74892653, "Stardust Warrior", "prefix", 97.1),
        (37799519, "Stardust Synchron", "prefix", 97.0),
        (68543408, "Stardust Xiaolong", "prefix", 97.0),
        (83994433, "Stardust Spark Dragon", "prefix", 96.7),
        (37750912, "Stardust Illumination", "prefix", 96.6),
        (64880894, "Stardust Charge Warrior", "prefix", 96.5),
        (97792247, "Stardust Assault Warrior", "prefix", 96.5),
        (26268488, "Stardust Sifr Divine Dragon", "prefix", 96.3),
        (61257789, "Stardust Dragon/Assault Mode", "prefix", 96.3),
        (89474727, "Stardust Chronicle Spark Dragon", "prefix", 96.1),
        (76636978, "Stardust Dragon - Victim Sanctuary", "prefix", 96.1),
        (95403418, "Starduston", "prefix", 94.0),
        (36521459, "Malefic Stardust Dragon", "substring", 83.4),
    ],
    ("スターダスト", 15): [
        (91262474, "スターダスト・ヴルム", "prefix", 97.7),
        (63184227, "スターダスト・トレイル", "prefix", 97.4),
        (44508094, "スターダスト・ドラゴン", "prefix", 97.4),
        (74892653, "スターダスト・ウォリアー", "prefix", 97.2),
        (68543408, "スターダスト・シャオロン", "prefix", 97.2),
        (37799519, "スターダスト・シンクロン", "prefix", 97.2),
        (80244114, "スターダスト・ファントム", "prefix", 97.2),
        (13556444, "スターダスト・ミラージュ", "prefix", 97.2),
        (37750912, "スターダスト・イルミネイト", "prefix", 97.0),
        (61257789, "スターダスト・ドラゴン／バスター", "prefix", 96.7),
        (97792247, "スターダスト・アサルト・ウォリアー", "prefix", 96.6),
        (64880894, "スターダスト・チャージ・ウォリアー", "prefix", 96.6),
        (76636978, "スターダスト・ドラゴン－ヴィクテム・サンクチュアリ", "prefix", 96.1),
        (95403418, "スターダストン", "prefix", 94.3),
        (83994433, "閃珖竜 スターダスト", "substring", 86.0),
    ],
    ("dark magician", 12): [
        (46986414, "Dark Magician", "exact", 100.0),
        (38033121, "Dark Magician Girl", "prefix", 98.0),
        (50725996, "Dark Magician Knight", "prefix", 97.7),
        (40737112, "Dark Magician of Chaos", "prefix", 97.5),
        (59400890, "Dark Magician of Destruction", "prefix", 96.9),
        (41721210, "Dark Magician the Dragon Knight", "prefix", 96.8),
        (88570003, "Dark Magician, the Pharaoh's Servant", "prefix", 96.6),
        (43892408, "Dark Magician Girl the Dragon Knight", "prefix", 96.5),
        (5829717, "Dark Magician the Knight of Dragon Magic", "prefix", 96.4),
        (342673, "Dark Magician the Magician of Black Magic", "prefix", 96.4),
        (2501624, "Dark Magician Girl the Magician's Apprentice", "prefix", 96.3),
        (50237654, "The Dark Magicians", "substring", 86.8),
    ],
    ("ブラック・マジシャン", 4): [
        (46986414, "ブラック・マジシャン", "exact", 100.0),
        (38033121, "ブラック・マジシャン・ガール", "prefix", 98.0),
        (50725996, "ブラック・マジシャンズ・ナイト", "prefix", 93.5),
        (41721210, "竜騎士ブラック・マジシャン", "substring", 86.8),
    ],
    ("Kuriboh", 4): [
        (40640057, "Kuriboh", "exact", 100.0),
        (14965712, "Kuriboh - Multiply!", "prefix", 96.9),
        (78355370, "Kuribohrn", "prefix", 93.9),
        (595626, "Ankuriboh", "substring", 87.0),
    ],
    # Kana that run on with no boundary keep the shorter-first order: クリボーを呼ぶ笛 is no whole word.
    ("くりぼー", 6): [
        (40640057, "クリボー", "exact", 100.0),
        (33245030, "クリボール", "prefix", 94.0),
        (78355370, "クリボーン", "prefix", 94.0),
        (20065322, "クリボーを呼ぶ笛", "prefix", 92.5),
        (50185950, "サクリボー", "substring", 87.2),
        (2830693, "虹クリボー", "substring", 87.2),
    ],
}


@pytest.mark.parametrize(("query", "limit"), list(GOLDEN))
def test_whole_words_rank_first_on_real_names(
    search: NameSearch, reference: ReferenceSearch, query: str, limit: int
) -> None:
    assert _rows(search.search(query, limit)) == GOLDEN[query, limit]
    assert _rows(reference.search(query, limit)) == GOLDEN[query, limit]
