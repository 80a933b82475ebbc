"""The judge's answers as JSON, in the language asked for: the infraction catalogue, an assessment and a ruling on a
match whose time is up; and the requests read into the engine's terms."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deckcheck.errors import RequestError
from deckcheck.rules.assess import Assessment, AssessmentError, Contradictions, Escalation, Facts, assess, span
from deckcheck.rules.infractions import FAMILIES, Infraction
from deckcheck.rules.timelimit import DuelEnd, MatchState, Ruling, Step, TimeLimitError, adjudicate
from deckcheck.sentences import say
from deckcheck.wire.judge.requests import AssessRequest, DuelEndIn, TimeLimitRequest


def depends_on(item: Infraction) -> list[str]:
    """The facts of an assessment that change this item's penalty or pick another item of its family."""
    found = []
    family = FAMILIES[item.family]
    if len(family) > 1:
        found.append("intentional" if item.intentional is not None else "minutes_late")
    if item.forfeit_when is not None:
        found += ["remedied", "decisive"]
    if item.heavier_when_influential:
        found.append("influenced_outcome")
    return found


def infraction_json(item: Infraction, lang: str) -> dict[str, Any]:
    """One infraction of the catalogue."""
    ja = lang == "ja"
    return {
        "code": item.code,
        "kind": item.kind,
        "family": item.family,
        "summary": item.summary_ja if ja else item.summary_en,
        "rule": item.rule,
        "penalty": item.penalty,
        "penalty_basis": item.penalty_basis,
        "penalty_ref": item.penalty_ref,
        "remedy": item.remedy_ja if ja else item.remedy_en,
        "intentional": item.intentional,
        "minutes_late": item.minutes_late,
        "depends_on": depends_on(item),
    }


def assess_body(body: AssessRequest, lang: str) -> dict[str, Any]:
    """The assessment a request asks for, as JSON; RequestError where the facts name no item."""
    facts = Facts(
        intentional=body.intentional,
        minutes_late=body.minutes_late,
        remedied=body.remedied,
        decisive=body.decisive,
        influenced_outcome=body.influenced_outcome,
        timing=body.timing,
        match_decided=body.match_decided,
        prior=body.prior,
    )
    try:
        found = assess(body.code, facts)
    except AssessmentError as exc:
        raise RequestError.one(["body", exc.field], str(exc), "infraction_undetermined") from None
    return assessment_json(found, lang)


def contradiction_errors(refused: Contradictions, lang: str) -> list[dict[str, Any]]:
    """One field error per contradiction, in `lang`: the fact at fault as `loc`, every field it contradicts as
    `fields`, and why in words that name the item by its summary (never its code: desk staff read them)."""
    item = refused.item
    ja = lang == "ja"
    named = {"summary": _quoted(item.summary_ja if ja else item.summary_en), "rule": item.rule}
    errors = []
    for found in refused.found:
        if found.reason == "minutes_late":
            low, high = span(item)
            named["span"] = say("judging", "spans.open" if high is None else "spans.bounded", lang, low=low, high=high)
            named["minutes"] = str(found.given)
        if found.reason == "timing":
            named["allowed"] = say("judging", f"timings.{item.timing}", lang)
            named["timing"] = say("judging", f"timings.{found.given}", lang)
        parts = [say("judging", f"contradiction.{found.reason}", lang, **named)]
        if found.instead is not None:
            instead = _quoted(found.instead.summary_ja if ja else found.instead.summary_en)
            parts.append(say("judging", "contradiction.instead", lang, instead=instead))
        elif found.reason != "timing":
            parts.append(say("judging", "contradiction.no_instead", lang))
        errors.append(
            {
                "loc": ["body", found.fields[-1]],
                "msg": ("" if ja else " ").join(parts),
                "type": "contradictory_facts",
                "fields": [["body", field] for field in found.fields],
            }
        )
    return errors


def _quoted(summary: str) -> str:
    """A summary as quoted in a sentence: without its full stop."""
    return summary.rstrip("。.")


