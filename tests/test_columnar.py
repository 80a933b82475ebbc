"""The columnar verdict (batch/columnar.py) held to the engine, deck by deck, and ydke links read in numpy
(batch/chunk.py) held to the reader of single links."""

from __future__ import annotations

import base64
import datetime as dt
import struct

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bench.corpus import Corpus
from deckcheck import Context, Data, validate
from deckcheck.batch.chunk import decode
from deckcheck.batch.columnar import verdict
from deckcheck.formats import DeckFormatError, ydke_copies
from deckcheck.model import deck_of
from deckcheck.rules.facts import card_arrays
from tests.cases import UNLIMITED
from tests.profiles import examples

DAYS = (dt.date(2008, 9, 1), dt.date(2019, 6, 1))
# Unlimited, alias (Cyber Dragon and its alternate art), forbidden, limited, semi-limited, Fusion, Synchro, Xyz,
# Link, Pendulum, TCG-only, OCG-only, printed after 2008, two cards of one name, and passcodes that are no card.
EDGE = [*UNLIMITED, 36996508, 55144522, 83764718, 83764719, 14087893, 35809262, 44508094, 84013237, 70095154]
EDGE += [70095155, 18144507, 1861629, 16178681, 11876803, 433377, 40737112, 57953380, 12345678, 86066372]
EDGE += [94415058, 756652, 5405694, 10000100, 70828912, 23557835, 56570271, 32807846, 71413901, 65192027, 1, 0]


def _link(sections: list[list[int]], style: int) -> str:
    parts = [base64.b64encode(struct.pack(f"<{len(s)}I", *s)).decode() for s in sections]
    if style == 1:  # url-safe and unpadded, as some sites write them
        parts = [p.replace("+", "-").replace("/", "_").rstrip("=") for p in parts]
    if style == 2:  # broken: a section whose bytes are no whole number of passcodes
        parts[0] += "AA=="
    return "ydke://" + "!".join(parts) + ("!" if style != 3 else "")


@st.composite
def links(draw: st.DrawFn, safe: tuple[list[int], list[int]], real: list[int]) -> str:
    """A deck of cards legal everywhere the test asks, on edge sizes, then a few random changes."""
    sections: list[list[int]] = []
    held: dict[int, int] = {}
    for bound, pool in (([39, 40, 41, 59, 60, 61], safe[0]), ([0, 14, 15, 16], safe[1]), ([0, 15, 16], safe[0])):
        size = draw(st.sampled_from(bound)) if draw(st.integers(0, 4)) else draw(st.integers(0, 70))
        cards: list[int] = []
        while len(cards) < size:
            card = pool[draw(st.integers(0, len(pool) - 1))]  # an index: sampled_from would hash the pool each draw
            take = min(3 - held.get(card, 0), draw(st.integers(1, 3)), size - len(cards))
            held[card] = held.get(card, 0) + max(take, 0)
            cards += [card] * take
        sections.append(cards)
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3]))):
        target = sections[draw(st.integers(0, 2))]
        cards = EDGE if draw(st.integers(0, 3)) else real
        card = cards[draw(st.integers(0, len(cards) - 1))]
        if draw(st.booleans()) and target:
            del target[draw(st.integers(0, len(target) - 1))]
        target += [card] * draw(st.integers(1, 4))
    shuffled = [draw(st.permutations(section)) for section in sections]
    return _link(shuffled, draw(st.sampled_from([0, 0, 0, 0, 0, 0, 1, 2, 3])))


@pytest.fixture(scope="module")
def pools(data: Data) -> tuple[tuple[list[int], list[int]], list[int]]:
    """Cards any deck of the test may hold three of, for the main and the extra deck; and every real card."""
    real = sorted(data.cards.by_passcode)
    arrays = [card_arrays(data.cards, day, fmt) for day in DAYS for fmt in ("ocg", "tcg")]
    # passcode -> (the sections it may stand in, as bits; printed in the TCG by the day)
    tables = [{int(p): (int(b), bool(t)) for p, b, t in zip(a.passcodes, a.bits, a.tcg, strict=True)} for a in arrays]
    limits = [b for day in DAYS for fmt in ("ocg", "tcg") for b in data.banlists.of_format(fmt)]
    names = {p: data.cards.name_id(p) for p in real}
    everywhere = [
        p for p in real if all(p in t and t[p][1] for t in tables) and all(b.name_limit(names[p]) == 3 for b in limits)
    ]
    once = {names[p]: p for p in reversed(everywhere)}  # one passcode a name: the copies rule stays the pool's
    main = sorted(p for p in once.values() if tables[0][p][0] & 1)
    extra = sorted(p for p in once.values() if tables[0][p][0] & 2)
    return (main, extra), real


def _engine(link: str, context: Context, before: Context) -> tuple[bool, bool]:
    """The engine's verdict on a link under each list; a link that cannot be read is an error line."""
    try:
        deck = deck_of(ydke_copies(link))
    except DeckFormatError:
        return False, False
    return validate(deck, context).legal, validate(deck, before).legal


