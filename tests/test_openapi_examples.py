"""The examples of the OpenAPI document are true: sent to the service, the example requests are accepted and get
the example answers; every kind of answer, problems too, fits its model; and between them the answers to the golden
cases, searches and parses hold every value the closed sets name."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import httpx
import pytest
from pydantic import TypeAdapter

import deckcheck.wire.answers.examples as ex
import deckcheck.wire.judge.examples as jx
from deckcheck.wire import answers, requests
from tests.cases import CASES
from tests.test_openapi import values


def cut_from(example: Any, answer: Any) -> bool:
    """Whether `example` is `answer` with some items of its lists left out (and nothing else changed)."""
    if isinstance(example, dict):
        return (
            isinstance(answer, dict)
            and example.keys() == answer.keys()
            and all(cut_from(value, answer[key]) for key, value in example.items())
        )
    if isinstance(example, list):
        rest = iter(answer) if isinstance(answer, list) else iter(())
        return isinstance(answer, list) and all(any(cut_from(item, other) for other in rest) for item in example)
    return type(example) is type(answer) and example == answer


def test_cut_from_sees_a_change() -> None:
    answer = {"a": [1, 2, 3], "b": {"c": True}}
    assert cut_from({"a": [1, 3], "b": {"c": True}}, answer)
    assert not cut_from({"a": [3, 1], "b": {"c": True}}, answer)  # out of order
    assert not cut_from({"a": [1], "b": {"c": 1}}, answer)  # 1 is not true
    assert not cut_from({"a": [1]}, answer)  # a key left out


class Exchange(NamedTuple):
    """A request, the model its answer is read into, and the example that answer must be (or be cut from)."""

    method: str
    path: str
    body: Any
    model: Any
    example: Any = None  # none: the answer changes with the data, the code or the moment
    cut: bool = False  # the example leaves out items of the answer's lists


EXCHANGES = [
    Exchange("POST", "/v1/validate", ex.VALIDATE_REQUEST, answers.ValidateResponse, ex.VALIDATE_RESPONSE),
    Exchange("POST", "/v1/decks/parse", ex.PARSE_REQUEST, answers.ParseResponse, ex.PARSE_RESPONSE),
    Exchange("POST", "/v1/decks/parse", ex.PARSE_JSON_REQUEST, answers.ParseResponse, ex.PARSE_JSON_RESPONSE),
    Exchange("POST", "/v1/decks/convert", ex.CONVERT_REQUEST, answers.ConvertResponse, ex.CONVERT_RESPONSE),
    Exchange(
        "POST",
        "/v1/decks/convert",
        {**ex.CONVERT_REQUEST, "to": "json"},
        answers.ConvertResponse,
        ex.CONVERT_JSON_RESPONSE,
    ),
    Exchange("GET", "/v1/cards/44508095", None, answers.CardOutFull, ex.CARD_FULL, cut=True),
    Exchange(
        "GET", "/v1/cards/55144522/legality?date=2026-12-01", None, answers.CardLegality, ex.CARD_LEGALITY, cut=True
    ),
    Exchange("GET", f"/v1/validate?ydke={quote(ex.SMALL_YDKE)}&date=2008-06-01", None, answers.ValidateResponse),
    Exchange("GET", "/v1/cards?q=Pot+of+Greed&limit=3", None, list[answers.SearchHit], [ex.SEARCH_HIT], cut=True),
    Exchange("GET", "/v1/banlists", None, list[answers.BanlistSummary], [ex.BANLIST_SUMMARY], cut=True),
    Exchange("GET", "/v1/banlists/ocg-2008-03-01", None, answers.BanlistDetail, ex.BANLIST_DETAIL, cut=True),
    Exchange(
        "GET", "/v1/banlists/ocg-2008-03-01/diff/ocg-2008-09-01", None, answers.BanlistDiff, ex.BANLIST_DIFF, cut=True
    ),
    Exchange("GET", "/v1/rules", None, list[answers.RuleOut], [ex.RULE], cut=True),
    Exchange("GET", "/v1/rules/eras", None, list[answers.EraOut], [ex.ERA], cut=True),
    Exchange("GET", "/v1/infractions", None, list[answers.InfractionOut], [jx.INFRACTION], cut=True),
    Exchange("POST", "/v1/penalties/assess", jx.ASSESS_REQUEST, answers.AssessmentOut, jx.ASSESSMENT),
    Exchange("POST", "/v1/matches/time-limit", jx.TIME_LIMIT_REQUEST, answers.RulingOut, jx.RULING),
    Exchange("GET", "/healthz", None, answers.Health),
    Exchange("GET", "/readyz", None, answers.Readiness),
]


@pytest.mark.parametrize("exchange", EXCHANGES, ids=lambda exchange: f"{exchange.method} {exchange.path}")
def test_an_example_request_gets_its_example_answer(client: httpx.Client, exchange: Exchange) -> None:
    answer = client.request(exchange.method, exchange.path, json=exchange.body)
    assert answer.status_code == 200, answer.text
    TypeAdapter(exchange.model).validate_python(answer.json())
    if exchange.cut:
        assert cut_from(exchange.example, answer.json())
    elif exchange.example is not None:
        assert answer.json() == exchange.example


def test_the_example_deck_is_the_readmes() -> None:
    readme_example = Path(__file__).resolve().parent.parent / "examples" / "pot-of-greed-2008.json"
    assert json.loads(readme_example.read_text(encoding="utf-8")) == ex.VALIDATE_REQUEST


def test_the_example_problem_is_the_problem_sent(client: httpx.Client) -> None:
    answer = client.post("/v1/validate", json=ex.PROBLEM_REQUEST)
    assert answer.status_code == 422
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answers.Problem.model_validate(answer.json())
    assert problem.request_id == answer.headers["x-request-id"]
    assert {**answer.json(), "request_id": ex.PROBLEM["request_id"]} == ex.PROBLEM


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("POST", "/v1/validate", {"main": [{"passcode": ex.POT_OF_GREED, "count": 0}]}, 422),
        ("POST", "/v1/validate", {"banlist": "tcg-2024-04-22"}, 422),
        ("POST", "/v1/validate", {"text": "100 Pot of Greed"}, 422),
        ("POST", "/v1/validate", {"banlist": {"lflist": "!a\nx 1\n"}}, 422),
        ("GET", "/v1/cards/1", None, 404),
        ("GET", "/v1/cards?q=", None, 422),
        ("GET", "/nowhere", None, 404),
        ("DELETE", "/v1/validate", None, 405),
    ],
)
def test_every_kind_of_problem_fits_the_model(
    client: httpx.Client, method: str, path: str, body: Any, status: int
) -> None:
    answer = client.request(method, path, json=body)
    assert answer.status_code == status
    assert answer.headers["content-type"] == "application/problem+json"
    assert answers.Problem.model_validate(answer.json()).status == status


def test_a_malformed_body_is_a_problem_that_fits_the_model(client: httpx.Client) -> None:
    answer = client.post("/v1/validate", content=b"{", headers={"Content-Type": "application/json"})
    assert answer.status_code == 400
    assert answers.Problem.model_validate(answer.json()).type == "urn:deckcheck:problem:malformed-body"


# Where the API takes each request model, as a body that must be accepted.
PLACES: dict[str, Callable[[Any], tuple[str, Any]]] = {
    "ValidateRequest": lambda example: ("/v1/validate", example),
    "DeckIn": lambda example: ("/v1/decks/parse", example),
    "ConvertRequest": lambda example: ("/v1/decks/convert", example),
    "EntryIn": lambda example: ("/v1/decks/parse", {"main": [example]}),
    "ProtectorsIn": lambda example: ("/v1/validate", {**ex.VALIDATE_REQUEST, "protectors": example}),
    "InlineBanlist": lambda example: ("/v1/validate", {**ex.VALIDATE_REQUEST, "banlist": example}),
    "LflistBanlist": lambda example: ("/v1/validate", {**ex.VALIDATE_REQUEST, "banlist": example}),
}


@pytest.mark.parametrize("name", sorted(PLACES))
def test_an_example_request_is_accepted_where_the_api_takes_it(client: httpx.Client, name: str) -> None:
    for example in getattr(requests, name).model_json_schema()["examples"]:
        path, body = PLACES[name](example)
        answer = client.post(path, json=body)
        assert answer.status_code == 200, answer.text


def test_the_names_in_the_example_list_name_cards(client: httpx.Client) -> None:
    names = [name for status in ("forbidden", "limited", "semi_limited") for name in ex.INLINE_BANLIST[status]]
    entries = [{"name": name} for name in names if isinstance(name, str)]
    parsed = client.post("/v1/decks/parse", json={"main": entries}).json()
    assert [card["name_en"] for card in parsed["main"]] == [
        "Premature Burial",
        "Cyber Dragon",
        "Mystical Space Typhoon",
    ]


def test_the_example_recheck_line_is_checked(client: httpx.Client) -> None:
    answer = client.post(
        "/v1/rechecks?date=2008-06-01",
        content=json.dumps(ex.RECHECK_LINE).encode() + b"\n",
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert answer.status_code == 200
    result, summary = (json.loads(line) for line in answer.text.splitlines())
    assert result["id"] == ex.RECHECK_LINE["id"]
    assert "error" not in result
    assert "summary" in summary


# The answers to every golden case fit the models, and between them hold every code and note the enums name.


def test_every_case_answer_fits_the_models_and_uses_every_value(client: httpx.Client) -> None:
    codes, notes, applies_to = set(), set(), set()
    for name, (body, _expected) in CASES.items():
        answer = client.post("/v1/validate", json=body)
        assert answer.status_code == 200, name
        verdict = answers.ValidateResponse.model_validate(answer.json())
        codes |= {violation.code for violation in verdict.violations}
        notes |= {note.code for note in verdict.ruleset.notes}
        applies_to |= {violation.penalty_applies_to for violation in verdict.violations}
    assert codes == set(values(answers.RuleCode))
    assert notes == set(values(answers.NoteCode))
    assert applies_to == {*values(answers.PenaltyAppliesTo), None}


def test_searches_and_parses_use_every_match_and_reason(client: httpx.Client) -> None:
    hits = [client.get("/v1/cards", params={"q": q, "limit": 5}).json() for q in ("Pot of Greed", "Pot of Gre")]
    matches = {hit.match for found in hits for hit in TypeAdapter(list[answers.SearchHit]).validate_python(found)}
    assert matches == set(values(answers.MatchKind))
    deck = {
        "main": [{"passcode": 1}, {"name": "Pot of Gred"}, {"passcode": ex.POT_OF_GREED, "name": "Stardust Dragon"}]
    }
    parsed = answers.ParseResponse.model_validate(client.post("/v1/decks/parse", json=deck).json())
    assert {problem.type for problem in parsed.problems} == set(values(answers.UnknownReason))
