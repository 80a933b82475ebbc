"""The engine on its own: phases, dates before any list, messages in both languages, and properties."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck import Context, Data, Deck, Entry, Protectors, validate
from deckcheck.batch import validate_all
from deckcheck.batch.chunk import decode
from deckcheck.batch.columnar import verdict
from deckcheck.batch.entries import entries_chunk
from deckcheck.data import make_banlist
from deckcheck.formats import write_ydke
from deckcheck.model import deck_of
from deckcheck.rules import RULES, render
from deckcheck.rules.engine import full_report, validate_copies
from deckcheck.rules.fast import legal_counts, link_counts
from tests.cases import CASES, MAIN_40, UNLIMITED
from tests.golden import run_case
from tests.profiles import examples


def _deck40() -> Deck:
    return Deck(main=tuple(Entry(e["passcode"], count=e.get("count", 1)) for e in MAIN_40))


@pytest.mark.parametrize(
    ("phase", "applies_to"),
    [("registration", "next_duel"), ("between_duels", "next_duel"), ("during_duel", "current_duel")],
)
def test_penalty_applies_to_follows_phase(data: Data, phase: str, applies_to: str) -> None:
    deck = Deck(main=(*_deck40().main, Entry(55144522)), side=(Entry(55713623, language="en"),))
    context = Context(dt.date(2008, 6, 1), data.banlists.in_force(dt.date(2008, 6, 1)), data.cards, phase=phase)  # type: ignore[arg-type]
    report = validate(deck, context)
    assert [(v.code, v.penalty, v.penalty_applies_to) for v in report.violations] == [
        ("forbidden_card", "duel_forfeiture", applies_to),
        ("opaque_protectors_required", "caution", None),
    ]
    assert report.penalty == "duel_forfeiture"


def test_caution_only_deck(data: Data) -> None:
    context = Context(dt.date(2008, 6, 1), None, data.cards, protectors=Protectors(used=True, uniform=False))
    report = validate(_deck40(), context)
    assert (report.legal, report.penalty, [v.code for v in report.violations]) == (
        False,
        "caution",
        ["protectors_not_uniform"],
    )


def test_no_list_before_the_first_one(data: Data) -> None:
    # 1999-06-01: no Forbidden/Limited list yet, so Pot of Greed is limited only by the three-copy rule.
    deck = Deck(main=(Entry(55144522, count=3), Entry(46986414, count=4)))
    report = validate(deck, Context(dt.date(1999, 6, 1), None, data.cards))
    assert report.banlist is None
    assert [(v.code, v.cards[0].passcode) for v in report.violations if v.cards] == [("too_many_copies", 46986414)]


@pytest.mark.parametrize("name", list(CASES))
def test_every_message_renders_in_both_languages(name: str, data: Data) -> None:
    body, _expected = CASES[name]
    english, japanese = run_case(body, data, "en"), run_case(body, data, "ja")
    for en, ja in zip(english["violations"], japanese["violations"], strict=True):
        assert en["code"] == ja["code"]
        assert en["message"]
        assert ja["message"]
        assert en["message"] != ja["message"]
        assert "{" not in en["message"]
        assert "{" not in ja["message"]
        assert en["remedy"] == RULES[en["code"]].remedy_en
        assert ja["remedy"] == RULES[ja["code"]].remedy_ja


_PASSCODES = [
    46986414,
    36996508,
    55144522,
    83764718,
    14087893,
    44508094,
    35809262,
    84013237,
    1861629,
    11876803,
    12345678,
]
entries = st.lists(
    st.builds(
        Entry,
        passcode=st.sampled_from(_PASSCODES),
        name=st.none(),
        count=st.integers(1, 99),
        language=st.sampled_from([None, "ja", "en", "zh"]),
    ),
    max_size=20,
)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(main=entries, extra=entries, side=entries, day=st.dates(dt.date(1999, 1, 1), dt.date(2030, 12, 31)))
def test_properties(data: Data, main: list[Entry], extra: list[Entry], side: list[Entry], day: dt.date) -> None:
    deck = Deck(tuple(main), tuple(extra), tuple(side))
    context = Context(day, data.banlists.in_force(day), data.cards)
    report = validate(deck, context)
    assert report == validate(deck, context)  # deterministic
    assert report.legal == (not report.violations)
    assert report.counts == {
        "main": sum(e.count for e in main),
        "extra": sum(e.count for e in extra),
        "side": sum(e.count for e in side),
    }
    codes = [v.code for v in report.violations]
    assert ("main_deck_too_small" in codes) == (report.counts["main"] < 40)
    assert ("main_deck_too_large" in codes) == (report.counts["main"] > 60)
    for violation in report.violations:
        for lang in ("en", "ja"):
            assert render(violation, lang, report.ruleset)[0]
        for loc in violation.loc:
            if len(loc) == 2:
                section = deck.section(loc[0])  # type: ignore[arg-type]
                assert 0 <= int(loc[1]) < len(section)
    # Each card breaks at most one copy rule; a card of an unknown type only card_type_not_allowed.
    copy_rules = {"forbidden_card", "limited_card_exceeded", "semi_limited_card_exceeded", "too_many_copies"}
    per_card = [v.cards[0].passcode for v in report.violations if v.code in copy_rules]
    assert len(per_card) == len(set(per_card))
    banned_types = {v.cards[0].passcode for v in report.violations if v.code == "card_type_not_allowed"}
    others = {
        c.passcode
        for v in report.violations
        if v.code not in {"card_type_not_allowed", "language_not_allowed"} and not v.code.startswith("roster")
        for c in v.cards
    }
    assert not banned_types & others


# Cards around every rule: unlimited, alias, forbidden, limited, semi-limited, Fusion, Synchro, Xyz, Link,
# Pendulum, TCG-only, OCG-only, printed after 2008, two cards of one name, and a passcode that is no card.
_EDGE_CARDS = [*UNLIMITED, 36996508, 55144522, 83764718, 83764719, 14087893, 35809262, 44508094, 84013237]
_EDGE_CARDS += [1861629, 16178681, 11876803, 433377, 40737112, 57953380, 12345678, 86066372, 94415058, 756652]
_EDGE_CARDS += [5405694, 10000100, 5405694]
# Cards whose status changes from OCG 2008.03 to 2008.09, either way.
_EDGE_CARDS += [70828912, 23557835, 56570271, 32807846, 70095154, 71413901, 65192027]


@st.composite
def near_legal(draw: st.DrawFn) -> tuple[Deck, Context]:
    """The legal base deck with a few random changes, on a random day, with random protectors."""
    main = [Entry(p, count=3) for p in UNLIMITED] + [Entry(83764718)]
    extra = [Entry(44508094), Entry(35809262)]
    side: list[Entry] = []
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 1, 2, 3]))):
        target = draw(st.sampled_from([main, extra, side]))
        entry = Entry(draw(st.sampled_from(_EDGE_CARDS)), count=draw(st.integers(1, 4)))
        if draw(st.booleans()) and target:
            target.pop(draw(st.integers(0, len(target) - 1)))
        target.append(entry)
    if draw(st.integers(0, 3)) == 0:
        index = draw(st.integers(0, len(main) - 1))
        language = draw(st.sampled_from(["en", "ko", "zh", "fr", "ja"]))
        main[index] = Entry(main[index].passcode, count=main[index].count, language=language)
    day = draw(st.sampled_from([dt.date(2008, 6, 1), dt.date(2008, 9, 1), None]))
    day = day or draw(st.dates(dt.date(2008, 1, 1), dt.date(2026, 12, 31)))
    protectors = draw(st.sampled_from([None, None, Protectors(True, True, True), None]))
    protectors = protectors or draw(st.one_of(st.none(), st.builds(Protectors)))
    fmt = draw(st.sampled_from(["ocg", "ocg", "tcg"]))
    language = draw(st.sampled_from(["ja", "en"] if fmt == "ocg" else ["en", "en", "de", "ja"]))
    context = Context(day, None, None, protectors, default_language=language, format=fmt)  # type: ignore[arg-type]
    return Deck(tuple(main), tuple(extra), tuple(side)), context


def _with_list(partial: Context, data: Data, use_list: bool = True) -> Context:
    """The drawn context with the real cards and, if `use_list`, the format's list in force."""
    banlist = data.banlists.in_force(partial.date, partial.format) if use_list else None
    return replace(partial, cards=data.cards, banlist=banlist)


