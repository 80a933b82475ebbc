"""An event over real HTTP, on a SQLite file and on a real PostgreSQL server: the organiser's command makes it, desks
register players, a judge checks a deck against the registered one (PR 3.B), the organiser changes the list, exports
and deletes; every route refuses a token of the wrong role, of another event, or none; names and tokens stay out of
the logs and out of caches; the database down answers 503 while /v1/validate goes on."""

from __future__ import annotations

import csv
import io
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from deckcheck.api import create_app
from deckcheck.cli import run
from deckcheck.config import Settings
from tests.postgres import PostgresServer
from tests.served import serving, serving_app

pytestmark = pytest.mark.server

# A 4-card main deck with Pot of Greed and Stardust Dragon: illegal on 2008-06-01 (too small, Pot of Greed
# forbidden); the same deck without its Extra Deck; and a legal 40-card deck.
SMALL = {"ydke": "ydke://rvTMAq70zAKu9MwCSnBJAw==!viOnAg==!!"}
SMALL_NO_EXTRA = {"ydke": "ydke://rvTMAq70zAKu9MwCSnBJAw==!!!"}
# 40 cards with three Reasoning: legal under OCG 2008.03, which the day picks; Reasoning is limited from 2008.09.
_FORTY = (46986414, 73752131, 69140098, 14898066, 97017120, 83011277, 80304126, 9156135, 65240384, 98045062, 56120475)
REASONING = {
    "main": [
        *({"passcode": p, "count": 3} for p in (*_FORTY, 29401950)),
        {"passcode": 58577036, "count": 3},
        {"passcode": 83764718},
    ]
}
DAY = "2008-06-01"


@dataclass(frozen=True, slots=True)
class Held:
    """A served event: the service's URL, the event's id, a token per role, and the events database's URL."""

    url: str
    event: str
    tokens: dict[str, str]
    database: str

    def auth(self, role: str) -> dict[str, str]:
        """The header of a token of `role`."""
        return {"Authorization": f"Bearer {self.tokens[role]}"}


def create_event(database: str, monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, Any]:
    """`deckcheck event create … --json` on `database`, as an organiser runs it; its JSON."""
    monkeypatch.setenv("DECKCHECK_EVENTS_DB", database)
    out, err = io.StringIO(), io.StringIO()
    code = run(
        ["event", "create", "--name", "Summer regional", "--date", DAY, "--format", "ocg", *args, "--json"], out, err
    )
    assert (code, err.getvalue()) == (0, "")
    made: dict[str, Any] = orjson.loads(out.getvalue())
    return made


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The events database of a test: a SQLite file, or an empty database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'events.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def held(database: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    """An event made by the command line, and the service serving its database."""
    made = create_event(database, monkeypatch)
    settings = Settings(events_db=database)
    with serving_app(create_app(settings), settings) as url:
        yield Held(url, made["event"], made["tokens"], database)


def _put(held: Held, player: str, body: dict[str, Any], role: str = "desk", **headers: str) -> httpx.Response:
    return httpx.put(
        f"{held.url}/v1/events/{held.event}/players/{player}", json=body, headers={**held.auth(role), **headers}
    )


def _validate(held: Held, body: dict[str, Any]) -> Any:
    answer = httpx.post(f"{held.url}/v1/validate", json={**body, "date": DAY, "format": "ocg"})
    assert answer.status_code == 200
    return answer.json()


