"""The judge's routes over HTTP: the infraction catalogue, every infraction's golden assessment in both languages,
and the refusals of facts that name no item and of states no match can be in."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from deckcheck.rules.infractions import INFRACTIONS
from deckcheck.rules.judging import GROUPS
from deckcheck.sentences import say
from scripts.readme_tables import PAGE, written
from tests.judge_golden import GOLDEN_ASSESSMENTS, answers_for


@pytest.mark.parametrize("code", list(INFRACTIONS))
def test_every_infraction_has_its_golden_assessment(client: httpx.Client, code: str) -> None:
    golden = json.loads((GOLDEN_ASSESSMENTS / f"{code}.json").read_text(encoding="utf-8"))
    assert answers_for(client, code) == golden, "run `python -m tests.regen_golden` and read the diff"


def test_no_golden_file_is_left_over() -> None:
    assert sorted(path.stem for path in GOLDEN_ASSESSMENTS.glob("*.json")) == sorted(INFRACTIONS)


def test_the_catalogue_in_both_languages_and_cached(client: httpx.Client) -> None:
    english = client.get("/v1/infractions")
    japanese = client.get("/v1/infractions", headers={"Accept-Language": "ja"})
    assert [item["code"] for item in english.json()] == list(INFRACTIONS)
    assert english.json()[-1]["summary"].startswith("The player or the player's supporters")
    assert japanese.json()[-1]["summary"].startswith("プレイヤーまたはその応援者")
    assert english.headers["etag"] != japanese.headers["etag"]
    again = client.get("/v1/infractions", headers={"If-None-Match": english.headers["etag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(
    ("path", "body", "loc", "kind"),
    [
        ("/v1/penalties/assess", {"code": "marked_cards"}, ["body", "intentional"], "infraction_undetermined"),
        ("/v1/penalties/assess", {"code": "cheating"}, ["body", "code"], "literal_error"),
        (
            "/v1/penalties/assess",
            {"code": "tardiness", "minutes_late": -1},
            ["body", "minutes_late"],
            "greater_than_equal",
        ),
        ("/v1/penalties/assess", {"code": "tardiness", "prior": "1"}, ["body", "prior"], "int_type"),
        ("/v1/matches/time-limit", {"wins": [2, 0], "in_duel": False}, ["body", "wins", 0], "less_than_equal"),
        (
            "/v1/matches/time-limit",
            {"wins": [1, 1], "in_duel": False, "duel": {"turn_winner": 1}},
            ["body", "duel"],
            "impossible_match_state",
        ),
        (
            "/v1/matches/time-limit",
            {"wins": [1, 1], "in_duel": False, "extra_duel": {"life_points": [1, 2], "sudden_death": [0, 1]}},
            ["body", "extra_duel", "sudden_death"],
            "impossible_match_state",
        ),
    ],
)
def test_refusals_name_the_field(client: httpx.Client, path: str, body: object, loc: list[object], kind: str) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 422
    assert answer.headers["content-type"] == "application/problem+json"
    assert [(e["loc"], e["type"]) for e in answer.json()["errors"]] == [(loc, kind)]


def test_contradictory_facts_are_refused_in_the_language_asked_each_naming_its_fields(client: httpx.Client) -> None:
    """The two the desk met: 「故意でなく…」 with 故意か＝はい, and 5 minutes' tardiness for a player 2 minutes late."""
    slow = client.post(
        "/v1/penalties/assess",
        json={"code": "slow_play_unintentional", "intentional": True},
        headers={"Accept-Language": "ja"},
    )
    late = client.post("/v1/penalties/assess", json={"code": "tardiness_5_minutes", "minutes_late": 2})
    assert (slow.status_code, slow.headers["content-type"], slow.headers["content-language"]) == (
        422,
        "application/problem+json",
        "ja",
    )
    assert {key: value for key, value in slow.json().items() if key != "request_id"} == {
        "type": "urn:deckcheck:problem:invalid-request",
        "title": "Unprocessable Entity",
        "status": 422,
        "detail": "入力された事実が選んだ違反と矛盾しているため、判定していません。",
        "errors": [
            {
                "loc": ["body", "intentional"],
                "msg": "「故意でなくプレイに時間をかけすぎた」（PR 7, TR 2.C）は故意でない違反ですが、"
                "「故意か」が「はい」になっています。その事実では「故意にプレイに時間をかけた」にあたります。"
                "そちらを選ぶか、入力を直してください。",
                "type": "contradictory_facts",
                "fields": [["body", "code"], ["body", "intentional"]],
            }
        ],
    }
    assert (late.status_code, late.headers["content-language"]) == (422, "en")
    assert late.json()["errors"] == [
        {
            "loc": ["body", "minutes_late"],
            "msg": "“Not being in the assigned place 5 minutes after the assigned time” (PR 5) covers being 5 to 9 "
            "minutes late, but 2 minutes late is given. On those facts the infraction is “Not being in the assigned "
            "place at the assigned time”: choose it, or correct the facts.",
            "type": "contradictory_facts",
            "fields": [["body", "code"], ["body", "minutes_late"]],
        }
    ]
    assert late.json()["detail"] == "The facts given contradict the infraction chosen; nothing was assessed."


