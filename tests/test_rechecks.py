"""Lists as a resource and batch rechecks over HTTP: order, errors per line, summaries, streaming."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from bench.corpus import Corpus, CorpusDeck
from deckcheck import Data
from deckcheck.api import create_app
from deckcheck.limits import KEPT_NEWLY_ILLEGAL_IDS
from tests.cases import MAIN_40
from tests.golden import run_case

ROOT = Path(__file__).resolve().parent.parent  # the repository, with cards/ and banlists/

RECHECK = "/v1/rechecks?date=2008-09-01&previous=ocg-2008-03-01"
# The cards OCG 2008.09 forbids that OCG 2008.03 had limited.
NEWLY_FORBIDDEN = {40737112: "Dark Magician of Chaos", 70828912: "Premature Burial", 23557835: "Dimension Fusion"}
NEWLY_FORBIDDEN[56570271] = "Destiny HERO - Disk Commander"


def _lines(body: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in body.splitlines()]


def test_list_of_lists(client: httpx.Client) -> None:
    lists = client.get("/v1/banlists").json()
    assert [item["format"] for item in lists] == ["OCG"] * 86 + ["TCG"] * 47
    assert client.get("/v1/banlists", params={"format": "tcg"}).json() == lists[86:]
    spring = next(item for item in lists if item["id"] == "ocg-2008-03-01")
    assert spring == {
        "id": "ocg-2008-03-01",
        "name": "OCG 2008.03",
        "format": "OCG",
        "effective_from": "2008-03-01",
        "effective_until": "2008-09-01",
        "counts": {"forbidden": 40, "limited": 57, "semi_limited": 12},
    }


def test_one_list_with_names(client: httpx.Client) -> None:
    body = client.get("/v1/banlists/ocg-2008-03-01").json()
    assert len(body["forbidden"]) == 40
    assert {"passcode": 55144522, "name_en": "Pot of Greed", "name_ja": "強欲な壺"} in body["forbidden"]
    assert {"passcode": 70095154, "name_en": "Cyber Dragon", "name_ja": "サイバー・ドラゴン"} in body["semi_limited"]


def test_diff_between_lists(client: httpx.Client) -> None:
    body = client.get("/v1/banlists/ocg-2008-03-01/diff/ocg-2008-09-01").json()
    assert body["from"]["id"] == "ocg-2008-03-01"
    assert body["to"]["id"] == "ocg-2008-09-01"
    changes = {c["passcode"]: (c["from"], c["to"]) for c in body["changes"]}
    assert {p: changes[p] for p in NEWLY_FORBIDDEN} == dict.fromkeys(NEWLY_FORBIDDEN, ("limited", "forbidden"))
    assert changes[71413901] == ("forbidden", "limited")  # Breaker the Magical Warrior comes back
    assert changes[32807846] == ("semi_limited", "unlimited")  # Reinforcement of the Army
    assert len(changes) == 22
    back = client.get("/v1/banlists/ocg-2008-09-01/diff/ocg-2008-03-01").json()["changes"]
    assert {c["passcode"]: (c["to"], c["from"]) for c in back} == changes


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/v1/banlists/ocg-1900-01-01", 404),
        ("/v1/banlists/ocg-2008-03-01/diff/ocg-1900-01-01", 404),
        ("/v1/banlists/..%2F..%2Fetc%2Fpasswd", 404),
        ("/v1/banlists/ocg-2008-03-01%00", 422),
        ("/v1/banlists/ocg-2008-03-01.json", 422),
    ],
)
def test_unknown_or_path_like_list_ids(client: httpx.Client, path: str, status: int) -> None:
    response = client.get(path)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"


@pytest.fixture(scope="module")
def corpus(data: Data) -> list[CorpusDeck]:
    """10,000 stored decks built for OCG 2008.03."""
    return list(Corpus(data).decks(10_000))


def _limits(file: str) -> dict[int, int]:
    """A bundled list read straight from its file: passcode to the copies it allows."""
    raw = orjson.loads((ROOT / "banlists" / "ocg" / file).read_bytes())
    return {p: limit for limit, key in enumerate(("forbidden", "limited", "semi_limited")) for p in raw[key]}


def _expected_newly_illegal(deck: CorpusDeck) -> set[int]:
    """The cards of a deck built legal for OCG 2008.03 that exceed their OCG 2008.09 limit."""
    before, after = _limits("2008-03-01.json"), _limits("2008-09-01.json")
    stricter = {p: n for p, n in after.items() if n < before.get(p, 3)}
    if not deck.made_legal:
        return set()
    copies: dict[int, int] = {}
    for passcode in deck.main + deck.extra + deck.side:
        copies[passcode] = copies.get(passcode, 0) + 1
    return {p for p, n in copies.items() if p in stricter and n > stricter[p]}


@pytest.mark.slow
def test_recheck_finds_exactly_the_decks_the_change_breaks(client: httpx.Client, corpus: list[CorpusDeck]) -> None:
    body = b"".join(deck.line() + b"\n" for deck in corpus)
    response = client.post(RECHECK, content=body, headers={"Content-Type": "application/x-ndjson"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-ndjson"
    *results, closing = _lines(response.content)
    assert [r["line"] for r in results] == list(range(1, 10_001))
    assert [r["id"] for r in results] == [deck.id for deck in corpus]
    expected = {deck.id: _expected_newly_illegal(deck) for deck in corpus}
    newly = {r["id"] for r in results if r.get("newly_illegal")}
    assert newly == {deck_id for deck_id, cards in expected.items() if cards}
    assert any(expected[deck_id] & NEWLY_FORBIDDEN.keys() for deck_id in newly)
    summary = closing["summary"]
    assert summary["lines"] == 10_000
    assert summary["legal"] + summary["illegal"] == 10_000
    assert summary["errors"] == 0
    every = [r["id"] for r in results if r["newly_illegal"]]
    assert summary["newly_illegal"]["count"] == len(every)
    assert summary["newly_illegal"]["ids"] == every[:KEPT_NEWLY_ILLEGAL_IDS]
    assert summary["newly_illegal"]["ids_complete"] is (len(every) <= KEPT_NEWLY_ILLEGAL_IDS)
    causes = {c["passcode"]: c["decks"] for c in summary["newly_illegal"]["cards"]}
    counted: dict[int, int] = {}
    for cards in expected.values():
        for passcode in cards:
            counted[passcode] = counted.get(passcode, 0) + 1
    assert causes == counted
    assert set(NEWLY_FORBIDDEN) <= set(causes)
    assert summary["by_code"] == _count_codes(results)


def _count_codes(results: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for result in results:
        for violation in result["violations"]:
            counts[violation["code"]] = counts.get(violation["code"], 0) + 1
    return dict(sorted(counts.items()))


@pytest.mark.slow
def test_recheck_answers_as_validate_does(client: httpx.Client, corpus: list[CorpusDeck], data: Data) -> None:
    body = b"".join(deck.line() + b"\n" for deck in corpus)
    *results, _summary = _lines(client.post(RECHECK, content=body).content)
    keys = ("legal", "penalty", "counts", "violations")
    for deck, result in zip(corpus, results, strict=True):
        answer = run_case({"ydke": deck.ydke(), "date": "2008-09-01"}, data)
        assert {k: result[k] for k in keys} == {k: answer[k] for k in keys}, deck.id
    for deck, result in list(zip(corpus, results, strict=True))[::97]:
        answer = client.post("/v1/validate", json={"ydke": deck.ydke(), "date": "2008-09-01"}).json()
        assert {k: result[k] for k in keys} == {k: answer[k] for k in keys}, deck.id


def test_corrupt_lines_get_error_lines_in_place(client: httpx.Client, corpus: list[CorpusDeck]) -> None:
    lines = [deck.line() for deck in corpus[:1000]]
    corrupt = {7: b"{not json", 100: b"", 250: b'{"id": "x", "ydke": "ydke://@@@!!"}', 400: b'{"id": 4, "main": 3}'}
    corrupt |= {500: b"[1, 2]", 600: b'{"ydke": "ydke://!!"}', 700: b'{"id": "t", "ydk": "#main\\nfoo"}'}
    corrupt |= {800: b'{"id": true, "ydke": "ydke://!!"}', 900: b"\xff\xfe", 999: b'{"id": "long", "text": 5}'}
    for number, raw in corrupt.items():
        lines[number - 1] = raw
    body = b"\n".join(lines) + b"\n"
    *results, closing = _lines(client.post(RECHECK, content=body).content)
    assert [r["line"] for r in results] == list(range(1, 1001))
    assert {r["line"] for r in results if "error" in r} == set(corrupt)
    errors = {r["line"]: (r["id"], r["error"]["errors"][0]["type"]) for r in results if "error" in r}
    assert errors == {
        7: (None, "json_invalid"),
        100: (None, "empty_line"),
        250: ("x", "ydke_base64"),
        400: (4, "list_type"),
        500: (None, "model_type"),
        600: (None, "missing"),
        700: ("t", "not_a_passcode"),
        800: (None, "string_type"),
        900: (None, "json_invalid"),
        999: ("long", "string_type"),
    }
    assert closing["summary"]["errors"] == 10
    assert closing["summary"]["lines"] == 1000


def test_recheck_without_previous_and_with_an_inline_list(client: httpx.Client, corpus: list[CorpusDeck]) -> None:
    body = b"".join(deck.line() + b"\n" for deck in corpus[:200])
    inline = orjson.dumps({"name": "proposed", "forbidden": [46986414]}).decode()
    response = client.post("/v1/rechecks?date=2008-06-01", content=body, headers={"Deckcheck-Banlist": inline})
    *results, closing = _lines(response.content)
    assert "legal_before" not in results[0]
    assert closing["summary"]["banlist"]["id"] == "inline"
    assert "newly_illegal" not in closing["summary"]
    holding = [r for r, deck in zip(results, corpus, strict=False) if 46986414 in deck.main + deck.side]
    assert holding
    assert all(any(v["code"] == "forbidden_card" for v in r["violations"]) for r in holding)


def test_inline_lists_in_headers_are_read_as_utf8(client: httpx.Client) -> None:
    """Japanese in an inline list's header, sent as UTF-8 bytes as curl sends it, is read as the client wrote it:
    the list's name and its cards by name (Starlette alone reads a header as latin-1)."""
    banlist = {"name": "禁止リスト案", "forbidden": ["強欲な壺"]}
    previous = {"name": "前のリスト", "limited": ["強欲な壺"]}
    headers = {b"Deckcheck-Banlist": orjson.dumps(banlist), b"Deckcheck-Previous": orjson.dumps(previous)}
    line = orjson.dumps({"id": "d1", "main": [*MAIN_40, {"passcode": 55144522}]}) + b"\n"
    response = client.post("/v1/rechecks?date=2008-06-01", content=line, headers={**headers, b"Accept-Language": b"ja"})
    assert response.status_code == 200, response.text
    result, closing = _lines(response.content)
    forbidden = [v for v in result["violations"] if v["code"] == "forbidden_card"]
    assert [v["message"] for v in forbidden] == ["「強欲な壺」は禁止リスト案で禁止カードです。"]
    assert (result["legal_before"], result["newly_illegal"]) == (True, True)  # one copy: the limit the list before
    assert (closing["summary"]["banlist"]["name"], closing["summary"]["previous"]["name"]) == (
        "禁止リスト案",
        "前のリスト",
    )