def test_a_registration_holds_the_verdict_of_validate_and_keeps_every_version(held: Held) -> None:
    first = _put(held, "0042", {"name": "山田 太郎", "card_game_id": "0000123456", "deck": SMALL, "source": "qr"})
    assert (first.status_code, first.headers["ETag"], first.headers["Cache-Control"]) == (201, '"v1"', "no-store")
    body = first.json()
    assert body["verdict"] == _validate(held, SMALL)
    assert {k: v for k, v in body.items() if k not in ("verdict", "registered_at")} == {
        "event": held.event,
        "player": "0042",
        "version": 1,
        "name": "山田 太郎",
        "card_game_id": "0000123456",
        "deck": SMALL,
        "source": "qr",
        "status": "illegal",
        "registered_by": "desk-1",
    }
    again = _put(held, "0042", {"name": "山田 太郎", "deck": SMALL_NO_EXTRA}, **{"If-Match": '"v1"'})
    assert (again.status_code, again.headers["ETag"], again.json()["version"]) == (200, '"v2"', 2)
    current = httpx.get(f"{held.url}/v1/events/{held.event}/players/0042", headers=held.auth("judge"))
    assert (current.status_code, current.json()["deck"], current.json()["version"]) == (200, SMALL_NO_EXTRA, 2)
    earlier = httpx.get(f"{held.url}/v1/events/{held.event}/players/0042?version=1", headers=held.auth("judge"))
    assert (earlier.json()["deck"], earlier.json()["card_game_id"]) == (SMALL, "0000123456")
    assert current.json()["verdict"] == _validate(held, SMALL_NO_EXTRA)


def test_a_registration_made_against_an_old_version_gets_412_with_the_current_one(held: Held) -> None:
    assert _put(held, "7", {"name": "A", "deck": SMALL}).status_code == 201
    assert _put(held, "7", {"name": "A", "deck": SMALL_NO_EXTRA}, **{"If-Match": '"v1"'}).status_code == 200
    stale = _put(held, "7", {"name": "B", "deck": SMALL}, **{"If-Match": '"v1"'})
    assert (stale.status_code, stale.headers["content-type"]) == (412, "application/problem+json")
    problem = stale.json()
    assert problem["type"] == "urn:deckcheck:problem:precondition-failed"
    assert (problem["current"]["version"], problem["current"]["deck"], problem["current"]["name"]) == (
        2,
        SMALL_NO_EXTRA,
        "A",
    )
    taken = _put(held, "7", {"name": "B", "deck": SMALL}, **{"If-None-Match": "*"})
    assert (taken.status_code, taken.json()["current"]["version"]) == (412, 2)
    assert taken.json()["errors"][0]["loc"] == ["header", "If-None-Match"]


