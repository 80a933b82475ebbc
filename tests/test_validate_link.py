"""GET /v1/validate (issue 38, part 3): a deck as a ydke:// link in the query gets the POST's answer, with an ETag
of the data version, the language and the request, and a freshness a cache keeps; a revalidation costs no check; a
target over the limit is a 414 naming it; and nginx, as deployed, answers the second asker of a deck from its cache
and asks the service again once the data changed."""

from __future__ import annotations

import datetime as dt
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import orjson
import pytest

from deckcheck.client import AsyncClient, Client
from tests import served
from tests.decks import EVENT, EXTRA, MAIN_40, SIDE, main_with, ydke
from tests.test_proxy import running_proxy

DRAGON_TREASURE = 1435851
POT_OF_GREED = 55144522  # Forbidden on the OCG list of 2008-03-01
PREMATURE_BURIAL = 70828912  # Limited on OCG 2026.10; the list the nginx test adds forbids it
JAPAN = dt.timezone(dt.timedelta(hours=9))
MAX_TARGET = 8192


LEGAL = ydke(MAIN_40, EXTRA, SIDE)
ILLEGAL = ydke(main_with({"passcode": POT_OF_GREED}, drop=1), EXTRA, SIDE)


def _get(client: httpx.Client, headers: dict[str, str] | None = None, /, **params: str) -> httpx.Response:
    return client.get("/v1/validate", params=params, headers=headers)


def test_the_answer_is_the_posts(client: httpx.Client) -> None:
    for link, legal in ((LEGAL, True), (ILLEGAL, False)):
        for lang in ("en", "ja"):
            got = _get(client, ydke=link, date=EVENT, lang=lang)
            posted = client.post("/v1/validate", json={"ydke": link, "date": EVENT}, headers={"Accept-Language": lang})
            assert (got.status_code, posted.status_code) == (200, 200), got.text
            assert got.json() == posted.json()
            assert (got.json()["legal"], got.headers["content-language"]) == (legal, lang)
    codes = [v["code"] for v in _get(client, ydke=ILLEGAL, date=EVENT).json()["violations"]]
    assert codes == ["forbidden_card"]


def test_a_repeated_deck_is_revalidated_without_a_body(client: httpx.Client) -> None:
    first = _get(client, ydke=LEGAL, date=EVENT, lang="en")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "public, max-age=3600"
    assert "accept-language" not in first.headers.get("vary", "").lower()  # the query names the language
    again = _get(client, {"If-None-Match": etag}, ydke=LEGAL, date=EVENT, lang="en")
    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", etag)
    assert again.headers["cache-control"] == "public, max-age=3600"
    other = _get(client, {"If-None-Match": '"an-etag-never-given"'}, ydke=LEGAL, date=EVENT, lang="en")
    assert (other.status_code, other.content) == (200, first.content)


def test_the_etag_names_the_data_the_language_and_the_request(client: httpx.Client) -> None:
    base = {"ydke": LEGAL, "date": EVENT, "lang": "en"}
    changes: dict[str, dict[str, str]] = {
        "none": {},
        "deck": {"ydke": ILLEGAL},
        "date": {"date": "2008-09-01"},
        "format": {"format": "tcg"},
        "list": {"banlist": "ocg-2008-03-01"},
        "language": {"lang": "ja"},
    }
    answers = {name: _get(client, **(base | change)) for name, change in changes.items()}
    tags = {name: answer.headers["etag"] for name, answer in answers.items()}
    version = answers["none"].headers["deckcheck-data-version"]
    assert len(set(tags.values())) == len(tags), tags
    assert all(tag.startswith(f'"{version}-') for tag in tags.values()), tags
    assert _get(client, **base).headers["etag"] == tags["none"]


