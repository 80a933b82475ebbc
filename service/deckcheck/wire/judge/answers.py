"""The answers of the judge's routes: the infraction catalogue, an assessment, and a ruling on a match whose time is
up (TR 2.C)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from deckcheck.wire.base import WireModel
from deckcheck.wire.enums import Penalty, PenaltyBasis
from deckcheck.wire.judge import examples as ex
from deckcheck.wire.judge.enums import (
    EscalationReason,
    InfractionCode,
    InfractionKind,
    PenaltyTarget,
    PlayerNumber,
    Procedure,
    StepCode,
)

Fact = Literal["intentional", "minutes_late", "remedied", "decisive", "influenced_outcome"]


class InfractionOut(WireModel):
    """One infraction of the penalty regulations (PR 3 to PR 10): what it is, where it is said, its penalty and the
    remedy, and what an assessment of it depends on."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.INFRACTION]})

    code: InfractionCode = Field(description="The infraction code.", examples=["drew_extra_card"])
    kind: InfractionKind = Field(description="deck (PR 3) or conduct (PR 4 to PR 10).", examples=["conduct"])
    family: str = Field(
        description="The code to assess it by: its own, or the family it shares with the items the regulations tell "
        "it from by intent or minutes late.",
        examples=["tardiness"],
    )
    summary: str = Field(
        description="What it is, in the language of Accept-Language.", examples=[ex.INFRACTION["summary"]]
    )
    rule: str = Field(description="Where it is said: PR items and TR sections, joined by `, `.", examples=["PR 4.B"])
    penalty: Penalty = Field(description="The penalty the regulations give it.", examples=["warning"])
    penalty_basis: PenaltyBasis = Field(
        description="explicit when the regulations name it, by analogy when they name the closest one.",
        examples=["explicit"],
    )
    penalty_ref: str = Field(description="The item of the penalty regulations naming the penalty.", examples=["PR 4.B"])
    remedy: str | None = Field(
        description="What the player must do, in the answer's language; null where the regulations name nothing.",
        examples=[ex.INFRACTION["remedy"]],
    )
    intentional: bool | None = Field(
        description="Whether it is intentional by its definition (PR 4, 6, 7, 9), which in a family told apart by "
        "intent picks the item; null where the definition does not say. Assessed by its own code with the other "
        "answer, it is refused (422, contradictory_facts).",
        examples=[False, None, True],
    )
    minutes_late: int | None = Field(
        description="In the tardiness family: the minutes late from which this item applies; else null.",
        examples=[None, 5],
    )
    depends_on: list[Fact] = Field(
        description="The facts of an assessment that change its penalty or pick another item of its family.",
        examples=[["remedied", "decisive"]],
    )


class EscalationOut(WireModel):
    """A higher penalty the referee may give; the assessment's penalty stays as the item names it."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ASSESSMENT["escalations"][0]]})

    to: Penalty = Field(
        description="The penalty the referee may raise it to: the next in PR 1's order.", examples=["match_forfeiture"]
    )
    basis: str = Field(description="The item of the regulations that allows it.", examples=["PR 2.B"])
    reason: EscalationReason = Field(description="Why it may be raised.", examples=["repeated"])
    text: str = Field(
        description="The same in words, in the answer's language.", examples=[ex.ASSESSMENT["escalations"][0]["text"]]
    )


class AssessmentOut(WireModel):
    """The penalty of one infraction on the facts given, what it applies to, the remedy, and what the referee may
    do beyond it."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ASSESSMENT]})

    code: InfractionCode = Field(description="The item the facts name.", examples=["tardiness_5_minutes"])
    family: str = Field(description="The family the item belongs to (its own code when alone).", examples=["tardiness"])
    summary: str = Field(description="What the item is, in the answer's language.", examples=[ex.ASSESSMENT["summary"]])
    penalty: Penalty = Field(description="The penalty on these facts.", examples=["duel_forfeiture"])
    penalty_name: str = Field(description="The penalty's name in the answer's language.", examples=["Duel Forfeiture"])
    basis: list[str] = Field(
        description="The items of the regulations the penalty and its application rest on, in order.",
        examples=[["PR 5", "PR 1.C"]],
    )
    applies_to: PenaltyTarget = Field(description="What the penalty costs (PR 1.C–1.F).", examples=["next_duel"])
    applies_to_text: str = Field(
        description="What it applies to, in words.", examples=[ex.ASSESSMENT["applies_to_text"]]
    )
    at_referees_discretion: bool = Field(
        description="PR 1.D: the referee may (not must) apply the match forfeiture to the player's next match.",
        examples=[False],
    )
    prizes_kept: bool | None = Field(
        description="For a disqualification: whether prizes already won are kept (PR 1.E) or lost (PR 1.F); else null.",
        examples=[None],
    )
    recorded: bool = Field(
        description="Whether the penalty is officially recorded (PR 1: every one is).", examples=[True]
    )
    remedy: str | None = Field(description="What the player must do; null where nothing is named.", examples=[None])
    forfeit_instead: bool | None = Field(
        description="PR 4.B, 4.C: true where Duel Forfeiture replaced the item's penalty (the card cannot be put back "
        "or decides the duel), false where it did not; null where the facts do not say or the item has no such rule.",
        examples=[None],
    )
    escalations: list[EscalationOut] = Field(
        description="Higher penalties the referee may give (PR 2.B for a repeat; PR 7, PR 10 where the outcome was "
        "influenced), never applied here.",
        examples=[ex.ASSESSMENT["escalations"]],
    )
    notes: list[str] = Field(
        description="What else the referee should know, in words.", examples=[ex.ASSESSMENT["notes"]]
    )


class StepOut(WireModel):
    """One step of a time-limit procedure (TR 2.C)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.RULING["steps"][0]]})

    code: StepCode = Field(description="The step.", examples=["extra_turns"])
    procedure: Procedure = Field(description="The procedure it belongs to.", examples=["判定1"])
    player: PlayerNumber | None = Field(description="The player the step favours, if any.", examples=[None, 1])
    text: str = Field(
        description="What to do or what was decided, in words, with its citation.",
        examples=[ex.RULING["steps"][0]["text"]],
    )


class RulingOut(WireModel):
    """A ruling on a match whose 40 minutes ran out: the procedures, the steps taken, the next one, the winners."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.RULING]})

    procedures: list[Procedure] = Field(
        description="The procedures of the steps taken and of the next step, in order.", examples=[["判定1"]]
    )
    steps: list[StepOut] = Field(description="The steps taken, in order.", examples=[ex.RULING["steps"]])
    next_step: StepOut | None = Field(
        description="The step to take now; null once the match is decided.", examples=[ex.RULING["next_step"]]
    )
    wins: tuple[int, int] = Field(
        description="Duels won by players 1 and 2 once the steps are taken.", examples=[[1, 0]]
    )
    duel_winner: PlayerNumber | None = Field(
        description="判定1: the winner of the duel in progress, once decided.", examples=[None]
    )
    match_winner: PlayerNumber | None = Field(description="The winner of the match, once decided.", examples=[None])
    decided: bool = Field(description="Whether the match is decided.", examples=[False])
