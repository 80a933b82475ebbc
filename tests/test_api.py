"""POST /v1/validate and friends over real HTTP: verdicts, languages, and bad input that must never get a 5xx."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.cases import MAIN_40, UNLIMITED, main_with, request

POT_OF_GREED = 55144522


def pot_of_greed_deck() -> dict[str, Any]:
    """A 40-card deck holding one Pot of Greed, for an event on 2008-06-01."""
    return {"main": main_with({"passcode": POT_OF_GREED}, drop=1), "date": "2008-06-01"}


def test_pot_of_greed_in_japanese(client: httpx.Client) -> None:
    response = client.post("/v1/validate", json=pot_of_greed_deck(), headers={"Accept-Language": "ja"})
    assert response.status_code == 200
    assert response.headers["content-language"] == "ja"
    body = response.json()
    assert body["legal"] is False
    assert body["penalty"] == "duel_forfeiture"
    assert body["counts"] == {"main": 40, "extra": 0, "side": 0}
    assert body["banlist"] == {
        "id": "ocg-2008-03-01",
        "name": "OCG 2008.03",
        "effective_from": "2008-03-01",
        "effective_until": "2008-09-01",
    }
    assert body["ruleset"] == {
        "id": "ocg-2008-03-15",
        "format": "ocg",
        "card_types": ["fusion", "synchro"],
        "languages": ["ja", "en", "fr", "it", "es", "pt", "de", "ko"],
        "notes": [],
    }
    assert body["violations"] == [
        {
            "code": "forbidden_card",
            "message": "「強欲な壺」はOCG 2008.03で禁止カードです。",
            "section": "main",
            "loc": [["main", 14]],
            "cards": [{"passcode": POT_OF_GREED, "name": "強欲な壺", "count": 1, "limit": 0}],
            "ctx": {"count": 1, "limit": 0, "banlist": "ocg-2008-03-01", "banlist_name": "OCG 2008.03"},
            "rule": "TR 3",
            "penalty": "duel_forfeiture",
            "penalty_basis": "explicit",
            "penalty_ref": "PR 3.A.3",
            "penalty_applies_to": "next_duel",
            "remedy": "違反しているカードを抜き、適切なカードと入れ替えてください。",
            "lines": [],
            "roster_lines": [],
        }
    ]


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("en-US", "en"),
        ("ja-JP,ja;q=0.9", "ja"),
        ("fr, ja;q=0.5, en;q=0.4", "ja"),
        ("de", "en"),
        ("en;Q=0.1, ja;q=0.5", "ja"),  # the q key is case-insensitive (RFC 9110 12.4.2)
    ],
)
def test_message_language_follows_accept_language(client: httpx.Client, header: str | None, lang: str) -> None:
    headers = {} if header is None else {"Accept-Language": header}
    response = client.post("/v1/validate", json=pot_of_greed_deck(), headers=headers)
    violation = response.json()["violations"][0]
    assert response.headers["content-language"] == lang
    expected = (
        "Pot of Greed is Forbidden on OCG 2008.03." if lang == "en" else "「強欲な壺」はOCG 2008.03で禁止カードです。"
    )
    assert violation["message"] == expected


def test_the_convert_targets_are_the_deck_forms_qr_and_sheet(client: httpx.Client) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert (schemas["DeckFormat"]["enum"], schemas["ConvertTarget"]["enum"]) == (
        ["json", "ydk", "ydke", "text"],
        ["json", "ydk", "ydke", "text", "qr", "sheet"],
    )


def test_legal_deck(client: httpx.Client) -> None:
    body = client.post("/v1/validate", json=request()).json()
    assert (body["legal"], body["penalty"], body["violations"]) == (True, None, [])
    assert body["counts"] == {"main": 40, "extra": 2, "side": 8}


def test_default_date_is_today_in_japan(client: httpx.Client) -> None:
    before = dt.datetime.now(dt.timezone(dt.timedelta(hours=9))).date()
    body = client.post("/v1/validate", json={"main": MAIN_40}).json()
    after = dt.datetime.now(dt.timezone(dt.timedelta(hours=9))).date()
    assert body["date"] in {before.isoformat(), after.isoformat()}
    assert body["banlist"]["effective_until"] is None  # the newest list is in force today


def test_unknown_card_is_a_violation_not_an_error(client: httpx.Client) -> None:
    deck = {"main": main_with({"name": "ブラック・マジシャソ"}, drop=1), "date": "2008-06-01"}
    response = client.post("/v1/validate", json=deck, headers={"Accept-Language": "ja"})
    assert response.status_code == 200
    [violation] = response.json()["violations"]
    assert violation["code"] == "unknown_card"
    assert violation["ctx"]["suggestions"][0]["name_ja"] == "ブラック・マジシャン"
    assert violation["message"].startswith(
        "「ブラック・マジシャソ」は公式のカードとして確認できません。近い名前：「ブラック・マジシャン」"
    )


def test_rule_catalogue(client: httpx.Client) -> None:
    rules = client.get("/v1/rules", headers={"Accept-Language": "ja"}).json()
    assert rules[0] == {
        "code": "main_deck_too_small",
        "summary": "メインデッキが40枚未満。",
        "rule": "TR 3, TR 4.15",
        "penalty": "duel_forfeiture",
        "penalty_basis": "explicit",
        "penalty_ref": "PR 3.A.1",
        "remedy": "メインデッキが40枚以上になるよう、適切なカードを加えてください。",
    }
    assert len(rules) == 20


def _deep(depth: int) -> bytes:
    return b'{"main":' + b"[" * depth + b"]" * depth + b"}"


BAD_BODIES: list[tuple[str, bytes | str, int, list[Any]]] = [
    ("malformed", b'{"main": [', 400, ["body"]),
    ("not json at all", b"\xff\xfe\x00garbage", 400, ["body"]),
    ("deeply nested", _deep(100_000), 400, ["body"]),
    ("nested within limits", _deep(50), 422, ["body", "main", 0]),
    ("array body", b"[1, 2]", 422, ["body"]),
    ("null body", b"null", 422, ["body"]),
    ("count as string", '{"main": [{"passcode": 46986414, "count": "3"}]}', 422, ["body", "main", 0, "count"]),
    ("count as bool", '{"main": [{"passcode": 46986414, "count": true}]}', 422, ["body", "main", 0, "count"]),
    ("negative count", '{"main": [{"passcode": 46986414, "count": -1}]}', 422, ["body", "main", 0, "count"]),
    ("zero count", '{"main": [{"passcode": 46986414, "count": 0}]}', 422, ["body", "main", 0, "count"]),
    ("absurd count", '{"main": [{"passcode": 46986414, "count": 1e9}]}', 422, ["body", "main", 0, "count"]),
    (
        "huge count",
        '{"main": [{"passcode": 46986414, "count": 99999999999999999999}]}',
        422,
        ["body", "main", 0, "count"],
    ),
    ("negative passcode", '{"main": [{"passcode": -5}]}', 422, ["body", "main", 0, "passcode"]),
    ("passcode as string", '{"main": [{"passcode": "46986414"}]}', 422, ["body", "main", 0, "passcode"]),
    ("no passcode and no name", '{"main": [{"count": 3}]}', 422, ["body", "main", 0]),
    ("empty name", '{"main": [{"name": ""}]}', 422, ["body", "main", 0, "name"]),
    ("unknown field", '{"main": [], "mian": []}', 422, ["body", "mian"]),
    ("section not a list", '{"main": {"passcode": 1}}', 422, ["body", "main"]),
    ("impossible date", '{"date": "2008-02-30"}', 422, ["body", "date"]),
    ("date as number", '{"date": 20080601}', 422, ["body", "date"]),
    ("date with time", '{"date": "2008-06-01T00:00:00"}', 422, ["body", "date"]),
    ("unknown list id", '{"banlist": "ocg-1900-01-01"}', 422, ["body", "banlist"]),
    ("path-like list id", '{"banlist": "../../etc/passwd"}', 422, ["body", "banlist"]),
    ("inline list unknown card", '{"banlist": {"forbidden": [1]}}', 422, ["body", "banlist", "forbidden", 0]),
    (
        "inline list card twice",
        '{"banlist": {"forbidden": [46986414], "limited": [36996508]}}',
        422,
        ["body", "banlist", "limited", 0],
    ),
    ("bad language", '{"main": [{"passcode": 46986414, "language": "日本語"}]}', 422, ["body", "main", 0, "language"]),
    ("bad duel", '{"duel": 4}', 422, ["body", "duel"]),
    ("duel 2 without roster", '{"duel": 2}', 422, ["body", "duel"]),
    ("bad phase", '{"phase": "lunch"}', 422, ["body", "phase"]),
    ("protectors wrong type", '{"protectors": {"used": "yes"}}', 422, ["body", "protectors", "used"]),
    ("too many entries", '{"side": [' + ",".join(['{"passcode": 46986414}'] * 501) + "]}", 422, ["body", "side"]),
]


@pytest.mark.parametrize(("label", "body", "status", "loc"), BAD_BODIES, ids=[b[0] for b in BAD_BODIES])
def test_bad_input_gets_a_problem(
    client: httpx.Client, label: str, body: bytes | str, status: int, loc: list[Any]
) -> None:
    response = client.post("/v1/validate", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == status
    assert problem["title"]
    assert problem["detail"]
    assert problem["type"].startswith("urn:deckcheck:problem:")
    assert any(error["loc"][: len(loc)] == loc for error in problem["errors"]), problem["errors"]
    assert all(set(error) == {"loc", "msg", "type"} for error in problem["errors"])
    assert client.get("/healthz").status_code == 200


def test_oversized_body_with_length(client: httpx.Client) -> None:
    response = client.post(
        "/v1/validate", content=b" " * (1024 * 1024 + 1), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["errors"] == [
        {"loc": ["body"], "msg": "The request body is larger than 1048576 bytes.", "type": "body_too_large"}
    ]


@pytest.mark.slow
def test_oversized_body_streamed_without_length(client: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"main": ['
        for _ in range(60_000):
            yield b'{"passcode": 46986414},'
        yield b"]}"

    response = client.post("/v1/validate", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert client.get("/healthz").status_code == 200


def test_largest_allowed_deck_is_answered(client: httpx.Client) -> None:
    section = [{"passcode": p, "count": 99} for p in UNLIMITED] * 38 + [{"passcode": 1}] * 6
    response = client.post("/v1/validate", json={"main": section, "extra": section, "side": section})
    assert response.status_code == 200
    codes = {v["code"] for v in response.json()["violations"]}
    assert {"main_deck_too_large", "extra_deck_too_large", "side_deck_too_large", "unknown_card"} <= codes


def test_unknown_route_and_method(client: httpx.Client) -> None:
    assert client.get("/v1/nothing").json()["status"] == 404
    response = client.put("/v1/validate")
    assert response.status_code == 405
    assert response.headers["content-type"] == "application/problem+json"


def _hit(*row: Any) -> dict[str, Any]:
    return dict(zip(("passcode", "name_en", "name_ja", "matched", "match", "score"), row, strict=True))


@pytest.mark.parametrize(
    ("query", "hits"),
    [
        (
            "Kuriboh",
            [
                _hit(40640057, "Kuriboh", "クリボー", "Kuriboh", "exact", 100.0),
                _hit(14965712, "Kuriboh - Multiply!", "増殖するクリボー！", "Kuriboh - Multiply!", "prefix", 96.9),
                _hit(78355370, "Kuribohrn", "クリボーン", "Kuribohrn", "prefix", 93.9),
            ],
        ),
        (
            "ぶらっく・まじしゃん",
            [
                _hit(46986414, "Dark Magician", "ブラック・マジシャン", "ブラック・マジシャン", "exact", 100.0),
                _hit(
                    38033121,
                    "Dark Magician Girl",
                    "ブラック・マジシャン・ガール",
                    "ブラック・マジシャン・ガール",
                    "prefix",
                    98.0,
                ),
                _hit(
                    50725996,
                    "Dark Magician Knight",
                    "ブラック・マジシャンズ・ナイト",
                    "ブラック・マジシャンズ・ナイト",
                    "prefix",
                    93.5,
                ),
            ],
        ),
    ],
)
def test_search_ranks_whole_words_before_longer_words(client: httpx.Client, query: str, hits: list[Any]) -> None:
    response = client.get("/v1/cards", params={"q": query, "limit": 3})
    assert response.status_code == 200
    assert response.json() == hits
