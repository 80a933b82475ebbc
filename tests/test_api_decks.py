"""Deck formats through the API: the same deck in every form gets the same verdict; parse, convert, card lookup."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from deckcheck import Data, Deck, Entry
from deckcheck.formats import write
from tests.cases import EXTRA, MAIN_40, SIDE

# The legal base deck plus a fourth Dark Magician (as its alternate artwork) and Pot of Greed: two violations.
MAIN = [
    *MAIN_40[:12],
    {"passcode": 28553439, "count": 1},
    {"passcode": 83764718},
    {"passcode": 36996508},
    {"passcode": 55144522},
]


def _deck() -> Deck:
    def entries(items: list[dict[str, Any]]) -> tuple[Entry, ...]:
        return tuple(Entry(i["passcode"], count=i.get("count", 1)) for i in items)

    return Deck(entries(MAIN), entries(EXTRA), entries(SIDE))


def _verdict(body: dict[str, Any]) -> list[tuple[str, str | None, list[Any], list[Any]]]:
    return [(v["code"], v["section"], v["loc"], v["cards"]) for v in body["violations"]]


def test_every_form_gets_the_same_verdict(client: httpx.Client, data: Data) -> None:
    deck = _deck()
    bodies: dict[str, dict[str, Any]] = {
        "json": {"main": MAIN, "extra": EXTRA, "side": SIDE},
        "ydk": {"ydk": write("ydk", deck, data.cards)},
        "ydke": {"ydke": write("ydke", deck, data.cards)},
        "text_en": {"text": write("text", deck, data.cards, "en")},
        "text_ja": {"text": write("text", deck, data.cards, "ja")},
    }
    answers = {
        form: client.post("/v1/validate", json={**body, "date": "2008-06-01"}).json() for form, body in bodies.items()
    }
    expected = _verdict(answers["json"])
    assert [code for code, *_ in expected] == ["forbidden_card", "too_many_copies"]
    for form, answer in answers.items():
        assert (answer["legal"], answer["penalty"], answer["counts"]) == (
            False,
            "duel_forfeiture",
            answers["json"]["counts"],
        )
        if form in ("json", "ydke", "text_en", "text_ja"):
            assert _verdict(answer) == expected, form
    # In a .ydk file each copy is a line: the three copies of Dark Magician are one entry on lines 3-5.
    assert [(v["code"], v["lines"]) for v in answers["ydk"]["violations"]] == [
        ("forbidden_card", [42]),
        ("too_many_copies", [3, 4, 5, 41]),
    ]
    assert [(v["code"], v["lines"]) for v in answers["text_en"]["violations"]] == [
        ("forbidden_card", [17]),
        ("too_many_copies", [2, 16]),
    ]


def test_stray_ydk_line_is_refused_with_its_number(client: httpx.Client) -> None:
    ydk = "#created by a deck builder\n#main\n46986414\n46986414\nDark Magician\n55144522\n#extra\n!side\n"
    response = client.post("/v1/validate", json={"ydk": ydk})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "ydk"],
            "msg": "'Dark Magician' is not a passcode",
            "type": "not_a_passcode",
            "line": 5,
            "column": 1,
        }
    ]


def test_garbage_ydke_names_the_part(client: httpx.Client) -> None:
    response = client.post("/v1/validate", json={"ydke": "ydke://!@@@!!"})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {"loc": ["body", "ydke", "extra"], "msg": "extra: not base64", "type": "ydke_base64"}
    ]


def test_two_deck_sources_are_refused(client: httpx.Client) -> None:
    response = client.post("/v1/validate", json={"ydk": "#main\n", "text": "1 Pot of Greed"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["body"]


def test_unknown_text_name_points_at_its_line(client: httpx.Client) -> None:
    text = (
        "Main Deck\n" + "\n".join(f"{e.get('count', 1)} {e['passcode']}" for e in MAIN_40[:13]) + "\n1 Dark Magican\n"
    )
    body = client.post("/v1/validate", json={"text": text, "date": "2008-06-01"}).json()
    [violation] = body["violations"]
    assert (violation["code"], violation["loc"], violation["lines"]) == ("unknown_card", [["main", 13]], [15])
    assert violation["ctx"]["suggestions"][0]["name_en"] == "Dark Magician"


def test_roster_as_text(client: httpx.Client, data: Data) -> None:
    roster = write("text", _deck(), data.cards, "ja")
    deck = {"ydk": write("ydk", _deck(), data.cards), "roster": {"text": roster}, "date": "2008-06-01"}
    body = client.post("/v1/validate", json=deck).json()
    assert [v["code"] for v in body["violations"]] == ["forbidden_card", "too_many_copies"]
    sided = {**deck, "roster": {"text": roster.replace("1 強欲な壺", "1 死者蘇生")}}
    body = client.post("/v1/validate", json=sided).json()
    mismatch = [v for v in body["violations"] if v["code"] == "roster_mismatch"]
    assert [(v["section"], v["lines"], v["roster_lines"]) for v in mismatch] == [("main", [42], [15, 17])]


def test_parse_resolves_every_entry(client: httpx.Client) -> None:
    body = client.post("/v1/decks/parse", json={"text": "3 ﾌﾞﾗｯｸ･ﾏｼﾞｼｬﾝ\n1 Dark Magican\nExtra\n44508095"}).json()
    assert body["format"] == "text"
    assert body["counts"] == {"main": 4, "extra": 1, "side": 0}
    assert body["main"][0] == {
        "passcode": 46986414,
        "canonical": 46986414,
        "name_en": "Dark Magician",
        "name_ja": "ブラック・マジシャン",
        "kind": "monster",
        "extra_deck_type": "none",
        "count": 3,
        "language": None,
        "lines": [1],
    }
    assert body["extra"][0]["passcode"] == 44508095
    assert body["extra"][0]["canonical"] == 44508094
    [problem] = body["problems"]
    assert problem["section"] == "main"
    assert problem["index"] == 1
    assert problem["lines"] == [2]
    assert problem["type"] == "unknown_name"
    assert problem["suggestions"][0]["name_en"] == "Dark Magician"


@pytest.mark.parametrize("target", ["ydk", "ydke", "text", "json"])
def test_convert_round_trips_through_every_form(client: httpx.Client, target: str) -> None:
    source = {"main": MAIN, "extra": EXTRA, "side": SIDE}
    converted = client.post("/v1/decks/convert", json={**source, "to": target, "names": "ja"}).json()
    assert converted["format"] == target
    back_body = (
        {"main": converted["deck"]["main"], "extra": converted["deck"]["extra"], "side": converted["deck"]["side"]}
        if target == "json"
        else {target: converted["content"]}
    )
    back = client.post("/v1/decks/parse", json=back_body).json()
    original = client.post("/v1/decks/parse", json=source).json()
    for section in ("main", "extra", "side"):
        assert [(e["canonical"], e["count"]) for e in back[section]] == [
            (e["canonical"], e["count"]) for e in original[section]
        ]


def test_convert_refuses_unknown_cards(client: httpx.Client) -> None:
    response = client.post("/v1/decks/convert", json={"main": [{"name": "No Such Card"}], "to": "ydk"})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "main", 0],
            "msg": "'No Such Card' is not the name of an official card; it cannot be written",
            "type": "unknown_name",
        }
    ]


def test_card_lookup(client: httpx.Client) -> None:
    body = client.get("/v1/cards/36996508").json()
    assert body["passcode"] == 46986414
    assert body["requested"] == 36996508
    assert body["aliases"] == [36996508, 46986415, 46986416, 46986417, 46986418, 46986419, 46986421]
    assert (body["name_en"], body["name_ja"], body["kind"], body["extra_deck_type"]) == (
        "Dark Magician",
        "ブラック・マジシャン",
        "monster",
        "none",
    )
    assert body["first_japanese_printing"] == "1999-02-04"
    assert len(body["banlists"]) == 133  # 86 OCG lists, then 47 TCG lists
    chaos = client.get("/v1/cards/40737112").json()["banlists"]
    by_list = {row["banlist"]: (row["status"], row["limit"]) for row in chaos}
    assert by_list["ocg-2008-03-01"] == ("limited", 1)
    assert by_list["ocg-2008-09-01"] == ("forbidden", 0)
    assert by_list["tcg-2024-04-22"] == ("unlimited", 3)


@pytest.mark.parametrize(
    ("path", "status"), [("/v1/cards/12345678", 404), ("/v1/cards/abc", 422), ("/v1/cards/-1", 422)]
)
def test_card_lookup_errors(client: httpx.Client, path: str, status: int) -> None:
    response = client.get(path)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("query", ["ブラック・マジ", "ﾌﾞﾗｯｸ･ﾏｼﾞ", "Dark Magican", "ぶらっく まじしゃん", "dark magician"])
def test_search_finds_dark_magician(client: httpx.Client, query: str) -> None:
    hits = client.get("/v1/cards", params={"q": query, "limit": 3}).json()
    assert 46986414 in [h["passcode"] for h in hits]
    assert all(set(h) == {"passcode", "name_en", "name_ja", "matched", "match", "score"} for h in hits)
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


def test_search_folds_width(client: httpx.Client) -> None:
    wide = client.get("/v1/cards", params={"q": "ＨＥＲＯ", "limit": 20}).json()
    narrow = client.get("/v1/cards", params={"q": "HERO", "limit": 20}).json()
    assert wide == narrow
    assert {h["match"] for h in wide} == {"prefix"}


@pytest.mark.parametrize("params", [{}, {"q": ""}, {"q": "x" * 101}, {"q": "a", "limit": 0}, {"q": "a", "limit": 51}])
def test_search_errors(client: httpx.Client, params: dict[str, Any]) -> None:
    assert client.get("/v1/cards", params=params).status_code == 422