@pytest.mark.parametrize("header", ["Deckcheck-Banlist", "Deckcheck-Previous"])
def test_an_inline_list_header_that_is_no_utf8_is_refused(client: httpx.Client, header: str) -> None:
    cut = orjson.dumps({"name": "禁止リスト案"})[:13]  # {"name":" and 禁, then the first of the three bytes of 止
    response = client.post("/v1/rechecks?date=2008-06-01", content=b"", headers={header.encode(): cut + b'"}'})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["header", header.lower()],
            "msg": "not UTF-8 text (at byte 12, counting from 0): send the list as UTF-8, or as JSON escaped to ASCII",
            "type": "header_not_utf8",
        }
    ]


@pytest.mark.parametrize(
    ("query", "loc"),
    [
        ("banlist=ocg-1900-01-01", ["query", "banlist"]),
        ("previous=../../etc/passwd", ["query", "previous"]),
        ("date=2008-02-30", ["query", "date"]),
        ("banlist=" + "%7B%22forbidden%22%3A%5B1%5D%7D", ["query", "banlist", "forbidden", 0]),
    ],
)
def test_recheck_parameter_errors(client: httpx.Client, query: str, loc: list[Any]) -> None:
    response = client.post(f"/v1/rechecks?{query}", content=b"")
    assert response.status_code == 422
    assert loc in [e["loc"] for e in response.json()["errors"]]


