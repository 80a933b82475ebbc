"""The golden assessments: for every infraction of the catalogue, the answers of POST /v1/penalties/assess in both
languages to its code alone and, where the item depends on them, to the facts that change it; and where facts can
contradict the item (its definition's intent, its minutes late, its time), the whole refusal (422), its request id
left out. One file per code in tests/golden_assessments/, written by `python -m tests.regen_golden`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from deckcheck.rules.infractions import FAMILIES, INFRACTIONS

GOLDEN_ASSESSMENTS = Path(__file__).resolve().parent / "golden_assessments"


def requests_for(code: str) -> dict[str, dict[str, Any]]:
    """The requests of an infraction's golden file, by name."""
    item = INFRACTIONS[code]
    found: dict[str, dict[str, Any]] = {"alone": {"code": code}, "repeated": {"code": code, "prior": 1}}
    found["between_duels"] = {"code": code, "timing": "between_duels"}
    if len(FAMILIES[item.family]) > 1:
        if item.intentional is not None:
            found["by_family"] = {"code": item.family, "intentional": item.intentional}
        else:
            found["by_family"] = {"code": item.family, "minutes_late": (item.minutes_late or 0) + 1}
    if item.forfeit_when is not None:
        found["cannot_be_put_back"] = {"code": code, "remedied": False}
        found["decisive"] = {"code": code, "remedied": True, "decisive": True}
    if item.heavier_when_influential:
        found["influenced_outcome"] = {"code": code, "influenced_outcome": True}
    if item.penalty == "match_forfeiture":
        found["match_decided"] = {"code": code, "match_decided": True}
    if item.intentional is not None:
        found["contradicts_intent"] = {"code": code, "intentional": not item.intentional}
    if item.minutes_late:
        found["contradicts_minutes_late"] = {"code": code, "minutes_late": item.minutes_late - 1}
    return found


def answers_for(client: httpx.Client, code: str) -> dict[str, Any]:
    """The golden content of one code: each request and its answers in English and Japanese."""
    golden: dict[str, Any] = {}
    for name, body in requests_for(code).items():
        answers: dict[str, Any] = {}
        for lang in ("en", "ja"):
            answer = client.post("/v1/penalties/assess", json=body, headers={"Accept-Language": lang})
            assert answer.headers["content-language"] == lang
            if answer.status_code == 200:
                answers[lang] = answer.json()
                continue
            assert (answer.status_code, answer.headers["content-type"]) == (422, "application/problem+json")
            answers["status"] = 422
            answers[lang] = {key: value for key, value in answer.json().items() if key != "request_id"}
        golden[name] = {"request": body, **answers}
    return golden