def assessment_json(found: Assessment, lang: str) -> dict[str, Any]:
    """An assessment: the item, the penalty and what it applies to, the remedy, and what the referee may do."""
    item = found.infraction
    basis = item.penalty_ref
    notes = []
    if item.forfeit_when is not None and found.forfeit_instead is None:
        notes.append(say("judging", "forfeit.possible", lang, basis=basis))
    if found.forfeit_instead:
        notes.append(say("judging", "forfeit.instead", lang, basis=basis))
    if found.prizes_kept is not None:
        notes.append(say("judging", "prizes.kept" if found.prizes_kept else "prizes.lost", lang))
    notes.append(say("judging", "discretion.circumstances", lang))
    return {
        "code": item.code,
        "family": item.family,
        "summary": item.summary_ja if lang == "ja" else item.summary_en,
        "penalty": found.penalty,
        "penalty_name": say("judging", f"penalties.{found.penalty}", lang),
        "basis": list(found.basis),
        "applies_to": found.applies_to,
        "applies_to_text": say("judging", f"applies_to.{found.applies_to}", lang),
        "at_referees_discretion": found.at_referees_discretion,
        "prizes_kept": found.prizes_kept,
        "recorded": found.recorded,
        # Where Duel Forfeiture replaced the penalty, the remedy (put the card back) is no longer what happens.
        "remedy": None if found.forfeit_instead else item.remedy_ja if lang == "ja" else item.remedy_en,
        "forfeit_instead": found.forfeit_instead,
        "escalations": escalations_json(found.escalations, lang),
        "notes": notes,
    }


def escalations_json(found: tuple[Escalation, ...], lang: str) -> list[dict[str, Any]]:
    """Higher penalties the referee may give, with their words."""
    return [
        {
            "to": e.to,
            "basis": e.basis,
            "reason": e.reason,
            "text": say(
                "judging", f"escalation.{e.reason}", lang, to=say("judging", f"penalties.{e.to}", lang), basis=e.basis
            ),
        }
        for e in found
    ]


def mark_escalations(violations: list[dict[str, Any]], prior: Mapping[str, int], lang: str) -> None:
    """Give each violation of a /v1/validate answer the escalations a repeat allows (PR 2.B), as an assessment of
    its code with the player's prior count would."""
    for violation in violations:
        found = assess(violation["code"], Facts(prior=prior.get(violation["code"], 0)))
        violation["escalations"] = escalations_json(found.escalations, lang)


def _duel_end(given: DuelEndIn) -> DuelEnd:
    return DuelEnd(
        turn_winner=given.turn_winner, life_points=_pair(given.life_points), sudden_death=_pair(given.sudden_death)
    )


def _pair(points: list[int] | None) -> tuple[int, int] | None:
    """Two numbers, for players 1 and 2 (the request model has checked there are two)."""
    return None if points is None else (points[0], points[1])


def time_limit_body(body: TimeLimitRequest, lang: str) -> dict[str, Any]:
    """The ruling a request asks for, as JSON; RequestError for a state no match can be in."""
    state = MatchState(
        wins=(body.wins[0], body.wins[1]),
        in_duel=body.in_duel,
        duel=_duel_end(body.duel),
        extra_duel=_duel_end(body.extra_duel),
    )
    try:
        ruling = adjudicate(state)
    except TimeLimitError as exc:
        raise RequestError.one(["body", *exc.field.split(".")], str(exc), "impossible_match_state") from None
    return ruling_json(ruling, lang)


def _step(step: Step, lang: str) -> dict[str, Any]:
    player = None if step.player is None else say("judging", "players", lang, number=step.player)
    return {
        "code": step.code,
        "procedure": step.procedure,
        "player": step.player,
        "text": say("judging", f"steps.{step.code}", lang, player=player),
    }


def ruling_json(ruling: Ruling, lang: str) -> dict[str, Any]:
    """A ruling: the procedures, the steps taken, the next step, and the winners settled."""
    return {
        "procedures": list(ruling.procedures),
        "steps": [_step(step, lang) for step in ruling.steps],
        "next_step": None if ruling.next_step is None else _step(ruling.next_step, lang),
        "wins": list(ruling.wins),
        "duel_winner": ruling.duel_winner,
        "match_winner": ruling.match_winner,
        "decided": ruling.match_winner is not None,
    }
