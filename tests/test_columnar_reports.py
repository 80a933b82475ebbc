"""The reports made from the arrays (batch/findings.py, batch/rendered.py) are, byte for byte, the engine's: a chunk
of recheck lines answered by Rechecker.check_lines, where the illegal decks the arrays can tell are reported from
them, against the engine line by line (Rechecker.check), summary included. Random decks break every rule the arrays
report (section sizes, placement, copies of a name against three and against the list, alternative artworks and
cards that share a name counted together, passcodes of no card, cards of types not in force) among decks only the
engine reports (cards not printed by the day), in both formats and every rule era, with messages in both
languages, under one list or two, as links and as entries (a card's copies split over entries and sections); then
the golden cases, and the staple corpus, where the arrays report exactly the decks that break only their rules."""

from __future__ import annotations

import base64
import datetime as dt
import random
import struct
from typing import Any

import numpy as np
import orjson
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bench.corpus import Corpus
from deckcheck import Data, validate
from deckcheck.batch import Rechecker, RecheckSetup
from deckcheck.batch.chunk import decode
from deckcheck.batch.columnar import judge
from deckcheck.batch.entries import stable_order
from deckcheck.batch.findings import reportable
from deckcheck.formats import parse_ydke
from deckcheck.model import SECTIONS, Context, Format
from deckcheck.rules import eras
from deckcheck.rules.facts import card_arrays
from deckcheck.wire.inputs import DEFAULT_LANGUAGES, context_for
from deckcheck.wire.requests import ValidateRequest
from tests.cases import CASES
from tests.profiles import examples
from tests.test_recheck_columnar import same_as_engine

# The codes the arrays report (unknown_card for passcodes alone); a deck breaking any other rule is the engine's.
ARRAY_CODES = frozenset(
    {
        "main_deck_too_small",
        "main_deck_too_large",
        "extra_deck_too_large",
        "side_deck_too_large",
        "extra_deck_card_in_main_deck",
        "main_deck_card_in_extra_deck",
        "forbidden_card",
        "limited_card_exceeded",
        "semi_limited_card_exceeded",
        "too_many_copies",
        "card_type_not_allowed",
        "unknown_card",
    }
)
# Cards no deck may hold on some day: passcodes of no card, an Xyz and a Link Monster (types not yet in force), which
# the arrays report; TCG-only and OCG-only cards and a card printed after 2008, which the engine reports.
OUTSIDE = [12345678, 1, 84013237, 1861629, 16178681, 11876803, 10000100]
Pool = tuple[list[int], list[int], list[int]]


class Pools:
    """The data, and per format and day the cards the random decks draw from: one argument whose repr is short,
    for Hypothesis to name in a failing test's report (it would print every card of the data)."""

    def __init__(self, data: Data, days: dict[tuple[Format, dt.date], Pool]) -> None:
        self.data = data
        self.days = days

    def __repr__(self) -> str:
        return f"<the data, with pools of cards for {len(self.days)} days>"


SIZES = ([0, 20, 39, 40, 41, 50, 59, 60, 61], [0, 5, 14, 15, 16], [0, 7, 15, 16])


def _days(data: Data, fmt: Format) -> list[dt.date]:
    """A day in every rule era of the format, on which it has a list in force."""
    lists = data.banlists.of_format(fmt)
    first = lists[0].effective_from
    assert first is not None
    days = [max(start or first, first) + dt.timedelta(days=40) for start, _until, _rules in eras(data.cards, fmt)]
    days += [dt.date(2008, 9, 1), dt.date(2026, 12, 1)]  # the 2008 rules' list change, and today
    return sorted({day for day in days if data.banlists.in_force(day, fmt) is not None})


@pytest.fixture(scope="module")
def pools(data: Data) -> Pools:
    """Per format and day: cards a main deck may hold, extra-deck cards, and the cards the list names or that count
    with another (alternative artworks, cards of one name), every one a card the deck may hold on the day."""
    found: dict[tuple[Format, dt.date], Pool] = {}
    shared = [p for group in data.cards.namesakes.values() for p in group]
    aliases = [p for p, card in data.cards.by_passcode.items() if card.passcode != p]
    for fmt in ("ocg", "tcg"):
        for day in _days(data, fmt):
            arrays = card_arrays(data.cards, day, fmt)
            held = {int(p): int(b) for p, b in zip(arrays.passcodes, arrays.bits, strict=True)}
            banlist = data.banlists.in_force(day, fmt)
            assert banlist is not None
            listed = [p for p in banlist.limits if p in held]
            main = sorted(p for p, bits in held.items() if bits & 1)[::7]
            extra = sorted(p for p, bits in held.items() if bits & 2)[::5]
            odd = sorted({*listed, *(p for p in shared + aliases if p in held)})
            found[fmt, day] = (main, extra, odd)
    return Pools(data, found)


def sections(rng: random.Random, pool: Pool) -> list[list[int]]:
    """A deck's three sections as passcodes (one per copy): sizes at and past the bounds, cards of the list and
    cards that count together, copies past three, cards out of place, now and then a card only the engine reports."""
    main, extra, odd = pool
    deck: list[list[int]] = []
    for section, bounds in enumerate(SIZES):
        size = rng.choice(bounds)
        cards: list[int] = []
        while len(cards) < size:
            roll = rng.randrange(20)
            if roll < 4:
                card = rng.choice(odd)
            elif roll == 4:
                card = rng.choice(extra if section == 0 else main)  # out of place in the main and extra deck
            elif roll == 5 and rng.randrange(4) == 0:
                card = rng.choice(OUTSIDE)
            else:
                card = rng.choice(extra if section == 1 else main)
            cards += [card] * min(rng.choice([1, 1, 2, 3, 3, 4]), size - len(cards))
        if rng.randrange(2):
            rng.shuffle(cards)
        deck.append(cards)
    return deck


