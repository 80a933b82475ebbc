"""Assess an infraction: the penalty the regulations give, whom and what it applies to, the remedy, and whether the
referee may raise it.

`assess(code, facts)` reads the catalogue (rules/infractions.py) and what the regulations make the penalty depend
on (`Facts`): intent (PR 4.A/4.D, 6, 7), minutes late (PR 5), whether the card drawn or seen can be put back and
whether it would decide the duel (PR 4.B, 4.C), when the infraction happened (PR 1.C, 1.D), and how often the player
already received it in the tournament (PR 2.B). Facts that contradict the item chosen by its own code (an
unintentional item said to be intentional, minutes late outside the item's span, a time its definition excludes) are
refused together, each named (`Contradictions`), never quietly turned into another item. It never raises a penalty
itself: where the regulations let the
referee give a higher one (PR 2.B for a repeat; PR 7 and PR 10 where the outcome was influenced), the assessment
names the penalty the referee may raise it to and why, and the penalty stays the one the item names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from deckcheck.errors import InvalidInput
from deckcheck.rules.infractions import FAMILIES, INFRACTIONS, Infraction, Timing
from deckcheck.rules.registry import PENALTIES, SEVERITY

# Why a fact contradicts the item chosen: its definition's intent either way, its minutes late, its time.
Reason = Literal["unintentional", "intentional", "minutes_late", "timing"]
AppliesTo = Literal["record", "current_duel", "next_duel", "current_match", "next_match", "tournament"]
# PR 1: every penalty is officially recorded (1.B for cautions and warnings, 1.C–1.F for the others).
RECORDED = True


class AssessmentError(InvalidInput):
    """The facts do not name one item of the regulations: an unknown code, or a family without what tells its
    items apart. `field` names the fact at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Contradiction:
    """A fact that contradicts the item chosen: `fields` (the code, then the fact), `reason`, the value `given` for
    the fact, and the item the fact names instead, where the catalogue has one."""

    fields: tuple[str, ...]
    reason: Reason
    given: bool | int | str
    instead: Infraction | None


class Contradictions(InvalidInput):
    """The facts contradict the item `item` chosen by its own code; `found` holds every contradiction."""

    def __init__(self, item: Infraction, found: tuple[Contradiction, ...]) -> None:
        named = "; ".join(f"{'/'.join(c.fields)}: {c.reason}" for c in found)
        super().__init__(f"the facts contradict {item.code}: {named}")
        self.item = item
        self.found = found


@dataclass(frozen=True, slots=True, kw_only=True)
class Facts:
    """What the penalty depends on; None where the judge does not say."""

    intentional: bool | None = None  # PR 4.A/4.D, 6, 7
    minutes_late: int | None = None  # PR 5
    remedied: bool | None = None  # PR 4.B, 4.C: the card drawn or seen could be put back where it belongs
    decisive: bool | None = None  # PR 4.B, 4.C: the card would have a definite effect on the outcome of the duel
    influenced_outcome: bool | None = None  # PR 7, 10: the infraction influenced the outcome of the match
    timing: Timing = "during_duel"  # PR 1.C, 1.D
    match_decided: bool = False  # PR 1.D: the current match's winner was already decided
    prior: int = 0  # PR 2.B: times the player already received this infraction in this tournament


