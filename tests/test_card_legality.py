"""GET /v1/cards/{passcode}/legality (issue 38, part 4): a card's status in each format through time, as periods from
its first printing there, agrees with every list for every card of the golden cases; its status on a date is the
list's in force then; the answer is cached like the card's own; and both clients read it."""

from __future__ import annotations

import datetime as dt
import itertools
import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from deckcheck import Data
from deckcheck.client import AsyncClient, Client
from deckcheck.data import STATUS_NAMES
from tests.cases import CASES
from tests.test_validate_link import today_in_japan

GOLDEN = Path(__file__).resolve().parent / "golden"
POT_OF_GREED = 55144522


def _passcodes(value: Any, found: set[int]) -> set[int]:
    """Every passcode a request or an answer names."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "passcode" and isinstance(item, int):
                found.add(item)
            else:
                _passcodes(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _passcodes(item, found)
    return found


def _golden_cards(data: Data) -> list[int]:
    named = _passcodes(list(CASES.values()), set())
    for path in GOLDEN.glob("*.json"):
        _passcodes(json.loads(path.read_text(encoding="utf-8")), named)
    return sorted(p for p in named if p in data.cards.by_passcode)


def _first_printed(card: dict[str, Any], fmt: str) -> str | None:
    """The first day a card was printed in a format, from GET /v1/cards/{passcode}'s printings: a day not known
    exactly is one the card came after."""
    first, exact = (
        (card["first_japanese_printing"], card["first_japanese_printing_exact"])
        if fmt == "ocg"
        else (card["first_tcg_printing"] if card["tcg"] else None, card["first_tcg_printing_exact"])
    )
    if first is None:
        return None
    return first if exact else (dt.date.fromisoformat(first) + dt.timedelta(days=1)).isoformat()


def _period_on(periods: list[dict[str, Any]], day: str) -> dict[str, Any]:
    (period,) = [p for p in periods if p["from"] <= day and (p["until"] is None or day < p["until"])]
    return period


def test_pot_of_greed_through_time(client: httpx.Client) -> None:
    answer = client.get(f"/v1/cards/{POT_OF_GREED}/legality", params={"date": "2026-12-01"}).json()
    ocg, tcg = answer["formats"]
    spans = [(p["status"], p["from"], p["until"], p["banlists"][:1], len(p["banlists"])) for p in ocg["periods"]]
    assert spans == [
        (None, "1999-05-27", "1999-07-08", [], 0),  # printed before the first OCG list held
        ("unlimited", "1999-07-08", "2000-04-01", ["ocg-1999-07-08"], 1),
        ("limited", "2000-04-01", "2006-03-01", ["ocg-2000-04-01"], 17),
        ("forbidden", "2006-03-01", None, ["ocg-2006-03-01"], len(ocg["periods"][-1]["banlists"])),
    ]
    assert ocg["periods"][-1]["banlists"][-1] == "ocg-2026-10-01"
    assert ocg["on_date"] == {"status": "forbidden", "limit": 0, "banlist": "ocg-2026-10-01", "printed": True}
    assert [(p["status"], p["from"], p["until"]) for p in tcg["periods"]] == [
        (None, "2002-03-08", "2013-09-01"),  # the TCG lists held begin in 2013 (data/README.md)
        ("forbidden", "2013-09-01", None),
    ]
    assert (answer["name_en"], answer["date"], tcg["first_printed"]) == ("Pot of Greed", "2026-12-01", "2002-03-08")


def test_every_golden_card_agrees_with_every_list(client: httpx.Client, data: Data) -> None:
    cards = _golden_cards(data)
    assert len(cards) >= 40
    for passcode in cards:
        card = client.get(f"/v1/cards/{passcode}").json()
        legality = client.get(f"/v1/cards/{passcode}/legality").json()
        assert legality["passcode"] == card["passcode"]
        for fmt, held in zip(("ocg", "tcg"), legality["formats"], strict=True):
            periods, first = held["periods"], _first_printed(card, fmt)
            assert (held["format"], held["first_printed"]) == (fmt, first), passcode
            if first is None:
                assert periods == [], passcode
                continue
            assert periods[0]["from"] == first
            assert periods[-1]["until"] is None
            assert all(a["until"] == b["from"] and a["status"] != b["status"] for a, b in itertools.pairwise(periods))
            for status in card["banlists"]:
                begins, ends = status["effective_from"], status["effective_until"]
                if not status["banlist"].startswith(fmt) or (ends is not None and ends <= first):
                    continue
                period = _period_on(periods, max(begins, first))
                assert (period["status"], period["limit"]) == (status["status"], status["limit"]), (passcode, status)
                assert status["banlist"] in period["banlists"]


@pytest.mark.parametrize("day", ["2008-06-01", "2013-09-01", "2026-05-18", "2026-12-01"])
def test_the_status_on_a_date_is_the_lists_in_force(client: httpx.Client, data: Data, day: str) -> None:
    for passcode in (POT_OF_GREED, 70828912, 14558127):  # Pot of Greed, Premature Burial, Ash Blossom
        formats = client.get(f"/v1/cards/{passcode}/legality", params={"date": day}).json()["formats"]
        for held in formats:
            banlist = data.banlists.in_force(dt.date.fromisoformat(day), held["format"])
            limit = None if banlist is None else banlist.name_limit(data.cards.name_id(passcode))
            status = None if limit is None else STATUS_NAMES[limit]
            on = held["on_date"]
            assert (on["banlist"], on["status"], on["limit"]) == (banlist and banlist.id, status, limit)
            assert on["printed"] == (held["first_printed"] is not None and held["first_printed"] <= day)
            if on["printed"]:
                assert _period_on(held["periods"], day)["status"] == status


def test_the_answer_is_cached_like_the_cards(client: httpx.Client) -> None:
    dated = client.get(f"/v1/cards/{POT_OF_GREED}/legality", params={"date": "2026-12-01"})
    version = dated.headers["deckcheck-data-version"]
    # The day, the language of the notes, and the cadence of new lists that decides them (api/middleware/caching.py).
    assert (dated.headers["etag"], dated.headers["cache-control"]) == (
        f'"{version}-2026-12-01-en-ocg1.4.7.10tcg180"',
        "public, max-age=3600",
    )
    again = client.get(
        f"/v1/cards/{POT_OF_GREED}/legality",
        params={"date": "2026-12-01"},
        headers={"If-None-Match": dated.headers["etag"]},
    )
    assert (again.status_code, again.content) == (304, b"")
    day, left = today_in_japan()
    today = client.get(f"/v1/cards/{POT_OF_GREED}/legality")
    assert today.json()["date"] == day.isoformat()
    assert today.headers["etag"] == f'"{version}-{day.isoformat()}-en-ocg1.4.7.10tcg180"'
    assert 0 < int(today.headers["cache-control"].removeprefix("public, max-age=")) <= min(3600, left + 1)


def test_a_passcode_of_no_card_and_a_day_of_no_calendar_are_refused(client: httpx.Client) -> None:
    missing = client.get("/v1/cards/1/legality")
    assert (missing.status_code, missing.json()["errors"][0]["type"]) == (404, "unknown_card")
    assert client.get(f"/v1/cards/{POT_OF_GREED}/legality", params={"date": "2026-02-30"}).status_code == 422
    assert client.get(f"/v1/cards/{POT_OF_GREED}/legality", params={"day": "2026-02-01"}).status_code == 422


def test_both_clients_read_it(base_url: str) -> None:
    with Client(base_url) as client:
        read = client.card_legality(POT_OF_GREED, date=dt.date(2026, 12, 1))
    assert read.date == dt.date(2026, 12, 1)
    assert [(held.format, held.on_date.status) for held in read.formats] == [("ocg", "forbidden"), ("tcg", "forbidden")]
    assert read.formats[0].periods[2].from_ == dt.date(2000, 4, 1)

    async def asked() -> Any:
        async with AsyncClient(base_url) as client:
            return await client.card_legality(POT_OF_GREED, date=dt.date(2026, 12, 1))

    assert anyio.run(asked) == read
