"""The request bodies of the judge's routes: an infraction to assess with what its penalty depends on, and a match
whose time is up (TR 2.C)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.wire.judge import examples as ex
from deckcheck.wire.judge.enums import AssessCode, PlayerNumber, Timing

LifePoints = Annotated[
    list[Annotated[int, Field(ge=0, le=999_999)]],
    Field(min_length=2, max_length=2, description="Life points of player 1 and player 2.", examples=[[4000, 2500]]),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AssessRequest(_Strict):
    """An infraction and what the regulations make its penalty depend on; leave out what does not apply."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ASSESS_REQUEST]})

    code: AssessCode = Field(description="The infraction, or its family, to assess.", examples=["tardiness"])
    intentional: bool | None = Field(
        default=None,
        description="Whether it was intentional (PR 4.A/4.D, 6, 7): picks the item of a family.",
        examples=[False],
    )
    minutes_late: int | None = Field(
        default=None,
        ge=0,
        le=1440,
        description="Whole minutes late, counted down (4 minutes 30 seconds is 4): 0–4 a warning, from 5 Duel "
        "Forfeiture, from 10 Match Forfeiture (PR 5). Picks the tardiness item.",
        examples=[6],
    )
    remedied: bool | None = Field(
        default=None,
        description="PR 4.B, 4.C: whether the card drawn or seen could be put back where it belongs (false: it "
        "cannot be told which card it was, or the situation cannot be remedied).",
        examples=[True],
    )
    decisive: bool | None = Field(
        default=None,
        description="PR 4.B, 4.C: whether the card would have a definite effect on the outcome of the duel.",
        examples=[False],
    )
    influenced_outcome: bool | None = Field(
        default=None,
        description="PR 7, PR 10: whether the infraction influenced the outcome of the match.",
        examples=[False],
    )
    timing: Timing = Field(
        default="during_duel", description="When it happened; default during_duel.", examples=["between_duels"]
    )
    match_decided: bool = Field(
        default=False,
        description="PR 1.D: the current match's winner was already decided when it happened; default false.",
        examples=[False],
    )
    prior: int = Field(
        default=0,
        ge=0,
        le=99,
        description="How often the player already received this infraction in this tournament (PR 2.B); default 0.",
        examples=[1],
    )


class DuelEndIn(_Strict):
    """How a duel under a time-limit procedure has gone so far; leave out what has not happened yet."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"life_points": [500, 500], "sudden_death": [500, 0]}]})

    turn_winner: PlayerNumber | None = Field(
        default=None,
        description="判定1: the player who won the duel by the end of the turn in progress when time was called.",
        examples=[1],
    )
    life_points: LifePoints | None = Field(
        default=None,
        description="Life points of players 1 and 2 after the 3 extra turns (判定1) or after the extra duel's 4 "
        "turns (判定2).",
        examples=[[4000, 2500]],
    )
    sudden_death: LifePoints | None = Field(
        default=None,
        description="Life points of players 1 and 2 right after the first change in sudden death (paying life as a "
        "cost counts).",
        examples=[[500, 0]],
    )


class TimeLimitRequest(_Strict):
    """The match when its 40 minutes ran out (TR 2.C), and the procedure as far as it has gone."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.TIME_LIMIT_REQUEST]})

    wins: list[Annotated[int, Field(ge=0, le=1)]] = Field(
        min_length=2,
        max_length=2,
        description="Duels won by player 1 and player 2 before the duel in progress (or, between duels, so far).",
        examples=[[1, 0]],
    )
    in_duel: bool = Field(
        description="true: a duel was in progress when time was called; false: the players were between duels "
        "(deck adjustment).",
        examples=[True],
    )
    duel: DuelEndIn = Field(
        default_factory=DuelEndIn, description="判定1: the duel in progress.", examples=[{"turn_winner": 2}]
    )
    extra_duel: DuelEndIn = Field(
        default_factory=DuelEndIn, description="判定2: the extra duel.", examples=[{"life_points": [8000, 7000]}]
    )