def _link(deck: list[list[int]]) -> str:
    parts = [base64.b64encode(struct.pack(f"<{len(s)}I", *s)).decode() for s in deck]
    return "ydke://" + "!".join(parts) + "!"


def line(rng: random.Random, pool: Pool, number: int) -> bytes:
    """A deck as a recheck line: a link, or entries, a card's copies now and then split over two entries."""
    deck = sections(rng, pool)
    body: dict[str, Any] = {"id": f"d{number}"}
    if rng.randrange(2):
        body["ydke"] = _link(deck)
    else:
        for name, cards in zip(SECTIONS, deck, strict=True):
            entries: list[dict[str, Any]] = []
            for card in cards:
                if entries and entries[-1]["passcode"] == card and rng.randrange(4):
                    entries[-1]["count"] = entries[-1].get("count", 1) + 1
                else:
                    entries.append({"passcode": card})
            body[name] = entries
    if rng.randrange(10) == 0:
        body["player"] = "山田 太郎"
    return orjson.dumps(body)


@settings(max_examples=examples(250), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(
    era=st.integers(0, 10**6),
    previous=st.integers(0, 10**6),
    lang=st.sampled_from(["en", "ja"]),
    seed=st.integers(0, 2**32),
    size=st.integers(2, 30),
    first=st.integers(1, 10**6),
)
def test_reports_from_the_arrays_are_the_engines(
    pools: Pools, *, era: int, previous: int, lang: str, seed: int, size: int, first: int
) -> None:
    """A format and a day in one of its eras, the list in force, a list before it or none, messages in `lang`, and
    a chunk of `size` decks from `seed` (a handful of draws however large the decks)."""
    data = pools.data
    fmt, day = sorted(pools.days)[era % len(pools.days)]
    before = [None, *data.banlists.of_format(fmt)]
    setup = RecheckSetup(day, data.banlists.in_force(day, fmt), before[previous % len(before)], lang, fmt)
    rng = random.Random(seed)
    got, _summary = same_as_engine(
        Rechecker(data, setup), [line(rng, pools.days[fmt, day], n) for n in range(size)], first
    )
    codes = {v["code"] for line in got.splitlines() for v in orjson.loads(line).get("violations", [])}
    for code in sorted(codes & ARRAY_CODES):
        event(f"reported: {code}")
    event(f"{fmt} {day.year}")


def _recheck_line(body: dict[str, Any], number: int) -> bytes | None:
    """A golden case's deck as a recheck line, where its request is one a recheck line can give."""
    deck = {key: body[key] for key in ("ydke", *SECTIONS, "protectors", "default_language") if key in body}
    if any(key in body for key in ("text", "ydk", "roster", "phase")) or not deck:
        return None
    return orjson.dumps({"id": f"case-{number}", **deck})


def test_the_golden_cases(data: Data) -> None:
    """Every golden case a recheck line can give, each at its own date, format and list."""
    checked = 0
    for number, (body, _expected) in enumerate(CASES.values()):
        line = _recheck_line(body, number)
        if line is None:
            continue
        context = context_for(ValidateRequest.model_validate(body), data)
        for lang in ("en", "ja"):
            setup = RecheckSetup(context.date, context.banlist, None, lang, context.format)
            same_as_engine(Rechecker(data, setup), [line, line])
        checked += 1
    assert checked >= 40


def test_the_staple_corpus_is_reported_from_the_arrays_where_it_can_be(data: Data) -> None:
    """The recheck benchmark's corpus against 2008-09-01 with the 2008-03 list before it: the arrays report exactly
    the illegal decks whose every violation is theirs, and every result line is the engine's."""
    day = dt.date(2008, 9, 1)
    decks = list(Corpus(data).decks(600))
    setup = RecheckSetup(day, data.banlists.in_force(day), data.banlists.get("ocg-2008-03-01"))
    same_as_engine(Rechecker(data, setup), [deck.line() for deck in decks])
    context = Context(day, setup.banlist, data.cards, default_language=DEFAULT_LANGUAGES["ocg"])
    links = [deck.ydke() for deck in decks]
    chunk = decode(links)
    found = reportable(chunk, judge(chunk, context), context).tolist()
    reports = [validate(parse_ydke(link), context) for link in links]
    theirs = [not r.legal and {v.code for v in r.violations} <= ARRAY_CODES for r in reports]
    assert found == theirs
    assert int(np.sum(found)) >= 150


@settings(max_examples=examples(300), deadline=None)
@given(
    keys=st.lists(st.one_of(st.integers(0, 7), st.integers(0, 2**45), st.integers(2**60, 2**63 - 1)), max_size=300).map(
        lambda values: np.array(values, dtype=np.int64)
    )
)
def test_stable_order_is_numpys_stable_argsort(keys: np.ndarray[Any, np.dtype[np.int64]]) -> None:
    """The reports' entries are ordered by keys of few values and many repeats, or of wide ones past the room for
    their positions: either way in numpy's stable order."""
    event(f"packed {len(keys) == 0 or int(keys.max()).bit_length() + max(len(keys) - 1, 0).bit_length() <= 63}")
    assert stable_order(keys).tolist() == np.argsort(keys, kind="stable").tolist()
