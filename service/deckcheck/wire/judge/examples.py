"""Examples of the judge's routes, real requests and the answers the service gives them (held to the service by
tests/test_openapi_examples.py)."""

from __future__ import annotations

from typing import Any

ASSESS_REQUEST: dict[str, Any] = {"code": "tardiness", "minutes_late": 6, "timing": "between_duels", "prior": 1}
TIME_LIMIT_REQUEST: dict[str, Any] = {"wins": [1, 0], "in_duel": True, "duel": {"life_points": [500, 500]}}
ASSESSMENT: dict[str, Any] = {
    "code": "tardiness_5_minutes",
    "family": "tardiness",
    "summary": "Not being in the assigned place 5 minutes after the assigned time.",
    "penalty": "duel_forfeiture",
    "penalty_name": "Duel Forfeiture",
    "basis": ["PR 5", "PR 1.C"],
    "applies_to": "next_duel",
    "applies_to_text": "It came before the duel: the player loses the next duel (PR 1.C).",
    "at_referees_discretion": False,
    "prizes_kept": None,
    "recorded": True,
    "remedy": None,
    "forfeit_instead": None,
    "escalations": [
        {
            "to": "match_forfeiture",
            "basis": "PR 2.B",
            "reason": "repeated",
            "text": "A repeat of the same violation: the referee may give a higher penalty, Match Forfeiture (PR 2.B).",
        }
    ],
    "notes": ["The referee may take the circumstances into account to mitigate or escalate the penalty (PR 2.A)."],
}
RULING: dict[str, Any] = {
    "procedures": ["判定1"],
    "steps": [
        {
            "code": "finish_turn",
            "procedure": "判定1",
            "player": None,
            "text": "Time is up during a duel: play the current turn to its end (TR 2.C 判定1.1).",
        },
        {
            "code": "extra_turns",
            "procedure": "判定1",
            "player": None,
            "text": "Not decided by the end of the turn: play 3 extra turns, counted from the opponent's "
            "turn (TR 2.C 判定1.2–3).",
        },
    ],
    "next_step": {
        "code": "sudden_death",
        "procedure": "判定1",
        "player": None,
        "text": "Life points are equal: go on in sudden death; the duel ends as soon as life points "
        "change, paying life as a cost included (TR 2.C 判定1.5, 判定2.2 ※).",
    },
    "wins": [1, 0],
    "duel_winner": None,
    "match_winner": None,
    "decided": False,
}
INFRACTION: dict[str, Any] = {
    "code": "drew_extra_card",
    "kind": "conduct",
    "family": "drew_extra_card",
    "summary": "Unintentionally drawing too many cards.",
    "rule": "PR 4.B",
    "penalty": "warning",
    "penalty_basis": "explicit",
    "penalty_ref": "PR 4.B",
    "remedy": "Put the card drawn in error back on top of the deck.",
    "intentional": False,
    "minutes_late": None,
    "depends_on": ["remedied", "decisive"],
}
