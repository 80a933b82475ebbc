"""The HTTP edge as a client meets it (issue 47, points 4 and 6): a deck in the query passes the admission a deck in
the body does, and /readyz counts it; If-None-Match: * never turns an error into 304; an ETag covers the cadence of
new lists the answer's notes depend on; a trailing-slash redirect names a path, never the Host a client sent; and a
card's legality says what /v1/validate says of a list that may be outdated and of a card printed after the data."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from deckcheck.api.validate import INLINE_CHARS
from tests.decks import EVENT, EXTRA, MAIN_40, SIDE, ydke
from tests.served import Served, serving
from tests.test_proxy import running_proxy

LEGAL = ydke(MAIN_40, EXTRA, SIDE)
# One check thread and no room to wait, refusals sent at once: one request in progress fills the server.
ONE_AT_A_TIME = {
    "DECKCHECK_CHECK_THREADS": "1",
    "DECKCHECK_MAX_WAITING": "0",
    "DECKCHECK_REFUSAL_PAUSE": "0",
    "DECKCHECK_RETRY_AFTER": "3",
    "DECKCHECK_BODY_TIMEOUT": "30",
}
OVERLOADED = {
    "type": "urn:deckcheck:problem:overloaded",
    "title": "Service Unavailable",
    "status": 503,
    "detail": "Every check thread is busy and the queue is full; try again in 3 s.",
    "errors": [],
}


@pytest.fixture(scope="module")
def one_at_a_time(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server of its own that admits one check at a time."""
    with serving(tmp_path_factory.mktemp("one") / "stderr.log", ONE_AT_A_TIME) as server:
        yield server


def _link(client: httpx.Client, day: str = EVENT, **headers: str) -> httpx.Response:
    return client.get("/v1/validate", params={"ydke": LEGAL, "date": day, "lang": "en"}, headers=headers)


@pytest.mark.server
def test_a_deck_in_the_query_is_admitted_as_one_in_the_body(one_at_a_time: Served) -> None:
    """A POST whose head has come and whose body has not holds the one place (the gate admits by the head): a GET
    of a deck is refused as a POST would be, and /readyz says the server is saturated, until the POST is done."""
    body = b'{"ydke": "%s", "date": "%s"}' % (LEGAL.encode(), EVENT.encode())
    head = b"POST /v1/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    head += b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
    with httpx.Client(base_url=one_at_a_time.url, timeout=30) as http:
        with socket.create_connection(("127.0.0.1", one_at_a_time.port), timeout=30) as held:
            held.sendall(head + body[:10])
            for _ in range(1000):  # until the head is in, and the gate has counted it
                if http.get("/readyz").status_code == 503:
                    break
            refused, headless = _link(http), http.head("/v1/validate", params={"ydke": LEGAL, "date": EVENT})
            ready, alive = http.get("/readyz"), http.get("/healthz")
            held.sendall(body[10:])
            answered = b""
            while chunk := held.recv(65536):
                answered += chunk
        after, ready_after = _link(http), http.get("/readyz")
    assert (refused.status_code, refused.headers["retry-after"]) == (503, "3")
    assert refused.headers["content-type"] == "application/problem+json"
    assert {k: v for k, v in refused.json().items() if k != "request_id"} == OVERLOADED
    assert (headless.status_code, headless.headers["retry-after"], headless.content) == (503, "3", b"")
    assert (ready.status_code, ready.json()["reasons"], ready.json()["checks"]) == (503, ["saturated"], 1)
    assert alive.status_code == 200
    assert answered.startswith(b"HTTP/1.1 200 OK\r\n")
    assert (after.status_code, after.json()["legal"]) == (200, True)
    assert (ready_after.status_code, ready_after.json()["reasons"]) == (200, [])


@pytest.mark.server
def test_readyz_counts_the_decks_in_the_query_being_checked(one_at_a_time: Served) -> None:
    """Eight clients asking GET /v1/validate at once fill the one place: some are refused, and /readyz, asked
    meanwhile, answers 503 saturated while one of theirs is in. The deck is one of 400 cards, whose link is too long
    to be checked on the event loop (api/validate.py, INLINE_CHARS): it waits for the check thread, as a long deck in
    the body does."""
    days = [f"2008-{month:02d}-{day:02d}" for month in range(4, 13) for day in range(1, 29)]
    long_link = ydke(MAIN_40 * 10)
    assert len(long_link) > INLINE_CHARS

    def ask(first: int) -> list[int]:
        with httpx.Client(base_url=one_at_a_time.url, timeout=30) as http:
            params = {"lang": "en", "ydke": long_link}
            return [http.get("/v1/validate", params=params | {"date": day}).status_code for day in days[first::8]]

    with ThreadPoolExecutor(max_workers=8) as pool, httpx.Client(base_url=one_at_a_time.url, timeout=30) as http:
        flood = [pool.submit(ask, first) for first in range(8)]
        readiness: list[tuple[int, list[str]]] = []
        while not all(asked.done() for asked in flood) and (503, ["saturated"]) not in readiness:
            answer = http.get("/readyz")
            readiness.append((answer.status_code, answer.json()["reasons"]))
        statuses = [status for asked in flood for status in asked.result()]
    assert (503, ["saturated"]) in readiness, "/readyz never saw a GET of a deck in progress"
    assert set(statuses) == {200, 503}


