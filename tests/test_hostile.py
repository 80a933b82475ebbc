"""Hostile requests over real HTTP: every deck form is held to the same bounds, unknown names cost a fixed budget,
and no answer grows faster than its request (docs/developers/limits.md)."""

from __future__ import annotations

import base64
import random
import string
import struct
from typing import Any

import httpx
import orjson

from deckcheck.batch.summary import Outcome, Summary
from deckcheck.limits import KEPT_NEWLY_ILLEGAL_IDS, MAX_CARDS, MAX_ENTRIES, SUGGESTED_NAMES
from tests.cases import request

ONE_MIB = 1024 * 1024


def ydke(main: list[int]) -> str:
    """A ydke link with `main` as its main deck and nothing else."""
    return "ydke://" + base64.b64encode(struct.pack(f"<{len(main)}I", *main)).decode() + "!!!"


def garbage_names(count: int, seed: int = 7) -> list[str]:
    """`count` distinct names of random letters that name no card."""
    rng = random.Random(seed)
    names: set[str] = set()
    while len(names) < count:
        names.add("".join(rng.choice(string.ascii_lowercase) for _ in range(20)))
    return sorted(names)


def test_an_oversized_ydke_link_is_refused_before_any_check(client: httpx.Client) -> None:
    # 187,000 different unknown passcodes in one link of about 1 MB: once a 99 MB answer and 400 MB of memory.
    link = ydke(list(range(1, 187_001)))
    assert len(link) < ONE_MIB
    too_many = [
        {
            "loc": ["body", "ydke", "main"],
            "msg": f"main: 187000 different cards or entries, more than {MAX_ENTRIES}",
            "type": "too_many_entries",
        },
        {
            "loc": ["body", "ydke", "main"],
            "msg": f"main: 187000 cards, more than {MAX_CARDS}",
            "type": "too_many_cards",
        },
    ]
    for path in ("/v1/validate", "/v1/decks/parse"):
        response = client.post(path, json={"ydke": link})
        assert response.status_code == 422
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["errors"] == too_many
    response = client.post("/v1/validate", json=request(roster={"ydke": link}))
    assert response.json()["errors"] == [{**error, "loc": ["body", "roster", "ydke", "main"]} for error in too_many]


def test_one_card_copied_past_the_card_bound_is_refused(client: httpx.Client) -> None:
    response = client.post("/v1/validate", json={"ydke": ydke([46986414] * (MAX_CARDS + 1))})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "ydke", "main"],
            "msg": f"main: {MAX_CARDS + 1} cards, more than {MAX_CARDS}",
            "type": "too_many_cards",
        }
    ]


def test_a_text_list_is_held_to_the_entries_bound_of_json_lists(client: httpx.Client) -> None:
    text = "\n".join(garbage_names(MAX_ENTRIES + 1))
    response = client.post("/v1/validate", json={"text": text})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "text", "main"],
            "msg": f"main: {MAX_ENTRIES + 1} different cards or entries, more than {MAX_ENTRIES}",
            "type": "too_many_entries",
        }
    ]


def test_a_long_name_in_a_text_list_is_refused_like_in_json(client: httpx.Client) -> None:
    text = "Dark Magician\n" + "x" * 201 + "\n"
    response = client.post("/v1/validate", json={"text": text})
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "text", "main", 1],
            "msg": "a card name longer than 200 characters",
            "type": "name_too_long",
            "line": 2,
        }
    ]