def test_a_ruling_in_japanese(client: httpx.Client) -> None:
    body = {"wins": [0, 1], "in_duel": True, "duel": {"life_points": [500, 500], "sudden_death": [500, 0]}}
    answer = client.post("/v1/matches/time-limit", json=body, headers={"Accept-Language": "ja"}).json()
    assert answer["procedures"] == ["判定1", "判定2"]  # 1–1 after the extra turns: 判定2 next
    assert answer["duel_winner"] == 1
    assert answer["next_step"]["code"] == "extra_duel"
    assert answer["next_step"]["text"].startswith("デュエルの勝敗数が並んでいるため")
    assert (
        answer["steps"][-1]["text"]
        == "ライフポイントの増減が発生しました。ライフポイントの多いプレイヤー1の勝利です（TR 2.C ※）。"
    )


def test_validate_marks_what_a_repeat_allows(client: httpx.Client) -> None:
    """`prior` on /v1/validate: each violation says whether and to what the referee may raise it (PR 2.B), as an
    assessment would; without `prior` the answer is as before."""
    pot = {"main": [{"passcode": 55144522}], "date": "2008-06-01"}
    plain = client.post("/v1/validate", json=pot).json()
    assert "escalations" not in plain["violations"][0]
    marked = client.post("/v1/validate", json={**pot, "prior": {"forbidden_card": 2}}).json()
    codes = [(v["code"], [e["to"] for e in v["escalations"]]) for v in marked["violations"]]
    assert codes == [("forbidden_card", ["match_forfeiture"]), ("main_deck_too_small", [])]
    assert marked["violations"][0]["penalty"] == "duel_forfeiture"  # never raised by the service
    assessed = client.post("/v1/penalties/assess", json={"code": "forbidden_card", "prior": 2}).json()
    assert marked["violations"][0]["escalations"] == assessed["escalations"]
    refused = client.post("/v1/validate", json={**pot, "prior": {"cheating": 1}})
    assert refused.status_code == 422


def test_the_judges_table_is_the_catalogue() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert written(page) == page, "run `python -m scripts.readme_tables`"
    assert all(f"| `{code}` |" in page for code in INFRACTIONS)  # deck rules in the rule codes' table


# What the contradictions and the minutes' spans fill in besides the player, the penalty and its basis.
FILLED = {
    "summary": "x",
    "rule": "PR 5",
    "span": "x",
    "minutes": 2,
    "allowed": "x",
    "timing": "x",
    "instead": "x",
    "low": 5,
    "high": 9,
}


def test_every_word_of_the_judge_fills_in_both_languages() -> None:
    """catalogues/judging.toml: each text of each group, in English and Japanese, takes the fields the answers give
    it."""
    for group, codes in GROUPS.items():
        for code in codes:
            for lang in ("en", "ja"):
                player = say("judging", "players", lang, number=1)
                text = say("judging", f"{group}.{code}", lang, player=player, to="x", basis="PR 2.B", **FILLED)
                assert "{" not in text
                # Japanese words in Japanese only; an English text names the procedures (判定1) as the rules do.
                japanese = re.search("[ぁ-んァ-ン一-龯〜]", text.replace("判定", "")) is not None
                assert japanese == (lang == "ja"), (group, code, lang)
