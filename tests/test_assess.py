"""Assessing infractions (rules/assess.py) against the penalty regulations, item by item, PR 1 and PR 2 included."""

from __future__ import annotations

import pytest

from deckcheck.rules.assess import AssessmentError, Contradiction, Contradictions, Escalation, Facts, Reason, assess
from deckcheck.rules.infractions import FAMILIES, INFRACTIONS
from deckcheck.rules.registry import RULES

# code: (penalty, what it applies to, the PR items it rests on), on the facts of a first offence during a duel.
ITEMS = {
    "rules_misinterpreted_unintentional": ("caution", "record", ("PR 4.A",)),
    "drew_extra_card": ("warning", "record", ("PR 4.B",)),
    "saw_hidden_card": ("caution", "record", ("PR 4.C",)),
    "rules_misconstrued_intentional": ("total_disqualification", "tournament", ("PR 4.D", "PR 1.F")),
    "tardiness": ("warning", "record", ("PR 5",)),
    "tardiness_5_minutes": ("duel_forfeiture", "next_duel", ("PR 5", "PR 1.C")),  # the duel the player was waited for
    "tardiness_10_minutes": ("match_forfeiture", "current_match", ("PR 5", "PR 1.D")),
    "marked_cards_unintentional": ("caution", "record", ("PR 6.A",)),
    "marked_cards_intentional": ("duel_forfeiture", "current_duel", ("PR 6.B", "PR 1.C")),
    "slow_play_unintentional": ("caution", "record", ("PR 7",)),
    "slow_play_intentional": ("match_forfeiture", "current_match", ("PR 7", "PR 1.D")),
    "outcome_by_random_method": ("disqualification", "tournament", ("PR 8", "PR 1.E")),
    "bribery": ("total_disqualification", "tournament", ("PR 8", "PR 1.F")),
    "misreported_outcome": ("total_disqualification", "tournament", ("PR 9", "PR 1.F")),
    "outside_advice": ("warning", "record", ("PR 10",)),
    "talking_during_duel": ("warning", "record", ("PR 10",)),
    "heckling": ("warning", "record", ("PR 10",)),
}


def test_every_item_of_pr_3_to_10_has_a_code() -> None:
    """PR 3's items are the deck rules; PR 4 to PR 10 are the items above, each with both languages."""
    assert list(INFRACTIONS) == [*RULES, *ITEMS]
    for item in INFRACTIONS.values():
        assert item.summary_en
        assert item.summary_ja
        assert (item.remedy_en is None) == (item.remedy_ja is None)
    refs = {item.penalty_ref.split(".")[0] for item in INFRACTIONS.values()}
    assert refs == {f"PR {n}" for n in range(3, 11)}


@pytest.mark.parametrize("code", list(ITEMS))
def test_each_item(code: str) -> None:
    found = assess(code, Facts())
    assert (found.penalty, found.applies_to, found.basis) == ITEMS[code]
    assert found.infraction.code == code
    assert found.recorded
    assert found.escalations == ()


@pytest.mark.parametrize("code", list(RULES))
def test_deck_rules_are_infractions(code: str) -> None:
    found = assess(code, Facts(timing="between_duels"))
    assert found.penalty == RULES[code].penalty
    # PR 1.C: a duel forfeiture found between duels costs the next duel; a caution or warning is recorded.
    assert found.applies_to == ("next_duel" if found.penalty == "duel_forfeiture" else "record")


@pytest.mark.parametrize(
    ("minutes", "code"),
    [
        (0, "tardiness"),
        (4, "tardiness"),
        (5, "tardiness_5_minutes"),
        (9, "tardiness_5_minutes"),
        (10, "tardiness_10_minutes"),
        (45, "tardiness_10_minutes"),
    ],
)
def test_tardiness_by_the_minute(minutes: int, code: str) -> None:
    assert assess("tardiness", Facts(minutes_late=minutes)).infraction.code == code  # the family: the minutes pick
    assert assess(code, Facts(minutes_late=minutes)).infraction.code == code  # the item: the minutes agree