def test_if_none_match_any_is_304_only_where_the_answer_is_a_representation(client: httpx.Client) -> None:
    """RFC 9110 13.1.2: `*` matches when a current representation exists; a 422 or a 404 is none."""
    broken = {"ydke": "ydke://!!!!", "date": EVENT, "lang": "en"}
    error = client.get("/v1/validate", params=broken)
    starred = client.get("/v1/validate", params=broken, headers={"If-None-Match": "*"})
    assert starred.status_code == 422
    assert starred.json()["errors"] == error.json()["errors"]
    answer = _link(client)
    unchanged = _link(client, **{"If-None-Match": "*"})
    assert (unchanged.status_code, unchanged.content, unchanged.headers["etag"]) == (304, b"", answer.headers["etag"])
    assert client.get("/v1/cards/1", headers={"If-None-Match": "*"}).status_code == 404
    assert client.get("/v1/cards/55144522", headers={"If-None-Match": "*"}).status_code == 304


@pytest.mark.server
def test_the_etag_of_an_answer_about_a_day_covers_the_cadence_of_new_lists(tmp_path: Path) -> None:
    """With new OCG lists every month, a newer list than the newest held (2026-10-01) may be in force on 2026-12-01,
    and a check and a card's legality say so; by the usual cadence (January, April, July, October) it may not. The
    answers differ, and so do their ETags; the usual cadence written otherwise is the same, with the same ETags."""
    cadences = {"usual": "1,4,7,10", "monthly": ",".join(str(month) for month in range(1, 13)), "same": "10,7,4,1"}
    answers = {}
    with ExitStack() as servers:
        for name, months in cadences.items():
            updates = tmp_path / name
            updates.mkdir()
            env = {"DECKCHECK_UPDATES_DIR": str(updates), "DECKCHECK_OCG_LIST_MONTHS": months}
            server = servers.enter_context(serving(tmp_path / f"{name}.log", env))
            with httpx.Client(base_url=server.url, timeout=30) as http:
                legality = http.get("/v1/cards/55144522/legality", params={"date": "2026-12-01"})
                answers[name] = (_link(http, "2026-12-01"), legality)
    notes = {
        name: (
            [note["code"] for note in checked.json()["ruleset"]["notes"]],
            [note["code"] for note in legality.json()["formats"][0]["notes"]],
        )
        for name, (checked, legality) in answers.items()
    }
    assert notes == {
        "usual": (["later_card_types"], []),
        "monthly": (["later_card_types", "list_may_be_outdated"], ["list_may_be_outdated"]),
        "same": (["later_card_types"], []),
    }
    for route in (0, 1):
        usual, monthly, same = (answers[name][route] for name in cadences)
        assert usual.headers["etag"] != monthly.headers["etag"]
        assert (usual.headers["etag"], usual.content) == (same.headers["etag"], same.content)


@pytest.mark.parametrize(
    ("method", "target", "location"),
    [
        ("GET", "/v1/cards/55144522/legality/?date=2008-06-01", "/v1/cards/55144522/legality?date=2008-06-01"),
        ("GET", "/docs/", "/docs"),
        ("HEAD", "/v1/rules/", "/v1/rules"),
        ("POST", "/v1/validate/", "/v1/validate"),
    ],
)
def test_a_trailing_slash_redirect_names_a_path_never_the_host_sent(
    client: httpx.Client, method: str, target: str, location: str
) -> None:
    redirect = client.request(method, target, headers={"Host": "evil.example"})
    assert (redirect.status_code, redirect.headers["location"], redirect.content) == (307, location, b"")
    assert client.request(method, location, json={"ydke": LEGAL, "date": EVENT}).status_code == 200