def test_oversized_line_is_one_error_line(client: httpx.Client) -> None:
    def body() -> Iterator[bytes]:
        yield b'{"id": 1, "ydke": "ydke://!!"}\n{"id": 2, "text": "'
        for _ in range(300):
            yield b"1 Pot of Greed\\n" * 300
        yield b'"}\n{"id": 3, "ydke": "ydke://!!"}\n'

    *results, closing = _lines(client.post(RECHECK, content=body()).content)
    assert [(r["line"], r["id"], "error" in r) for r in results] == [(1, 1, False), (2, None, True), (3, 3, False)]
    assert results[1]["error"]["errors"][0]["type"] == "line_too_long"
    assert closing["summary"]["lines"] == 3


@pytest.mark.slow
def test_first_result_leaves_before_the_last_deck_arrives(corpus: list[CorpusDeck]) -> None:
    app = create_app()

    async def scenario() -> list[str]:
        events: list[str] = []
        sent_first = asyncio.Event()
        chunks = [corpus[0].line() + b"\n", corpus[1].line() + b"\n"]

        async def receive() -> dict[str, Any]:
            if chunks:
                chunk = chunks.pop(0)
                if not chunks:  # hold the last deck back until a result has gone out
                    await asyncio.wait_for(sent_first.wait(), timeout=10)
                events.append("deck sent")
                return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.body" and message.get("body"):
                events.append("result out")
                sent_first.set()

        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/v1/rechecks",
            "raw_path": b"/v1/rechecks",
            "query_string": b"date=2008-06-01",
            "root_path": "",
            "headers": [(b"content-type", b"application/x-ndjson")],
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 80),
        }
        await app(scope, receive, send)
        return events

    assert asyncio.run(scenario()) == ["deck sent", "result out", "deck sent", "result out", "result out"]