def test_without_lang_the_answer_follows_accept_language_and_says_so(client: httpx.Client) -> None:
    ja = _get(client, {"Accept-Language": "ja, en;q=0.5"}, ydke=ILLEGAL, date=EVENT)
    en = _get(client, ydke=ILLEGAL, date=EVENT)
    assert (ja.headers["content-language"], en.headers["content-language"]) == ("ja", "en")
    assert ("Accept-Language" in ja.headers["vary"], "Accept-Language" in en.headers["vary"]) == (True, True)
    assert ja.headers["etag"] != en.headers["etag"]
    assert ja.json() == _get(client, ydke=ILLEGAL, date=EVENT, lang="ja").json()
    assert ja.headers["etag"] == _get(client, ydke=ILLEGAL, date=EVENT, lang="ja").headers["etag"]


def today_in_japan() -> tuple[dt.date, float]:
    """Today in Japan (UTC+9) and the seconds left of it; the test skips in its last minute, when today is about to
    change between the requests it compares."""
    now = dt.datetime.now(JAPAN)
    left = (dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), JAPAN) - now).total_seconds()
    if left < 60:
        pytest.skip("the day ends in Japan within the minute: today is about to change")
    return now.date(), left


def test_a_deck_of_today_is_fresh_until_the_day_ends_in_japan(client: httpx.Client) -> None:
    today, left = today_in_japan()
    undated = _get(client, ydke=LEGAL, lang="en")
    dated = _get(client, ydke=LEGAL, date=today.isoformat(), lang="en")
    assert (undated.headers["etag"], undated.json()) == (dated.headers["etag"], dated.json())
    max_age = int(undated.headers["cache-control"].removeprefix("public, max-age="))
    assert 0 < max_age <= min(3600, left + 1)
    assert dated.headers["cache-control"] == "public, max-age=3600"


def test_a_plus_left_unencoded_reads_as_the_plus_it_was(client: httpx.Client) -> None:
    link = ydke([{"passcode": DRAGON_TREASURE}])  # its passcode's bytes in base64: y+gVAA==
    assert "+" in link
    encoded = _get(client, ydke=link, date=EVENT, lang="en")
    raw = client.get(f"/v1/validate?ydke={link}&date={EVENT}&lang=en")
    assert raw.status_code == encoded.status_code == 200
    assert (raw.json(), raw.headers["etag"]) == (encoded.json(), encoded.headers["etag"])


def test_a_target_over_the_limit_is_refused_with_414_naming_it(client: httpx.Client) -> None:
    head = f"/v1/validate?date={EVENT}&lang=en&ydke="
    within = "ydke://" + "A" * (MAX_TARGET - len(head) - len("ydke://") - 2) + "!!"
    over = within[:-2] + "A!!"
    assert len(head + within) == MAX_TARGET
    assert client.get(head + within).status_code != 414
    refused = client.get(head + over)
    assert refused.status_code == 414
    assert refused.headers["content-type"] == "application/problem+json"
    problem = refused.json()
    assert problem["type"] == "urn:deckcheck:problem:request-uri-too-long"
    assert problem["detail"] == (
        f"The request target is longer than {MAX_TARGET} bytes; send the deck in the body of POST /v1/validate."
    )
    assert [error["type"] for error in problem["errors"]] == ["target_too_long"]


@pytest.mark.parametrize(
    "params",
    [
        {"date": EVENT},
        {"ydke": LEGAL, "date": "2008-02-30"},
        {"ydke": LEGAL, "dat": EVENT},
        {"ydke": LEGAL, "banlist": "the newest"},
        {"ydke": LEGAL, "lang": "fr"},
        {"ydke": LEGAL, "format": "goat"},
    ],
)
def test_a_query_that_does_not_fit_is_a_422(client: httpx.Client, params: dict[str, str]) -> None:
    got = _get(client, **params)
    assert got.status_code == 422, got.text
    assert got.json()["type"] == "urn:deckcheck:problem:invalid-request"