@pytest.mark.parametrize("target", ["/nowhere/", "//evil.example/v1/rules/", "//evil.example/"])
def test_a_path_of_no_route_with_or_without_its_slash_is_not_found(base_url: str, target: str) -> None:
    """Sent as written (httpx would read `//evil.example` as a host): a path that begins with two slashes is no
    route's, with or without its trailing slash."""
    port = int(base_url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 404 Not Found\r\n")
    assert b"\r\nlocation:" not in head.lower()
    assert json.loads(body)["type"] == "urn:deckcheck:problem:not-found"


@pytest.mark.server
def test_nginx_gives_each_client_of_a_kept_answer_its_own_request_id(base_url: str, free_port: int) -> None:
    """The answer nginx keeps was made for its first asker, X-Request-ID and all: a later client gets its own id (or
    nginx's, when it sent none), the one the access log names."""
    params = {"ydke": LEGAL, "date": "2008-07-01", "lang": "en"}
    with running_proxy(int(base_url.rsplit(":", 1)[1]), free_port) as proxy:
        with httpx.Client(base_url=proxy.url, timeout=30) as http:
            asked = [
                http.get("/v1/validate", params=params, headers=headers)
                for headers in ({"X-Request-ID": "edge-first"}, {"X-Request-ID": "edge-second"}, {})
            ]
        made = asked[2].headers["x-request-id"]
        logged = [proxy.log(request_id)["status"] for request_id in ("edge-first", "edge-second", made)]
    assert [a.headers["x-cache-status"] for a in asked] == ["MISS", "HIT", "HIT"]
    assert [a.headers.get_list("x-request-id") for a in asked[:2]] == [["edge-first"], ["edge-second"]]
    assert asked[2].headers.get_list("x-request-id") == [made]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert logged == [200, 200, 200]
    assert asked[0].content == asked[1].content == asked[2].content


def _outdated(notes: list[dict[str, str]]) -> list[dict[str, str]]:
    return [note for note in notes if note["code"] == "list_may_be_outdated"]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("day", "noted"),
    [
        ("2026-06-01", {"ocg": False, "tcg": False}),
        ("2026-12-01", {"ocg": False, "tcg": True}),
        ("2027-02-01", {"ocg": True, "tcg": True}),
    ],
)
def test_a_cards_legality_notes_a_list_that_may_be_outdated_as_validate_does(
    client: httpx.Client, lang: str, day: str, noted: dict[str, bool]
) -> None:
    """The newest lists held begin on 2026-10-01 (OCG) and 2026-05-18 (TCG): by the usual cadence a newer OCG list
    may be in force from 2027-01-01, a newer TCG list from 2026-11-14. Each format of the legality says what a check
    of a deck of that format on that day says, word for word."""
    language = {"Accept-Language": lang}
    legality = client.get("/v1/cards/55144522/legality", params={"date": day}, headers=language)
    assert (legality.status_code, legality.headers["content-language"]) == (200, lang)
    assert "Accept-Language" in legality.headers["vary"]
    for held in legality.json()["formats"]:
        event = {"main": MAIN_40, "date": day, "format": held["format"]}
        checked = client.post("/v1/validate", json=event, headers=language).json()
        assert held["notes"] == _outdated(checked["ruleset"]["notes"])
    assert {held["format"]: bool(held["notes"]) for held in legality.json()["formats"]} == noted


@pytest.mark.parametrize("route", ["/v1/cards/1", "/v1/cards/1/legality?date=2026-12-01"])
def test_a_passcode_of_no_card_after_the_card_data_end_may_be_a_newer_card(client: httpx.Client, route: str) -> None:
    """As the unknown_card of a check on a day after the card data end says: a card printed since may be missing."""
    checked = client.post("/v1/validate", json={"main": [{"passcode": 1}], "date": "2026-12-01"}).json()
    (unknown,) = [v for v in checked["violations"] if v["code"] == "unknown_card"]
    newer = unknown["message"].removeprefix("Passcode 00000001 does not name an official card.")
    assert newer == " (The card data cover printings until 2025-11-15: a card printed since may be missing.)"
    missing = client.get(route)
    said = "1 is not the passcode of an official card." + newer
    assert (missing.status_code, missing.json()["detail"]) == (404, said)
    assert missing.json()["errors"] == [{"loc": ["path", "passcode"], "msg": said, "type": "unknown_card"}]


def test_a_passcode_of_no_card_within_the_card_data_is_not_a_newer_card(client: httpx.Client) -> None:
    missing = client.get("/v1/cards/1/legality", params={"date": "2025-11-15"})  # the card data's last day
    assert (missing.status_code, missing.json()["detail"]) == (404, "1 is not the passcode of an official card.")
