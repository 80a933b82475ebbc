"""A chunk of recheck lines answered through the columnar verdict (Rechecker.check_lines) is, byte for byte, what
the engine answers line by line (Rechecker.check), with the same summary: plain lines of links and of entries, in
languages and protectors of their own, under one list or two, among lines the columnar path must leave to the
engine; with the caller's own fields, within their bounds or past them, of any JSON or of what only the models read
(NaN, numbers past 64 bits)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bench.corpus import Corpus, CorpusDeck
from deckcheck import Data
from deckcheck.batch import Rechecker, RecheckSetup, Summary
from deckcheck.model import Format
from tests.profiles import examples

DAY = dt.date(2008, 9, 1)
# Legal, forbidden, limited, semi-limited, alias, Synchro, TCG-only, printed after 2008, no card at all.
ODD = [83764718, 55144522, 14087893, 70828912, 70095155, 44508094, 1861629, 86066372, 12345678]
FORMATS: tuple[Format, ...] = ("ocg", "ocg", "ocg", "tcg")  # the corpus is of OCG cards
LANGUAGES = [None, None, None, "ja", "en", "en-US", "EN", "ko", "zh", "fr", "x"]
# A line's own fields: none, an organiser's, nested values and nulls, at and past the bounds on their count and size.
OWN_FIELDS: list[dict[str, Any]] = [
    {},
    {},
    {"player": "山田 太郎", "email": "taro@example.jp"},
    {"player": "Ann", "table": 12, "paid": True, "note": None},
    {"team": {"name": "A", "members": [1, 2.5, None]}},
    {f"f{i}": i for i in range(32)},
    {f"f{i}": i for i in range(33)},
    {"memo": "x" * (4096 - 11)},  # 4,096 bytes as JSON: within the bound
    {"memo": "x" * (4096 - 10)},
]
# Own fields written into a line's bytes: values orjson does not read as the models do.
RAW_FIELDS = [b"", b"", b"", b',"big":1180591620717411303424', b',"nan":NaN', b',"neg":-1e400']


def _entries(passcodes: tuple[int, ...], draw: st.DrawFn) -> list[dict[str, Any]]:
    """Entries in one language (most often), or each in its own."""
    entries = []
    one = draw(st.sampled_from([*LANGUAGES, False]))
    for passcode, count in Counter(passcodes).items():
        entry: dict[str, Any] = {"passcode": passcode}
        if count > 1 or draw(st.booleans()):
            entry["count"] = count
        language = draw(st.sampled_from(LANGUAGES)) if one is False else one
        if language is not None:
            entry["language"] = language
        entries.append(entry)
    return entries


@st.composite
def lines(draw: st.DrawFn, decks: list[CorpusDeck]) -> bytes | None:
    """A stored deck as a recheck line, often as a link, sometimes as entries, with odd cards, fields or values."""
    deck = decks[draw(st.integers(0, len(decks) - 1))]  # an index: sampled_from hashes the corpus each draw
    main = list(deck.main)
    if draw(st.integers(0, 5)) == 0:
        main[draw(st.integers(0, len(main) - 1))] = draw(st.sampled_from(ODD))
    odd_id = draw(st.sampled_from([17, 2**63 - 1, 2**63, "x" * 200, "x" * 201, None, True]))
    body: dict[str, Any] = {"id": odd_id if draw(st.integers(0, 7)) == 0 else deck.id}
    if draw(st.integers(0, 2)):
        body["ydke"] = CorpusDeck(deck.id, tuple(main), deck.extra, deck.side, True).ydke()
    else:
        for name, cards in (("main", tuple(main)), ("extra", deck.extra), ("side", deck.side)):
            if len(cards) > 0 or draw(st.booleans()):
                body[name] = _entries(cards, draw)
    if draw(st.integers(0, 5)) == 0:
        body["protectors"] = draw(
            st.sampled_from([{}, {"used": True}, {"used": True, "opaque_back": True}, {"uniform": False}, {"x": 1}])
        )
    if draw(st.integers(0, 5)) == 0:
        body["default_language"] = draw(st.sampled_from(["ja", "en", "en-GB", "ko", "", "zz-"]))
    if draw(st.integers(0, 12)) == 0:
        body[draw(st.sampled_from(["name", "roster", "ydk"]))] = "x"
    body |= draw(st.sampled_from(OWN_FIELDS))
    raw = orjson.dumps(body)
    if type(body.get("id")) in (str, int):
        raw = raw[:-1] + draw(st.sampled_from(RAW_FIELDS)) + b"}"
    return draw(st.sampled_from([raw] * 12 + [None, b"", b"{", b"[]", raw[:-1]]))


def same_as_engine(checker: Rechecker, chunk: list[bytes | None], first: int = 1) -> tuple[bytes, Summary]:
    """Assert that `check_lines` answers the chunk with the lines and summary the engine gives line by line; its
    lines and summary. Every line given as bytes here is UTF-8, and the summary counts it so."""
    got, summary = checker.check_lines(first, chunk)
    expected, by_line = [], Summary(utf8=sum(raw is not None for raw in chunk))
    for offset, raw in enumerate(chunk):
        line, outcome = checker.check(first + offset, raw)
        expected.append(line)
        by_line.add(outcome)
    assert got.splitlines() == b"".join(expected).splitlines()
    assert summary == by_line
    return got, summary


@pytest.fixture(scope="module")
def corpus(data: Data) -> list[CorpusDeck]:
    return list(Corpus(data).decks(300))


@pytest.mark.parametrize("previous", [None, "ocg-2008-03-01"])
@settings(max_examples=examples(120), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(case=st.data())
def test_a_chunk_is_the_engines_line_by_line(
    data: Data, corpus: list[CorpusDeck], previous: str | None, case: st.DataObject
) -> None:
    fmt = case.draw(st.sampled_from(FORMATS))
    setup = RecheckSetup(
        DAY,
        data.banlists.in_force(DAY, fmt),
        None if previous is None or fmt == "tcg" else data.banlists.get(previous),
        case.draw(st.sampled_from(["en", "ja"])),
        fmt,
    )
    checker = Rechecker(data, setup)
    chunk = case.draw(st.lists(lines(corpus), min_size=4, max_size=60))
    got, summary = same_as_engine(checker, chunk, case.draw(st.integers(1, 10**6)))
    event("legal lines: " + ("5 or more" if summary.legal >= 5 else str(summary.legal)))
    event("lines with own fields: " + str(min(got.count(b'"fields":'), 3)))


def test_the_corpus_with_two_lists(data: Data, corpus: list[CorpusDeck]) -> None:
    """Every corpus deck as a link and as entries, under the lists of 2008-09 and 2008-03."""
    setup = RecheckSetup(DAY, data.banlists.in_force(DAY), data.banlists.get("ocg-2008-03-01"))
    checker = Rechecker(data, setup)
    chunk = [deck.line() for deck in corpus]
    for deck in corpus:
        sections = {
            n: [{"passcode": p} for p in c]
            for n, c in zip(("main", "extra", "side"), (deck.main, deck.extra, deck.side), strict=True)
        }
        chunk.append(orjson.dumps({"id": deck.id, **sections}))
    got, summary = checker.check_lines(1, chunk)
    expected = b"".join(checker.check(number, raw)[0] for number, raw in enumerate(chunk, 1))
    assert got == expected
    assert summary.lines == 2 * len(corpus)
    assert summary.legal > len(corpus)