def test_a_link_that_does_not_read_is_the_posts_422(client: httpx.Client) -> None:
    got = _get(client, ydke="ydke://!!!!", date=EVENT)
    posted = client.post("/v1/validate", json={"ydke": "ydke://!!!!", "date": EVENT})
    assert (got.status_code, posted.status_code) == (422, 422)
    assert got.json()["errors"] == posted.json()["errors"]


def _version(url: str) -> str:
    return httpx.get(f"{url}/v1/rules", timeout=30).headers["deckcheck-data-version"]


@pytest.mark.server
def test_nginx_answers_a_repeated_deck_from_its_cache_and_asks_again_after_a_reload(
    tmp_path: Path, free_port: int
) -> None:
    updates = tmp_path / "updates"
    updates.mkdir()
    env = {"DECKCHECK_UPDATES_DIR": str(updates), "DECKCHECK_CACHE_MAX_AGE": "1", "DECKCHECK_UPDATES_POLL": "0"}
    params = {"ydke": ydke(main_with({"passcode": PREMATURE_BURIAL}, drop=1), EXTRA, SIDE), "date": "2026-12-01"}
    with served.serving(tmp_path / "log", env) as server, running_proxy(server.port, free_port) as proxy:
        url = f"{proxy.url}/v1/validate"

        def ask() -> tuple[str, str, bool, str]:
            answer = httpx.get(url, params=params, timeout=30)
            assert answer.status_code == 200, answer.text
            body = answer.json()
            return answer.headers["x-cache-status"], answer.headers["etag"], body["legal"], body["banlist"]["id"]

        direct = httpx.get(f"{server.url}/v1/validate", params=params, timeout=30)  # the service's own freshness
        assert direct.headers["cache-control"] == "public, max-age=1"
        first, second = ask(), ask()
        assert [first[0], second[0]] == ["MISS", "HIT"]
        assert second[1:] == first[1:] == (first[1], True, "ocg-2026-10-01")
        # Past max-age (nginx counts whole seconds): it asks the service with the ETag it holds, and gets 304.
        time.sleep(2.1)
        assert ask() == ("REVALIDATED", *first[1:])
        # The operator adds a list forbidding Premature Burial from 2026-11-15, and the service reloads.
        before = _version(server.url)
        given = tmp_path / "emergency.json"
        given.write_text(orjson.dumps({"forbidden": [PREMATURE_BURIAL]}).decode(), encoding="utf-8")
        # --wait 0: this service does not look at the folder (DECKCHECK_UPDATES_POLL=0); the SIGHUP below reloads it.
        argv = ["data", "add-list", "--dir", str(updates), "--format", "ocg", "--from", "2026-11-15", "--wait", "0"]
        argv.append(str(given))
        done = subprocess.run(
            [sys.executable, "-m", "deckcheck", *argv], check=False, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        server.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 60
        while _version(server.url) == before:
            assert time.monotonic() < deadline, server.log_lines()[-5:]
            time.sleep(0.1)
        time.sleep(2.1)
        status, etag, legal, banlist = ask()
        assert (status, legal, banlist) == ("EXPIRED", False, "ocg-2026-11-15")
        assert etag != first[1]
        assert ask() == ("HIT", etag, False, "ocg-2026-11-15")
        posted = httpx.post(url, json=params, timeout=30)
        assert (posted.json()["legal"], posted.headers.get("x-cache-status")) == (False, None)  # never kept


def test_both_clients_check_a_link_by_get(base_url: str) -> None:
    with Client(base_url) as client:
        got = client.validate_link(ILLEGAL, date=dt.date(2008, 6, 1), lang="ja")
        posted = client.validate({"ydke": ILLEGAL, "date": EVENT}, lang="ja")
    assert got == posted
    assert [v.code for v in got.violations] == ["forbidden_card"]

    async def asked() -> Any:
        async with AsyncClient(base_url) as client:
            return await client.validate_link(ILLEGAL, date=dt.date(2008, 6, 1), lang="ja")

    assert anyio.run(asked) == got