@pytest.mark.parametrize(
    ("family", "intentional", "code"),
    [
        ("rule_violation", False, "rules_misinterpreted_unintentional"),
        ("rule_violation", True, "rules_misconstrued_intentional"),
        ("marked_cards", False, "marked_cards_unintentional"),
        ("marked_cards", True, "marked_cards_intentional"),
        ("slow_play", False, "slow_play_unintentional"),
        ("slow_play", True, "slow_play_intentional"),
    ],
)
def test_intent_picks_the_item(family: str, intentional: bool, code: str) -> None:
    assert assess(family, Facts(intentional=intentional)).infraction.code == code
    assert len(FAMILIES[family]) == 2


def test_a_family_needs_what_tells_its_items_apart() -> None:
    with pytest.raises(AssessmentError) as caught:
        assess("marked_cards", Facts())
    assert caught.value.field == "intentional"
    assert assess("marked_cards_intentional", Facts()).penalty == "duel_forfeiture"  # the item's code says it
    with pytest.raises(AssessmentError) as unknown:
        assess("cheating", Facts())
    assert unknown.value.field == "code"
    with pytest.raises(AssessmentError):
        assess("tardiness", Facts(minutes_late=-1))


@pytest.mark.parametrize(
    ("facts", "penalty", "forfeit"),
    [
        (Facts(), "warning", None),
        (Facts(remedied=True, decisive=False), "warning", False),
        (Facts(remedied=False), "duel_forfeiture", True),  # it cannot be told which card it was
        (Facts(remedied=True, decisive=True), "duel_forfeiture", True),  # it would decide the duel
        (Facts(remedied=True), "warning", None),  # whether it decides the duel is not said: forfeiture still possible
        (Facts(decisive=False), "warning", None),
    ],
)
def test_an_extra_card_that_cannot_be_put_back_or_decides_the_duel(
    facts: Facts, penalty: str, forfeit: bool | None
) -> None:
    found = assess("drew_extra_card", facts)
    assert (found.penalty, found.forfeit_instead) == (penalty, forfeit)
    assert assess("saw_hidden_card", facts).forfeit_instead == forfeit


def test_when_a_forfeiture_applies() -> None:
    """PR 1.C: a duel forfeiture between duels costs the next duel. PR 1.D: a match forfeiture between matches, or
    once the match is decided, may be applied to the next match, at the referee's discretion."""
    assert assess("marked_cards_intentional", Facts(timing="between_duels")).applies_to == "next_duel"
    assert assess("marked_cards_intentional", Facts(timing="between_matches")).applies_to == "next_duel"
    current = assess("slow_play_intentional", Facts())
    assert (current.applies_to, current.at_referees_discretion) == ("current_match", False)
    for facts in (Facts(timing="between_matches"), Facts(match_decided=True)):
        later = assess("slow_play_intentional", facts)
        assert (later.applies_to, later.at_referees_discretion) == ("next_match", True)
    assert assess("outcome_by_random_method", Facts()).prizes_kept is True  # PR 1.E
    # PR 5: tardiness costs the duel or match the player was waited for, whenever it is said to have happened.
    for timing in ("during_duel", "between_duels", "between_matches"):
        late = assess("tardiness", Facts(minutes_late=12, timing=timing, match_decided=True))
        assert (late.applies_to, late.at_referees_discretion) == ("current_match", False)
    assert assess("bribery", Facts()).prizes_kept is False  # PR 1.F


def test_escalation_is_offered_never_applied() -> None:
    """PR 2.B: a repeat may be raised to the next penalty of PR 1; PR 7 and PR 10: so may one that influenced the
    outcome of the match. The penalty stays the item's."""
    repeat = assess("talking_during_duel", Facts(prior=1))
    assert repeat.penalty == "warning"
    assert repeat.escalations == (Escalation("duel_forfeiture", "PR 2.B", "repeated"),)
    both = assess("slow_play_unintentional", Facts(prior=2, influenced_outcome=True))
    assert both.escalations == (
        Escalation("warning", "PR 2.B", "repeated"),
        Escalation("warning", "PR 7", "influenced_outcome"),
    )
    assert assess("tardiness", Facts(influenced_outcome=True)).escalations == ()  # PR 5 names no such raise
    assert assess("bribery", Facts(prior=3)).escalations == ()  # nothing above Total Disqualification
    assert assess("outcome_by_random_method", Facts(prior=1)).escalations == ()  # a disqualification ends it all