@dataclass(frozen=True, slots=True)
class Escalation:
    """The referee may give a higher penalty (`to`, the next in PR 1's order), on `basis`, for `reason`."""

    to: str
    basis: str
    reason: Literal["repeated", "influenced_outcome"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Assessment:
    """The penalty of one infraction and what follows from it."""

    infraction: Infraction  # the item the facts name
    penalty: str
    basis: tuple[str, ...]  # the PR items the penalty and its application rest on, in order
    applies_to: AppliesTo
    at_referees_discretion: bool  # PR 1.D: the referee may apply a match forfeiture to the next match
    prizes_kept: bool | None  # PR 1.E and 1.F: for a disqualification, whether prizes already won are kept
    recorded: bool
    escalations: tuple[Escalation, ...]
    forfeit_instead: bool | None  # PR 4.B, 4.C: None where the facts do not say whether Duel Forfeiture applies


def assess(code: str, facts: Facts) -> Assessment:
    """The assessment of infraction `code` (an item's code or a family's) on these facts."""
    item = pick(code, facts)
    penalty, basis = item.penalty, [item.penalty_ref]
    forfeit = None if item.forfeit_when is None else _forfeit(facts)
    if forfeit:
        penalty = "duel_forfeiture"
    applies_to, discretion = _application(penalty, facts, waited_for=item.family == "tardiness")
    if applies_to in ("current_duel", "next_duel"):
        basis.append("PR 1.C")
    elif applies_to in ("current_match", "next_match"):
        basis.append("PR 1.D")
    elif applies_to == "tournament":
        basis.append("PR 1.E" if penalty == "disqualification" else "PR 1.F")
    return Assessment(
        infraction=item,
        penalty=penalty,
        basis=tuple(basis),
        applies_to=applies_to,
        at_referees_discretion=discretion,
        prizes_kept=None if applies_to != "tournament" else penalty == "disqualification",
        recorded=RECORDED,
        escalations=_escalations(item, penalty, facts),
        forfeit_instead=forfeit,
    )


def pick(code: str, facts: Facts) -> Infraction:
    """The item `code` names: an item, or the item of a family the facts tell apart. Contradictions when the facts
    contradict the item (an item chosen by its own code keeps it: the facts never turn it into another)."""
    family = FAMILIES.get(code) or FAMILIES.get(INFRACTIONS[code].family if code in INFRACTIONS else "")
    if family is None:
        raise AssessmentError("code", f"{code!r} is no infraction code of the catalogue")
    if facts.minutes_late is not None and facts.minutes_late < 0:
        raise AssessmentError("minutes_late", "minutes_late cannot be negative")
    by_family = len(family) > 1 and code == family[0].family
    item = _by_facts(code, family, facts) if by_family else INFRACTIONS[code]
    if found := _contradictions(item, family, facts, by_family=by_family):
        raise Contradictions(item, found)
    return item


def _by_facts(code: str, family: tuple[Infraction, ...], facts: Facts) -> Infraction:
    """The item of a family the facts pick: by intent, or by the minutes late; the family's first item where the
    minutes are not given (tardiness is its own first item)."""
    if family[0].intentional is not None:
        if facts.intentional is None:
            raise AssessmentError("intentional", f"{code} depends on whether it was intentional: give intentional")
        return next(item for item in family if item.intentional == facts.intentional)
    if facts.minutes_late is None:
        if code in INFRACTIONS:
            return INFRACTIONS[code]
        raise AssessmentError("minutes_late", f"{code} depends on the minutes late: give minutes_late")
    reached = [item for item in family if (item.minutes_late or 0) <= facts.minutes_late]
    return max(reached, key=lambda item: item.minutes_late or 0)


def _contradictions(
    item: Infraction, family: tuple[Infraction, ...], facts: Facts, *, by_family: bool
) -> tuple[Contradiction, ...]:
    """Every fact that contradicts `item`'s definition. Intent and minutes late pick the item of a family named by
    the family's code, so they contradict only an item named by its own."""
    found = []
    if not by_family and item.intentional is not None and facts.intentional not in (None, item.intentional):
        instead = next((other for other in family if other.intentional == facts.intentional), None)
        reason: Reason = "intentional" if item.intentional else "unintentional"
        found.append(Contradiction(("code", "intentional"), reason, facts.intentional, instead))
    if not by_family and item.minutes_late is not None and facts.minutes_late is not None:
        instead = _by_facts(item.family, family, facts)
        if instead != item:
            found.append(Contradiction(("code", "minutes_late"), "minutes_late", facts.minutes_late, instead))
    if item.timing is not None and facts.timing != item.timing:
        found.append(Contradiction(("code", "timing"), "timing", facts.timing, None))
    return tuple(found)


def span(item: Infraction) -> tuple[int, int | None]:
    """The minutes late a tardiness item covers: from its own to the next item's, less one (None: no end)."""
    low = item.minutes_late or 0
    higher = [other.minutes_late or 0 for other in FAMILIES[item.family] if (other.minutes_late or 0) > low]
    return low, (min(higher) - 1 if higher else None)


def _forfeit(facts: Facts) -> bool | None:
    """PR 4.B, 4.C: Duel Forfeiture where the card cannot be put back or would decide the duel; None while the facts
    leave either open."""
    if facts.remedied is False or facts.decisive is True:
        return True
    if facts.remedied is True and facts.decisive is False:
        return False
    return None


def _application(penalty: str, facts: Facts, *, waited_for: bool) -> tuple[AppliesTo, bool]:
    """What the penalty applies to (PR 1.C–1.F), and whether that is at the referee's discretion. Tardiness (PR 5)
    costs the duel or match the player was waited for, whatever `timing` says: the player was in none."""
    if SEVERITY[penalty] < SEVERITY["duel_forfeiture"]:
        return "record", False
    if waited_for:
        return ("next_duel" if penalty == "duel_forfeiture" else "current_match"), False
    if penalty == "duel_forfeiture":
        return ("current_duel" if facts.timing == "during_duel" else "next_duel"), False
    if penalty == "match_forfeiture":
        if facts.timing == "between_matches" or facts.match_decided:
            return "next_match", True
        return "current_match", False
    return "tournament", False


def _escalations(item: Infraction, penalty: str, facts: Facts) -> tuple[Escalation, ...]:
    """Where the referee may give a higher penalty, and to what; none past the highest."""
    rank = SEVERITY[penalty]
    if rank >= SEVERITY["disqualification"]:  # a disqualified player takes no further part to repeat it in
        return ()
    higher = PENALTIES[rank + 1]
    found = []
    if facts.prior > 0:
        found.append(Escalation(higher, "PR 2.B", "repeated"))
    if item.heavier_when_influential and facts.influenced_outcome:
        found.append(Escalation(higher, item.penalty_ref, "influenced_outcome"))
    return tuple(found)