def _columnar(deck: Deck, context: Context) -> bool:
    """The columnar verdict (batch/columnar.py) on one deck given as entries."""
    return bool(verdict(entries_chunk([deck]), context)[0][0])


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(case=near_legal(), use_list=st.booleans())
def test_fast_path_and_columnar_verdict_agree_with_the_full_engine(
    data: Data, case: tuple[Deck, Context], use_list: bool
) -> None:
    """The fast answer for one deck (rules/fast.py) and the batch verdict: legal exactly where no check finds
    anything."""
    deck, partial = case
    context = _with_list(partial, data, use_list)
    full = full_report(deck, context).violations
    assert (legal_counts(deck, context) is not None) == (not full)
    assert _columnar(deck, context) == (not full)


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(case=near_legal(), allowed=st.dictionaries(st.sampled_from(_EDGE_CARDS), st.integers(0, 3), max_size=8))
def test_fast_path_and_columnar_verdict_agree_with_the_full_engine_under_a_whitelist(
    data: Data, case: tuple[Deck, Context], allowed: dict[int, int]
) -> None:
    """EDOPro's `$whitelist`: a card the list does not name is forbidden, by every path."""
    deck, partial = case
    limits = {data.cards.by_passcode[p].passcode: n for p, n in allowed.items() if p in data.cards.by_passcode}
    limits |= dict.fromkeys([*UNLIMITED, 44508094, 35809262, 83764718], 3)
    whitelist = make_banlist("w", "w", "OCG", dates=(None, None), limits=limits, cards=data.cards, whitelist=True)
    context = replace(partial, cards=data.cards, banlist=whitelist)
    full = full_report(deck, context).violations
    assert (legal_counts(deck, context) is not None) == (not full)
    assert _columnar(deck, context) == (not full)


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(cases=st.lists(near_legal(), min_size=1, max_size=6), use_list=st.booleans())
def test_reports_on_many_decks_are_the_engines(data: Data, cases: list[tuple[Deck, Context]], use_list: bool) -> None:
    """`validate_all` (`deckcheck validate` over many files): the same reports as `validate`, deck by deck."""
    decks = [(deck, _with_list(partial, data, use_list)) for deck, partial in cases]
    assert validate_all(decks) == [validate(deck, context) for deck, context in decks]


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(case=near_legal())
def test_columnar_verdict_on_a_ydke_link_agrees_with_the_full_engine(data: Data, case: tuple[Deck, Context]) -> None:
    """The same deck as a link: every card in the default language, and the current and previous list at once."""
    deck, partial = case
    copies = tuple(Counter[int]() for _ in range(3))
    for counter, entries in zip(copies, (deck.main, deck.extra, deck.side), strict=True):
        for entry in entries:
            counter[entry.passcode] += entry.count  # type: ignore[index]
    context = _with_list(partial, data)
    as_deck = deck_of(copies)  # type: ignore[arg-type]
    lists = data.banlists.of_format(context.format)
    previous = lists[max(0, lists.index(context.banlist) - 1)] if context.banlist in lists else None
    link = write_ydke(as_deck, data.cards)
    got = [bool(v[0]) for v in verdict(decode([link]), context, [context.banlist, previous])]
    engine = [validate(as_deck, replace(context, banlist=banlist)).legal for banlist in (context.banlist, previous)]
    assert got == engine
    # The fast answer on the link's copies (/v1/validate's), and the report made from them, are the engine's too.
    assert (link_counts(copies, context) is not None) == engine[0]  # type: ignore[arg-type]
    assert validate_copies(copies, context) == validate(as_deck, context)  # type: ignore[arg-type]