@settings(
    max_examples=examples(300),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(case=st.data(), day=st.sampled_from(DAYS), fmt=st.sampled_from(["ocg", "ocg", "tcg"]))
def test_columnar_verdict_is_the_engines(
    data: Data, pools: tuple[tuple[list[int], list[int]], list[int]], case: st.DataObject, day: dt.date, fmt: str
) -> None:
    safe, real = pools
    chunk = case.draw(st.lists(links(safe, real), min_size=1, max_size=6))
    lists = data.banlists.of_format(fmt)
    now = data.banlists.in_force(day, fmt)
    previous = lists[max(0, lists.index(now) - 1)] if now is not None else None
    language = "ja" if fmt == "ocg" else "en"
    context = Context(day, now, data.cards, default_language=language, format=fmt)  # type: ignore[arg-type]
    before = Context(day, previous, data.cards, default_language=language, format=fmt)  # type: ignore[arg-type]
    legal_now, legal_before = verdict(decode(chunk), context, [now, previous])
    for number, link in enumerate(chunk):
        engine = _engine(link, context, before)
        event(f"legal now {engine[0]}, before {engine[1]}")
        assert (bool(legal_now[number]), bool(legal_before[number])) == engine, link


def test_the_corpus(data: Data) -> None:
    """A few hundred corpus decks: the columnar verdict is the engine's, both lists, deck by deck."""
    day = DAYS[0]
    now, before = data.banlists.in_force(day), data.banlists.get("ocg-2008-03-01")
    context = Context(day, now, data.cards)
    decks = [deck.ydke() for deck in Corpus(data).decks(400)]
    got = verdict(decode(decks), context, [now, before])
    for index, link in enumerate(decks):
        deck = deck_of(ydke_copies(link))
        assert bool(got[0][index]) == validate(deck, context).legal
        assert bool(got[1][index]) == validate(deck, Context(day, before, data.cards)).legal
    assert got[0].sum() > 200


def test_an_empty_chunk_and_a_language_the_format_refuses(data: Data) -> None:
    context = Context(DAYS[0], None, data.cards)
    assert [len(v) for v in verdict(decode([]), context)] == [0]
    refused = Context(DAYS[0], None, data.cards, default_language="zh")  # a language no OCG event allows
    link = _link([UNLIMITED * 3 + [83764718], [], []], 0)
    assert verdict(decode([link]), context)[0].tolist() == [True]
    assert verdict(decode([link]), refused)[0].tolist() == [False]


@st.composite
def pieces(draw: st.DrawFn) -> str:
    """A section as a site might write it, or a broken one: random passcodes in either alphabet, padded or not,
    then perhaps a few characters changed, cut or added."""
    codes = draw(st.lists(st.integers(0, 2**32 - 1), max_size=5))
    odd_bytes = draw(st.sampled_from([b"", b"", b"", b"", b"", b"\x01", b"\x01\x02"]))  # no whole passcode
    raw = struct.pack(f"<{len(codes)}I", *codes) + odd_bytes
    text = base64.b64encode(raw).decode()
    if draw(st.booleans()):
        text = text.replace("+", "-").replace("/", "_")
    padding = draw(st.sampled_from([None, None, None, 0, 1, 2, 3, 4]))  # None: as written
    text = text.rstrip("=") + "=" * (text.count("=") if padding is None else padding)
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2]))):
        at = draw(st.integers(0, len(text)))
        odd = draw(st.sampled_from([*"A+/-_=!:. \n\tzé", "\x00", "\u00a0", "", "AA", "=A"]))
        text = text[:at] + odd + text[at + draw(st.integers(0, 1)) :]
    return text


@pytest.mark.slow
@settings(max_examples=examples(500), deadline=None)
@given(case=st.data())
def test_decode_reads_what_ydke_copies_reads(case: st.DataObject) -> None:
    """Malformed links among good ones: `decode` reads a link exactly where `ydke_copies` does, to the same
    passcodes, and marks the others unreadable, with empty sections."""
    links = []
    for _ in range(case.draw(st.integers(0, 5))):
        parts = [case.draw(pieces()) for _ in range(case.draw(st.sampled_from([3, 3, 3, 3, 3, 3, 4, 2])))]
        prefix = case.draw(st.sampled_from(["ydke://"] * 8 + [" ydke://", "ydke:/", "YDKE://", ""]))
        link = prefix + "!".join(parts) + case.draw(st.sampled_from(["!", "!", "", "!!", " \n", "\u2003"]))
        links.append(link)
    chunk = decode(links)
    offset = 0
    for number, link in enumerate(links):
        try:
            sections: list[list[int]] | None = [sorted(s.elements()) for s in ydke_copies(link)]
        except DeckFormatError:
            sections = None
        event(f"readable {sections is not None}")
        counts = chunk.lengths[3 * number : 3 * number + 3].tolist()
        got = []
        for length in counts:
            got.append(sorted(chunk.codes[offset : offset + length].tolist()))
            offset += length
        assert bool(chunk.readable[number]) == (sections is not None), link
        assert got == (sections or [[], [], []]), link
    assert offset == len(chunk.codes)