def test_two_desks_registering_one_player_at_once_one_wins_and_the_other_sees_both(
    held: Held, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_EVENTS_DB", held.database)
    out = io.StringIO()
    assert run(["event", "tokens", held.event, "--role", "desk", "--json"], out, io.StringIO()) == 0
    second = orjson.loads(out.getvalue())["token"]
    desks = [held.tokens["desk"], second] * 3
    start = threading.Barrier(len(desks))
    answers: list[httpx.Response] = []

    def register(token: str) -> None:
        start.wait()
        body = {"name": f"by {token[-4:]}", "deck": SMALL}
        url = f"{held.url}/v1/events/{held.event}/players/0099"
        answers.append(httpx.put(url, json=body, headers={"Authorization": f"Bearer {token}", "If-None-Match": "*"}))

    threads = [threading.Thread(target=register, args=(token,)) for token in desks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers) == [201] + [412] * (len(desks) - 1)
    won = next(a.json() for a in answers if a.status_code == 201)
    assert {a.json()["current"]["name"] for a in answers if a.status_code == 412} == {won["name"]}
    listed = httpx.get(f"{held.url}/v1/events/{held.event}/players", headers=held.auth("organiser")).json()
    assert (listed["total"], listed["players"][0]["version"]) == (1, 1)


def test_a_deck_check_is_validate_with_the_registration_as_roster_and_is_recorded(held: Held) -> None:
    assert _put(held, "0042", {"name": "山田 太郎", "deck": SMALL}).status_code == 201
    url = f"{held.url}/v1/events/{held.event}/players/0042/deck-checks"
    checked = httpx.post(url, json={"deck": SMALL_NO_EXTRA, "round": 3}, headers=held.auth("judge"))
    assert checked.status_code == 201
    answer = checked.json()
    expected = _validate(held, {**SMALL_NO_EXTRA, "roster": SMALL, "phase": "between_duels"})
    assert answer["verdict"] == expected
    assert [v["code"] for v in expected["violations"]] == ["forbidden_card", "main_deck_too_small", "roster_mismatch"]
    mismatch = expected["violations"][-1]
    assert (mismatch["penalty"], mismatch["penalty_applies_to"]) == ("duel_forfeiture", "next_duel")
    assert {k: answer[k] for k in ("player", "round", "duel", "phase", "registration_version", "checked_by")} == {
        "player": "0042",
        "round": 3,
        "duel": 1,
        "phase": "between_duels",
        "registration_version": 1,
        "checked_by": "judge-1",
    }
    during = httpx.post(
        url, json={"deck": SMALL_NO_EXTRA, "round": 3, "phase": "during_duel"}, headers=held.auth("judge")
    )
    assert during.json()["id"] > answer["id"]
    assert during.json()["verdict"]["violations"][-1]["penalty_applies_to"] == "current_duel"
    history = httpx.get(url, headers=held.auth("desk"))
    assert (history.status_code, history.headers["Cache-Control"]) == (200, "no-store")
    kept = {
        "player": "0042",
        "round": 3,
        "duel": 1,
        "registration_version": 1,
        "deck": SMALL_NO_EXTRA,
        "legal": False,
        "penalty": "duel_forfeiture",
        "codes": ["forbidden_card", "main_deck_too_small", "roster_mismatch"],
        "checked_by": "judge-1",
    }
    assert history.json() == [
        {**kept, "id": answer["id"], "phase": "between_duels", "checked_at": answer["checked_at"]},
        {**kept, "id": during.json()["id"], "phase": "during_duel", "checked_at": during.json()["checked_at"]},
    ]
    none = httpx.post(
        f"{held.url}/v1/events/{held.event}/players/0001/deck-checks",
        json={"deck": SMALL, "round": 1},
        headers=held.auth("judge"),
    )
    assert (none.status_code, none.json()["errors"][0]["type"]) == (404, "not_registered")


def test_the_list_of_players_pages_filters_searches_and_exports(held: Held) -> None:
    names = {"0001": '=HYPERLINK("x")', "0002": "山田 花子", "0003": "Yugi Muto"}
    for player, name in names.items():
        assert (
            _put(held, player, {"name": name, "deck": SMALL if player != "0003" else SMALL_NO_EXTRA}).status_code == 201
        )
    players = f"{held.url}/v1/events/{held.event}/players"
    page = httpx.get(f"{players}?limit=2", headers=held.auth("desk"))
    assert ([p["player"] for p in page.json()["players"]], page.json()["total"]) == (["0001", "0002"], 3)
    assert page.headers["Link"] == '<?limit=2&offset=2>; rel="next"'
    found = httpx.get(players, params={"q": "山田"}, headers=held.auth("judge")).json()
    assert [p["player"] for p in found["players"]] == ["0002"]
    assert httpx.get(players, params={"q": "%"}, headers=held.auth("judge")).json()["total"] == 0
    illegal = httpx.get(players, params={"status": "illegal"}, headers=held.auth("judge")).json()
    assert illegal["total"] == 3
    exported = httpx.get(f"{players}.csv", headers=held.auth("organiser"))
    assert (exported.status_code, exported.headers["Cache-Control"]) == (200, "no-store")
    assert exported.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "player",
        "name",
        "card_game_id",
        "version",
        "status",
        "registered_by",
        "registered_at",
        "source",
        "deck",
    ]
    assert [row[:2] for row in rows[1:]] == [
        ["0001", '\'=HYPERLINK("x")'],
        ["0002", "山田 花子"],
        ["0003", "Yugi Muto"],
    ]
    assert orjson.loads(rows[3][8]) == SMALL_NO_EXTRA


