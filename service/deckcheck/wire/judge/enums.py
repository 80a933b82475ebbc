"""The closed sets of values of the judge's routes (GET /v1/infractions, POST /v1/penalties/assess, POST
/v1/matches/time-limit), each a named type; tests/test_openapi.py holds each to the table it comes from (the
infraction catalogue, the assessment, the time-limit procedures)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypeAliasType

from deckcheck.wire.enums import RuleCodes

# The codes of PR 4 to PR 10, after the deck rules' (RuleCodes).
ConductCodes = Literal[
    "rules_misinterpreted_unintentional",
    "drew_extra_card",
    "saw_hidden_card",
    "rules_misconstrued_intentional",
    "tardiness",
    "tardiness_5_minutes",
    "tardiness_10_minutes",
    "marked_cards_unintentional",
    "marked_cards_intentional",
    "slow_play_unintentional",
    "slow_play_intentional",
    "outcome_by_random_method",
    "bribery",
    "misreported_outcome",
    "outside_advice",
    "talking_during_duel",
    "heckling",
]
InfractionCode = TypeAliasType(
    "InfractionCode",
    Annotated[
        Literal[RuleCodes, ConductCodes],
        Field(
            description="A stable infraction code, one per item of the penalty regulations from PR 3 to PR 10 (GET "
            "/v1/infractions gives each): the deck rules' codes (PR 3), then the others. Codes are never renamed.",
            examples=["drew_extra_card"],
        ),
    ],
)
AssessCode = TypeAliasType(
    "AssessCode",
    Annotated[
        Literal[RuleCodes, ConductCodes, "rule_violation", "marked_cards", "slow_play"],
        Field(
            description="What to assess: an infraction code, or the family of items the regulations tell apart by "
            "intent (rule_violation, marked_cards, slow_play; give `intentional`) or by minutes late (tardiness; "
            "give `minutes_late`).",
            examples=["tardiness"],
        ),
    ],
)
InfractionKind = TypeAliasType(
    "InfractionKind",
    Annotated[
        Literal["deck", "conduct"],
        Field(description="deck: a deck rule (PR 3); conduct: what a player does (PR 4 to PR 10).", examples=["deck"]),
    ],
)
Timing = TypeAliasType(
    "Timing",
    Annotated[
        Literal["during_duel", "between_duels", "between_matches"],
        Field(
            description="When the infraction happened, which decides the duel or match a forfeiture costs (PR 1.C, "
            "1.D).",
            examples=["during_duel"],
        ),
    ],
)
PenaltyTarget = TypeAliasType(
    "PenaltyTarget",
    Annotated[
        Literal["record", "current_duel", "next_duel", "current_match", "next_match", "tournament"],
        Field(
            description="What the penalty costs: record (a caution or warning, recorded, the game goes on), the "
            "current or next duel (PR 1.C), the current or next match (PR 1.D), or the tournament (PR 1.E, 1.F).",
            examples=["current_duel"],
        ),
    ],
)
EscalationReason = TypeAliasType(
    "EscalationReason",
    Annotated[
        Literal["repeated", "influenced_outcome"],
        Field(
            description="Why the referee may raise the penalty: repeated (the player already received this "
            "infraction, PR 2.B) or influenced_outcome (it influenced the outcome of the match, PR 7, PR 10).",
            examples=["repeated"],
        ),
    ],
)
Procedure = TypeAliasType(
    "Procedure",
    Annotated[
        Literal["判定1", "判定2", "判定3"],
        Field(
            description="The procedure of TR 2.C: 判定1 (time up during a duel), 判定2 (between duels with the duels "
            "won level: an extra duel), 判定3 (1–0 before the second duel).",
            examples=["判定1"],
        ),
    ],
)
StepCode = TypeAliasType(
    "StepCode",
    Annotated[
        Literal[
            "finish_turn",
            "turn_decided",
            "extra_turns",
            "extra_turns_decided",
            "extra_duel",
            "extra_duel_decided",
            "sudden_death",
            "sudden_death_decided",
            "sudden_death_tied",
            "one_win_decides",
            "match_decided",
        ],
        Field(
            description="A step of the time-limit procedures (TR 2.C): finish_turn, turn_decided, extra_turns, "
            "extra_turns_decided, extra_duel, extra_duel_decided, sudden_death, sudden_death_decided, "
            "sudden_death_tied (still equal: the rules do not decide), one_win_decides, match_decided.",
            examples=["extra_turns"],
        ),
    ],
)
PlayerNumber = TypeAliasType(
    "PlayerNumber",
    Annotated[Literal[1, 2], Field(description="Player 1 or player 2 of the match.", examples=[1])],
)