def _unknown_names_answer(client: httpx.Client, body: dict[str, Any]) -> tuple[httpx.Response, list[dict[str, Any]]]:
    response = client.post("/v1/validate", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 200
    unknown = [v for v in response.json()["violations"] if v["code"] == "unknown_card"]
    return response, unknown


def test_only_the_first_unknown_names_get_suggestions(client: httpx.Client) -> None:
    names = garbage_names(3 * MAX_ENTRIES)
    sections = {s: names[i * MAX_ENTRIES : (i + 1) * MAX_ENTRIES] for i, s in enumerate(("main", "extra", "side"))}
    text = "".join(f"#{s}\n" + "\n".join(sections[s]) + "\n" for s in sections).replace("#side", "!side")
    for body in ({"text": text}, {s: [{"name": n} for n in sections[s]] for s in sections}):
        response, unknown = _unknown_names_answer(client, body)
        assert len(unknown) == 3 * MAX_ENTRIES
        omitted = [v for v in unknown if v["ctx"]["suggestions_omitted"]]
        assert len(omitted) == 3 * MAX_ENTRIES - SUGGESTED_NAMES
        assert all(v["ctx"]["suggestions"] == [] for v in omitted)
        assert omitted[0]["message"].endswith(
            f"Closest names are given for the first {SUGGESTED_NAMES} unknown names only."
        )
        # Under 700 bytes of answer for each unknown name, however it was sent: at most about 1 MB, whatever the
        # request, since a deck holds at most 3 x 500 entries.
        assert len(response.content) < 700 * 3 * MAX_ENTRIES


def test_the_japanese_message_says_why_a_name_has_no_suggestions(client: httpx.Client) -> None:
    body = {"text": "\n".join(garbage_names(SUGGESTED_NAMES + 1))}
    response = client.post("/v1/validate", json=body, headers={"Accept-Language": "ja"})
    last = [v for v in response.json()["violations"] if v["code"] == "unknown_card"][-1]
    assert last["ctx"]["suggestions_omitted"] is True
    assert last["message"].endswith(f"近い名前は、不明な名前の最初の{SUGGESTED_NAMES}件にだけ示します。")


def test_suggestions_count_distinct_names(client: httpx.Client) -> None:
    # One mistyped name written 30 times is one name: it keeps its suggestions, and so does the next name.
    body = {"text": "\n".join(["Dark Magican"] * 30 + ["Mystic Tomatoe"])}
    _, unknown = _unknown_names_answer(client, body)
    assert [v["ctx"]["suggestions"][0]["name_en"] for v in unknown] == ["Dark Magician", "Mystic Tomato"]
    assert [v["ctx"]["suggestions_omitted"] for v in unknown] == [False, False]


def test_parse_gives_suggestions_on_the_same_budget(client: httpx.Client) -> None:
    names = garbage_names(SUGGESTED_NAMES + 5)
    response = client.post("/v1/decks/parse", json={"text": "\n".join(names)})
    assert response.status_code == 200
    omitted = [p["suggestions_omitted"] for p in response.json()["problems"]]
    assert omitted == [False] * SUGGESTED_NAMES + [True] * 5


def test_a_recheck_id_is_bounded_and_never_echoed_when_too_long(client: httpx.Client) -> None:
    lines = [{"id": "x" * 1_000_000, "ydke": "ydke://!!!"}, {"id": "y" * 200, "ydke": "ydke://!!!"}]
    body = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    response = client.post("/v1/rechecks?date=2008-06-01", content=body)
    first, second, closing = (orjson.loads(line) for line in response.content.splitlines())
    assert first["line"] == 1
    assert first["id"] is None
    assert {e["type"] for e in first["error"]["errors"]} == {"string_too_long", "int_type"}
    assert second["id"] == "y" * 200
    assert closing["summary"]["lines"] == 2
    assert len(response.content) < 10_000


def test_a_recheck_id_is_a_64_bit_number_at_most(client: httpx.Client) -> None:
    body = b'{"id": 123456789012345678901234567890, "ydke": "ydke://!!!"}\n{"id": -9223372036854775808, "ydke": "ydke://!!!"}\n'
    response = client.post("/v1/rechecks?date=2008-06-01", content=body)
    first, second, closing = (orjson.loads(line) for line in response.content.splitlines())
    assert first["id"] is None
    assert {e["type"] for e in first["error"]["errors"]} == {"string_type", "less_than_equal"}
    assert second["id"] == -(2**63)
    assert "error" not in second
    assert closing["summary"]["lines"] == 2


def test_a_recheck_summary_keeps_a_count_and_the_first_ids() -> None:
    whole, parts = Summary(), [Summary(), Summary()]
    for number in range(1, 1_501):
        outcome = Outcome("illegal", f"deck-{number}", ("forbidden_card",), True, (55144522,))
        whole.add(outcome)
        parts[number > 700].add(outcome)
    merged = Summary()
    for part in parts:
        merged.merge(part)
    for summary in (whole, merged):
        assert summary.newly == 1_500
        assert summary.newly_illegal == [f"deck-{n}" for n in range(1, KEPT_NEWLY_ILLEGAL_IDS + 1)]
        assert summary.causes == {55144522: 1_500}


def test_a_byte_order_mark_before_the_first_recheck_line_is_not_part_of_it(client: httpx.Client) -> None:
    body = "\ufeff".encode() + b'{"id": "a", "ydke": "ydke://!!!"}\n{"id": "b", "ydke": "ydke://!!!"}\n'
    response = client.post("/v1/rechecks?date=2008-06-01", content=body)
    results = [orjson.loads(line) for line in response.content.splitlines()]
    assert [r.get("id") for r in results[:2]] == ["a", "b"]
    assert all("error" not in r for r in results[:2])
    assert results[2]["summary"]["errors"] == 0