def test_a_change_of_list_checks_every_registration_again(held: Held) -> None:
    assert _put(held, "0001", {"name": "A", "deck": REASONING}).json()["status"] == "legal"
    assert _put(held, "0002", {"name": "B", "deck": SMALL}).json()["status"] == "illegal"
    event = f"{held.url}/v1/events/{held.event}"
    unknown = httpx.patch(event, json={"banlist": "ocg-1999-01-01"}, headers=held.auth("organiser"))
    assert (unknown.status_code, unknown.json()["errors"][0]["type"]) == (422, "unknown_banlist")
    other_format = httpx.patch(event, json={"banlist": "tcg-2014-01-01"}, headers=held.auth("organiser"))
    assert (other_format.status_code, other_format.json()["errors"][0]["loc"]) == (422, ["body", "banlist"])
    changed = httpx.patch(event, json={"banlist": "ocg-2008-09-01"}, headers=held.auth("organiser"))
    assert changed.status_code == 200
    answer = changed.json()
    assert {k: v for k, v in answer.items() if k != "changed"} == {
        "banlist": "ocg-2008-09-01",
        "checked": 2,
        "newly_illegal": ["0001"],
    }
    assert [(p["player"], p["before"], p["status"]) for p in answer["changed"]] == [("0001", "legal", "illegal")]
    registered = httpx.get(f"{event}/players/0001", headers=held.auth("judge")).json()
    assert registered["verdict"]["violations"][0]["code"] == "limited_card_exceeded"
    shown = httpx.get(event, headers=held.auth("desk")).json()
    assert (shown["banlist"], shown["players"], shown["you"]) == (
        "ocg-2008-09-01",
        {"legal": 0, "needs_review": 0, "illegal": 2},
        {"role": "desk", "label": "desk-1"},
    )
    back = httpx.patch(event, json={"banlist": None}, headers=held.auth("organiser")).json()
    assert (back["newly_illegal"], [p["status"] for p in back["changed"]]) == ([], ["legal"])


ROUTES = [
    ("GET", "", None, {"desk", "judge", "organiser"}),
    ("PATCH", "", {"banlist": None}, {"organiser"}),
    ("PUT", "/players/0042", {"name": "A", "deck": SMALL}, {"desk", "organiser"}),
    ("GET", "/players/0042", None, {"desk", "judge", "organiser"}),
    ("GET", "/players", None, {"desk", "judge", "organiser"}),
    ("GET", "/players.csv", None, {"organiser"}),
    ("POST", "/players/0042/deck-checks", {"deck": SMALL, "round": 1}, {"judge", "organiser"}),
    ("GET", "/players/0042/deck-checks", None, {"desk", "judge", "organiser"}),
    ("DELETE", "", None, {"organiser"}),
]


def test_each_route_answers_the_roles_allowed_and_refuses_the_rest(held: Held, monkeypatch: pytest.MonkeyPatch) -> None:
    other = create_event(held.database, monkeypatch)
    assert _put(held, "0042", {"name": "A", "deck": SMALL}).status_code == 201
    seen: list[tuple[str, str, str, int]] = []
    for method, path, body, allowed in ROUTES:
        url = f"{held.url}/v1/events/{held.event}{path}"
        for role in ("desk", "judge", "organiser"):
            if method == "DELETE" and role == "organiser":
                continue  # last, below
            answer = httpx.request(method, url, json=body, headers=held.auth(role))
            seen.append((method, path, role, answer.status_code))
            assert (answer.status_code < 300) == (role in allowed), (method, path, role, answer.text)
            if role not in allowed:
                assert answer.json()["type"] == "urn:deckcheck:problem:forbidden"
        bare = httpx.request(method, url, json=body)
        assert (bare.status_code, bare.headers["WWW-Authenticate"]) == (401, 'Bearer realm="deckcheck events"')
        wrong = httpx.request(method, url, json=body, headers={"Authorization": "Bearer dck_not-a-token"})
        assert wrong.json()["type"] == "urn:deckcheck:problem:unauthorized"
        elsewhere = httpx.request(
            method, url, json=body, headers={"Authorization": f"Bearer {other['tokens']['organiser']}"}
        )
        assert (elsewhere.status_code, elsewhere.json()["errors"][0]["type"]) == (404, "unknown_event")
    assert len(seen) == 3 * len(ROUTES) - 1
    deleted = httpx.delete(f"{held.url}/v1/events/{held.event}", headers=held.auth("organiser"))
    assert (deleted.status_code, deleted.content) == (204, b"")
    gone = httpx.get(f"{held.url}/v1/events/{held.event}", headers=held.auth("organiser"))
    assert gone.status_code == 401  # its tokens went with it
    survivor = httpx.get(
        f"{held.url}/v1/events/{other['event']}", headers={"Authorization": f"Bearer {other['tokens']['judge']}"}
    )
    assert survivor.status_code == 200