@pytest.mark.parametrize(
    ("code", "facts", "found"),
    [
        # PR 4, 6, 7: an item whose definition says "unintentionally" is not assessed as intentional (nor the
        # reverse); the facts name the family's other item, where it has one.
        (
            "slow_play_unintentional",
            Facts(intentional=True),
            [("intentional", "unintentional", True, "slow_play_intentional")],
        ),
        (
            "marked_cards_intentional",
            Facts(intentional=False),
            [("intentional", "intentional", False, "marked_cards_unintentional")],
        ),
        (
            "rules_misinterpreted_unintentional",
            Facts(intentional=True),
            [("intentional", "unintentional", True, "rules_misconstrued_intentional")],
        ),
        ("drew_extra_card", Facts(intentional=True), [("intentional", "unintentional", True, None)]),
        ("saw_hidden_card", Facts(intentional=True), [("intentional", "unintentional", True, None)]),
        ("misreported_outcome", Facts(intentional=False), [("intentional", "intentional", False, None)]),
        # PR 5: each tardiness item covers its minutes, up to the next item's.
        ("tardiness_5_minutes", Facts(minutes_late=2), [("minutes_late", "minutes_late", 2, "tardiness")]),
        ("tardiness_5_minutes", Facts(minutes_late=10), [("minutes_late", "minutes_late", 10, "tardiness_10_minutes")]),
        ("tardiness_10_minutes", Facts(minutes_late=9), [("minutes_late", "minutes_late", 9, "tardiness_5_minutes")]),
        # PR 10: talking and advice "during your duel".
        ("talking_during_duel", Facts(timing="between_duels"), [("timing", "timing", "between_duels", None)]),
        ("outside_advice", Facts(timing="between_matches"), [("timing", "timing", "between_matches", None)]),
    ],
)
def test_facts_that_contradict_the_item_chosen_are_refused_each_named(
    code: str, facts: Facts, found: list[tuple[str, Reason, bool | int | str, str | None]]
) -> None:
    with pytest.raises(Contradictions) as refused:
        assess(code, facts)
    assert refused.value.item == INFRACTIONS[code]
    assert refused.value.found == tuple(
        Contradiction(("code", field), reason, given, None if instead is None else INFRACTIONS[instead])
        for field, reason, given, instead in found
    )


def test_the_facts_that_agree_or_pick_are_no_contradiction() -> None:
    assert assess("slow_play", Facts(intentional=True)).infraction.code == "slow_play_intentional"  # the family
    assert assess("drew_extra_card", Facts(intentional=False)).infraction.code == "drew_extra_card"
    assert assess("tardiness", Facts(minutes_late=2)).infraction.code == "tardiness"
    assert assess("talking_during_duel", Facts(timing="during_duel")).infraction.code == "talking_during_duel"
    assert assess("heckling", Facts(timing="between_duels", intentional=True)).infraction.code == "heckling"


def test_every_item_that_fixes_intent_or_time_is_one_whose_definition_says_so() -> None:
    """The catalogue says intent where the regulations' words do, and a time where they say "during your duel"."""
    intent = {code: item.intentional for code, item in INFRACTIONS.items() if item.intentional is not None}
    assert intent == {
        "rules_misinterpreted_unintentional": False,
        "drew_extra_card": False,
        "saw_hidden_card": False,
        "rules_misconstrued_intentional": True,
        "marked_cards_unintentional": False,
        "marked_cards_intentional": True,
        "slow_play_unintentional": False,
        "slow_play_intentional": True,
        "misreported_outcome": True,
    }
    for code, intentional in intent.items():
        words = INFRACTIONS[code].summary_en.lower()
        assert "intentional" in words
        assert ("unintentional" in words or "not intentional" in words) != intentional
    assert {code for code, item in INFRACTIONS.items() if item.timing} == {"outside_advice", "talking_during_duel"}