def test_a_revoked_token_is_refused(held: Held, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKCHECK_EVENTS_DB", held.database)
    url = f"{held.url}/v1/events/{held.event}"
    assert httpx.get(url, headers=held.auth("judge")).status_code == 200
    err = io.StringIO()
    assert run(["event", "tokens", held.event, "--revoke", "judge-1"], io.StringIO(), err) == 0
    assert httpx.get(url, headers=held.auth("judge")).status_code == 401
    assert run(["event", "tokens", held.event, "--revoke", "judge-1"], io.StringIO(), err) == 2
    assert "no token labelled judge-1 in use" in err.getvalue()


def test_bad_input_gets_a_problem(held: Held) -> None:
    base = f"{held.url}/v1/events/{held.event}/players"
    bad_id = _put(held, "../0042", {"name": "A", "deck": SMALL})
    assert bad_id.status_code in (404, 422)
    no_deck = _put(held, "0042", {"name": "A", "deck": {"ydk": "#main\nabc\n"}})
    assert (no_deck.status_code, no_deck.json()["errors"][0]["loc"]) == (422, ["body", "deck", "ydk"])
    unknown_field = _put(held, "0042", {"name": "A", "deck": SMALL, "email": "a@b"})
    assert unknown_field.status_code == 422
    huge = httpx.put(f"{base}/0042", content=b'{"name": "' + b"x" * 2_000_000 + b'"}', headers=held.auth("desk"))
    assert huge.status_code == 413
    paged = httpx.get(base, params={"limit": 100_000}, headers=held.auth("desk"))
    assert paged.status_code == 422
    malformed_event = httpx.get(f"{held.url}/v1/events/nope/players", headers=held.auth("desk"))
    assert malformed_event.status_code == 422


def test_tokens_and_names_stay_out_of_the_logs(held: Held, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    assert _put(held, "0042", {"name": "山田 太郎", "card_game_id": "0000123456", "deck": SMALL}).status_code == 201
    httpx.get(f"{held.url}/v1/events/{held.event}/players", params={"q": "山田"}, headers=held.auth("judge"))
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert "/players/0042" in logged  # the access log saw the requests
    for secret in (*held.tokens.values(), "山田", "0000123456"):
        assert secret not in logged


def test_the_service_restarted_keeps_what_was_committed(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    made = create_event(database, monkeypatch)
    settings = Settings(events_db=database)
    auth = {"Authorization": f"Bearer {made['tokens']['desk']}"}
    for _ in range(2):
        with serving_app(create_app(settings), settings) as url:
            players = f"{url}/v1/events/{made['event']}/players"
            count = httpx.get(players, headers=auth).json()["total"]
            assert (
                httpx.put(f"{players}/{count + 1}", json={"name": "A", "deck": SMALL}, headers=auth).status_code == 201
            )
    with serving_app(create_app(settings), settings) as url:
        assert httpx.get(f"{url}/v1/events/{made['event']}/players", headers=auth).json()["total"] == 2


def test_postgresql_down_answers_503_and_validate_goes_on(
    postgres_server: PostgresServer, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = create_event(postgres_url, monkeypatch)
    settings = Settings(events_db=postgres_url, retry_after=2)
    auth = {"Authorization": f"Bearer {made['tokens']['desk']}"}
    with serving_app(create_app(settings), settings) as url:
        player = f"{url}/v1/events/{made['event']}/players/0042"
        assert httpx.put(player, json={"name": "A", "deck": SMALL}, headers=auth).status_code == 201
        postgres_server.stop()
        try:
            down = httpx.get(player, headers=auth, timeout=30)
            assert (down.status_code, down.headers["Retry-After"]) == (503, "2")
            assert down.json()["type"] == "urn:deckcheck:problem:service-unavailable"
            assert str(postgres_server.port) not in down.text  # where the database is stays in the log
            assert httpx.post(f"{url}/v1/validate", json={**SMALL, "date": DAY}).status_code == 200
        finally:
            postgres_server.start()
        back = httpx.get(player, headers=auth, timeout=30)
        assert (back.status_code, back.json()["version"]) == (200, 1)


def test_two_server_processes_share_the_event(database: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`deckcheck serve --workers 2` as an operator runs it on the database: the two processes (each migrating on
    its first request, one after the other) take registrations from 40 requests at once, and every one is kept
    once; the service's log names no token and no player's name."""
    made = create_event(database, monkeypatch)
    auth = {"Authorization": f"Bearer {made['tokens']['desk']}"}
    with serving(tmp_path / "serve.log", {"DECKCHECK_EVENTS_DB": database}, "--workers", "2") as server:
        players = f"{server.url}/v1/events/{made['event']}/players"

        def register(number: int) -> int:
            body = {"name": f"山田 {number}", "deck": SMALL}
            return httpx.put(f"{players}/{number:04}", json=body, headers=auth, timeout=60).status_code

        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(register, range(40)))
        listed = httpx.get(players, params={"limit": 100}, headers=auth).json()
        log = server.log.read_text(encoding="utf-8")
    assert codes == [201] * 40
    assert (listed["total"], {p["version"] for p in listed["players"]}) == (40, {1})
    assert made["tokens"]["desk"] not in log
    assert "山田" not in log


def test_the_organisers_commands_answer_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The labels come with the tokens; a database the events cannot be kept in, or a token asked for and revoked at
    once, is one line and exit status 2, never a traceback; a SQLite file named is the user's alone."""
    database = tmp_path / "mine.sqlite3"
    made = create_event(f"sqlite:///{database}", monkeypatch)
    assert made["labels"] == {"desk": "desk-1", "judge": "judge-1", "organiser": "organiser-1"}
    assert database.stat().st_mode & 0o777 == 0o600
    out, err = io.StringIO(), io.StringIO()
    text = run(["event", "create", "--name", "N", "--date", DAY, "--format", "ocg"], out, err)
    assert (text, err.getvalue()) == (0, "")
    assert out.getvalue().splitlines()[1].startswith("token desk (desk-1): dck_")
    for setting in ("mysql://x/y", f"sqlite:///{tmp_path}/no-such-folder/events.sqlite3"):
        monkeypatch.setenv("DECKCHECK_EVENTS_DB", setting)
        err = io.StringIO()
        assert run(["event", "create", "--name", "N", "--date", DAY, "--format", "ocg"], io.StringIO(), err) == 2
        assert err.getvalue().startswith("deckcheck event create: DECKCHECK_EVENTS_DB: ")
        assert len(err.getvalue().splitlines()) == 1
    monkeypatch.setenv("DECKCHECK_EVENTS_DB", f"sqlite:///{database}")
    err = io.StringIO()
    both = ["event", "tokens", made["event"], "--role", "judge", "--revoke", "judge-1"]
    assert run(both, io.StringIO(), err) == 2
    assert "not allowed with argument" in err.getvalue()
