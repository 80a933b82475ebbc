"""An event through two registration desks and a judge's phone, in headless Chromium, over real HTTP on a SQLite file
and on a real PostgreSQL server. Two laptop desks (1280×720, one in Japanese with the event's desk token, one in
English with a second desk token) open the organiser's link: desk A registers player 0042 with a deck that is illegal
(Pot of Greed, and too small), and desk B lists them within seconds; desk B registering 0042 too is told that desk-1
did first, with both decks shown, and checking again replaces that registration (version 2, listed on both desks).
A registration desk A cannot send (the browser offline, then the player's address cut off) is said to be kept, stays
in the outbox over a reload of the page and is sent once the service can be reached: version 1, and no other. A
judge's phone (390×844, in English, then in Japanese) opens its link, picks 0042 in the list and checks the deck the
player presents, the registered one without its Extra Deck: a roster mismatch, the penalty band on the screen, every
control big enough for a finger, nothing wider than the screen, and each check recorded by the event as the judge's;
a player registered again between the pick and the check is checked against the new registration, which the verdict
shows. A screenshot of each step is saved under test-artefacts/desk-event/."""

from __future__ import annotations

import contextlib
import io
import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import sqlalchemy as sa
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from deckcheck.api import create_app
from deckcheck.cli import run
from deckcheck.config import Settings
from deckcheck.events.tables import deck_checks
from tests import browser
from tests import test_desk_laptop as laptop
from tests import test_events_api as events_api
from tests.browser import console_errors, screenshot, sent_requests
from tests.postgres import PostgresServer
from tests.served import serving_app
from tests.test_desk import WAIT
from tests.test_desk_phone import BAND, NARROW, PHONE, TAP

pytestmark = [pytest.mark.browser, pytest.mark.server]

browser.skip_without_chromium()

LAPTOP = {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False}
NAME = "山田 太郎"
# Desk A's deck: three Dark Magician and Pot of Greed, Stardust Dragon in the Extra Deck (illegal on the event's day:
# Pot of Greed is forbidden, and 4 cards are too few); desk B's, the same cards, Pot of Greed scanned first; and the
# deck presented to the judge, desk A's without its Extra Deck.
DECK_A = events_api.SMALL["ydke"]
DECK_B = "ydke://SnBJA670zAKu9MwCrvTMAg==!viOnAg==!!"
PRESENTED = events_api.SMALL_NO_EXTRA["ydke"]
# Seconds the outbox may take to be sent once the service can be reached again: it is tried every 5 s.
RESENT = 20
# The page's own words, as desk.toml gives them to words.js.
DESK_WORDS = tomllib.loads((resources.files("deckcheck") / "catalogues" / "desk.toml").read_text(encoding="utf-8"))

# What the verdict shows: its state and heading, the penalty, the error's words, each violation's code and reason, and
# each list shown (the one checked, and the registered one when its box is shown).
READ_VERDICT = """
const text = (id) => document.getElementById(id).innerText.trim();
const shown = (id) => document.getElementById(id).checkVisibility();
return {
  state: document.getElementById("verdict").dataset.state,
  heading: text("verdict-heading"),
  penalty: text("verdict-penalty"),
  error: shown("error") ? text("error") : null,
  violations: Array.from(document.querySelectorAll("#violations li.violation"),
    (li) => [li.dataset.code, li.querySelector(".message").innerText.trim()]),
  source: shown("source") ? text("source") : null,
  registered: shown("roster-source-box") ? text("roster-source") : null,
};
"""
SHOWN_STATE = "const v = document.getElementById('verdict'); return v.checkVisibility() && v.dataset.state;"
# The boxes of the verdict's dialog that are shown (its band, the error, each list's caption and list, its buttons),
# and the viewport.
VERDICT_BOXES = """
const rect = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, left: r.left, bottom: r.bottom,
  right: r.right}; };
const parts = {head: ".verdict-head", error: "#error", actions: ".verdict-actions"};
const boxes = {};
for (const [name, selector] of Object.entries(parts)) {
  const e = document.querySelector(selector);
  if (e.checkVisibility()) boxes[name] = rect(e);
}
document.querySelectorAll(".sources figure").forEach((figure, i) => {
  if (!figure.checkVisibility()) return;
  boxes[`caption ${i}`] = rect(figure.querySelector("figcaption"));
  boxes[`list ${i}`] = rect(figure.querySelector("pre"));
});
return {boxes, viewport: {top: 0, left: 0, bottom: innerHeight, right: innerWidth}};
"""
# The rows of the list of players, each its cells' words.
ROWS = "return Array.from(document.querySelectorAll('#players-table tbody tr'), (tr) => Array.from(tr.cells, (c) => "
ROWS += "c.innerText.trim()));"
OUTBOX = "return JSON.parse(localStorage.getItem('deckcheck.desk.outbox') || '[]');"
# How the parts of the page `arguments[0]` (a selector) names fit a phone: the screen's width and how wide the page
# is, each control shown there too short to tap (`arguments[1]` px) or each field too narrow to type in
# (`arguments[2]` px), each row of players too short to tap, and which of the desk's own sections are shown.
FIT = """
const [scope, tap, narrow] = arguments;
const shown = (e) => e.checkVisibility({visibilityProperty: true});
const name = (e) => `${e.tagName.toLowerCase()} ${e.id || e.textContent.trim()}`;
const small = [], tight = [];
for (const e of document.querySelectorAll(`:is(${scope}) :is(input, select, textarea, button)`)) {
  if (!shown(e)) continue;
  const {width, height} = e.getBoundingClientRect();
  if (height < tap) small.push(`${name(e)}: ${Math.round(height)} px tall`);
  if (e.matches("input, select, textarea") && width < narrow) tight.push(`${name(e)}: ${Math.round(width)} px wide`);
}
for (const row of document.querySelectorAll("#players-table tbody tr")) {
  const height = row.getBoundingClientRect().height;
  if (height < tap) small.push(`row ${row.cells[0].innerText}: ${Math.round(height)} px tall`);
}
const sections = ["event", "players", "deck-check", "submit", "roster", "log"];
return {
  width: innerWidth, scrollWidth: document.documentElement.scrollWidth, small, tight,
  shown: sections.filter((id) => shown(document.getElementById(id))),
};
"""


def words(lang: str, key: str, *fields: object) -> str:
    """The page's word `key` in `lang`, with {0}, {1}… filled in as words.js `t` does."""
    return re.sub(r"\{(\d)\}", lambda found: str(fields[int(found[1])]), DESK_WORDS[lang][key])


@dataclass(frozen=True, slots=True)
class Service:
    """The service serving an events database: its URL, and the database's."""

    url: str
    database: str


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def service(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """The service over the module's events database of the parameter's kind: a SQLite file, or a database of its own
    on the PostgreSQL server (skipped when PostgreSQL is not installed). Each test makes its own event there."""
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path_factory.mktemp('events') / 'events.sqlite3'}"
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        database = server.fresh_database("desk_event")
    settings = Settings(events_db=database)
    with serving_app(create_app(settings), settings) as url:
        yield Service(url, database)


@dataclass(frozen=True, slots=True)
class Event:
    """An event the organiser's command made (`held`: the service, the event and a token per role), and a second
    desk token."""

    held: events_api.Held
    second_desk: str

    @property
    def url(self) -> str:
        return self.held.url

    def link(self, token: str) -> str:
        """The organiser's link to the desk for a token."""
        return f"{self.url}/desk#event={self.held.event}&token={token}"

    def player(self, player: str, version: int | None = None) -> httpx.Response:
        """GET a player's registration (its current one, or `version`) with the organiser's token."""
        query = {} if version is None else {"version": version}
        path = f"{self.url}/v1/events/{self.held.event}/players/{player}"
        return httpx.get(path, params=query, headers=self.held.auth("organiser"), timeout=30)

    def register(self, token: str, player: str, deck: str, **headers: str) -> httpx.Response:
        """PUT a registration of `player` with `deck` (a ydke link) as the desk of `token` sends it."""
        path = f"{self.url}/v1/events/{self.held.event}/players/{player}"
        body = {"name": NAME, "deck": {"ydke": deck}, "source": "typed"}
        return httpx.put(path, json=body, headers={"Authorization": f"Bearer {token}", **headers}, timeout=30)


@pytest.fixture
def event(service: Service, monkeypatch: pytest.MonkeyPatch) -> Event:
    """A new event made by `deckcheck event create`, with a second desk token from `deckcheck event tokens ID
    --role desk --json`, as the organiser makes them."""
    made = events_api.create_event(service.database, monkeypatch)
    out, err = io.StringIO(), io.StringIO()
    assert (run(["event", "tokens", made["event"], "--role", "desk", "--json"], out, err), err.getvalue()) == (0, "")
    issued = orjson.loads(out.getvalue())
    assert (issued["role"], issued["label"]) == ("desk", "desk-2")
    return Event(events_api.Held(service.url, made["event"], made["tokens"], service.database), issued["token"])


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """The module's first browser (desk A's, then the judge's phone's): only 127.0.0.1 resolves, its network and
    console kept."""
    driver = browser.start(tmp_path_factory.mktemp("chromium"), [browser.ONLY_LOOPBACK], logs=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def other_chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """The module's second browser, desk B's: storage of its own, as on another laptop."""
    driver = browser.start(tmp_path_factory.mktemp("chromium"), [browser.ONLY_LOOPBACK], logs=True)
    yield driver
    driver.quit()


@dataclass(frozen=True, slots=True)
class Shown:
    """What the verdict shows (READ_VERDICT)."""

    state: str
    heading: str
    penalty: str
    error: str | None
    violations: list[tuple[str, str]]
    source: str | None
    registered: str | None


class Desk:
    """The desk page of the event in one browser, in `lang`, opened with a token; `name` begins its screenshots."""

    def __init__(self, driver: webdriver.Chrome, event: Event, lang: str, name: str) -> None:
        self.driver, self.event, self.lang, self.name = driver, event, lang, name

    def open(self, token: str, metrics: Mapping[str, object], on_the_desk: bool = False) -> None:
        """Open the organiser's link for `token` on a screen of `metrics`, in a browser that kept nothing from before
        (the language chosen, the logs read): on its own, or, `on_the_desk`, on the desk page open already; wait
        until the desk is connected and has listed the players."""
        browser.open_desk(self.driver, self.event.url, self.lang, metrics)
        if not on_the_desk:
            self.driver.get("about:blank")
        self.driver.get(self.event.link(token))
        self.wait_until_connected()

    def wait_until_connected(self) -> None:
        """Wait until the page shows the event it is connected to and the count of its players."""
        script = "return document.getElementById('event').checkVisibility() && "
        script += "document.getElementById('players-count').textContent;"
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(script))

    def text(self, element_id: str) -> str:
        """The words an element shows."""
        return str(self.driver.execute_script(f"return document.getElementById('{element_id}').innerText.trim();"))

    def type(self, element_id: str, text: str) -> None:
        """Type `text` into a field, as staff do, after emptying it."""
        field = self.driver.find_element(By.ID, element_id)
        field.clear()
        field.send_keys(text)

    def verdict(self, state: str) -> Shown:
        """Wait for the verdict in `state`, then read it."""
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(SHOWN_STATE) == state)
        read = self.driver.execute_script(READ_VERDICT)
        return Shown(**{**read, "violations": [(code, message) for code, message in read["violations"]]})

    def boxes(self) -> dict[str, Any]:
        """The verdict's boxes shown, and the viewport (VERDICT_BOXES)."""
        measured: dict[str, Any] = self.driver.execute_script(VERDICT_BOXES)
        return measured

    def close(self) -> None:
        """Close the verdict."""
        self.driver.find_element(By.ID, "verdict-close").click()
        WebDriverWait(self.driver, WAIT).until(lambda d: not d.execute_script(laptop.SHOWN_VERDICT))

    def rows(self) -> list[list[str]]:
        """The list of players, a row a player: number, name, verdict, version and time."""
        rows: list[list[str]] = self.driver.execute_script(ROWS)
        return rows

    def listed(self, player: str, version: int) -> list[str]:
        """Wait (up to WAIT s: the list is read every 3 s) until the list shows `player` at `version`; their row."""
        WebDriverWait(self.driver, WAIT).until(lambda _: self._row(player, version))
        row = self._row(player, version)
        assert row is not None
        return row

    def _row(self, player: str, version: int) -> list[str] | None:
        return next((row for row in self.rows() if row[0] == player and row[3] == str(version)), None)

    def register(self, player: str, deck: str) -> None:
        """Register `player` with `deck` as desk staff do: their number and name typed, the deck's code scanned (a
        scanner types it, then Enter)."""
        self.type("player", player)
        self.type("player-name", NAME)
        self.type("scan", deck + Keys.ENTER)

    def show(self, element_id: str) -> None:
        """Scroll the page to an element, its top at the top of the screen."""
        self.driver.execute_script("document.getElementById(arguments[0]).scrollIntoView();", element_id)

    def outbox(self) -> list[dict[str, Any]]:
        """The registrations the desk keeps to send."""
        items: list[dict[str, Any]] = self.driver.execute_script(OUTBOX)
        return items

    def shot(self, what: str) -> Path:
        """Keep what the screen shows as test-artefacts/desk-event/<database>-<name>-<what>.png."""
        kind = self.event.held.database.split(":", 1)[0].split("+", 1)[0]
        return screenshot(self.driver, "desk-event", f"{kind}-{self.name}-{what}")


def assert_laid_out(measured: dict[str, Any]) -> None:
    """Every box of the verdict inside the viewport, and none drawn over another."""
    for name, box in measured["boxes"].items():
        assert laptop.inside(box, measured["viewport"]), (name, box, measured["viewport"])
    assert laptop.overlapping(measured["boxes"]) == [], measured["boxes"]


def verdict_of(event: Event, version: int, lang: str) -> list[tuple[str, str]]:
    """The violations of the event's registration of 0042 at `version` (code and reason), in `lang`."""
    answer = httpx.get(
        f"{event.url}/v1/events/{event.held.event}/players/0042",
        params={"version": version},
        headers={**event.held.auth("desk"), "Accept-Language": lang},
        timeout=30,
    )
    return [(v["code"], v["message"]) for v in answer.json()["verdict"]["violations"]]


def test_two_desks_share_the_players_and_a_player_registered_twice_is_shown_then_replaced(
    event: Event, chromium: webdriver.Chrome, other_chromium: webdriver.Chrome
) -> None:
    a = Desk(chromium, event, "ja", "a")
    b = Desk(other_chromium, event, "en", "b")
    a.open(event.held.tokens["desk"], LAPTOP)
    b.open(event.second_desk, LAPTOP, on_the_desk=True)  # the link opened on the desk open already
    a.shot("1-connected")
    addresses = [chromium.current_url, other_chromium.current_url]
    connected = [a.text("event-you"), b.text("event-you")]

    a.register("0042", DECK_A)
    illegal = a.verdict("illegal")
    illegal_laid_out = chromium.execute_script(laptop.MEASURE)
    a.shot("2-registered-illegal")
    a.close()
    listed = b.listed("0042", 1)
    b.show("players")
    b.shot("3-lists-0042")

    b.register("0042", DECK_B)
    taken = b.verdict("error")
    taken_laid_out = b.boxes()
    b.shot("4-registered-by-desk-1")
    (refused,) = console_errors(other_chromium)  # the browser logs the 412, and nothing else
    b.close()
    other_chromium.find_element(By.ID, "scan").send_keys(Keys.ENTER)  # checked again: it replaces desk A's
    again = b.verdict("illegal")
    b.close()
    replaced = b.listed("0042", 2)
    b.show("players")
    b.shot("5-replaced")
    seen_by_a = a.listed("0042", 2)
    a.show("players")
    a.shot("6-lists-version-2")

    assert ["#" in address for address in addresses] == [False, False]  # the token left the address bar
    assert connected == [
        words("ja", "event_you", words("ja", "role_desk"), "desk-1"),
        words("en", "event_you", words("en", "role_desk"), "desk-2"),
    ]
    assert (illegal.heading, illegal.error, illegal.violations) == ("違反", None, verdict_of(event, 1, "ja"))
    laptop.assert_readable(illegal_laid_out)
    assert listed[:4] == ["0042", NAME, "Illegal", "1"]
    assert taken.error is not None
    assert words("en", "event_taken", "0042", "desk-1", 1) in taken.error
    assert words("en", "event_taken_again") in taken.error
    assert (taken.source, taken.registered) == (DECK_B, DECK_A)  # both decks: desk B's, and desk A's registered
    assert {"error", "caption 0", "list 0", "caption 1", "list 1"} <= taken_laid_out["boxes"].keys()
    assert_laid_out(taken_laid_out)
    assert ("412" in refused, "/players/0042" in refused) == (True, True), refused
    assert (again.heading, again.violations) == ("Illegal", verdict_of(event, 2, "en"))
    assert (replaced[:4], seen_by_a[:4]) == (["0042", NAME, "Illegal", "2"], ["0042", NAME, "違反", "2"])
    current, earlier = event.player("0042").json(), event.player("0042", 1).json()
    assert (current["version"], current["registered_by"], current["deck"]) == (2, "desk-2", {"ydke": DECK_B})
    # Scanned into the reader's field, so both taken from a QR code.
    assert (earlier["version"], earlier["registered_by"], earlier["deck"], earlier["source"], current["source"]) == (
        1,
        "desk-1",
        {"ydke": DECK_A},
        "qr",
        "qr",
    )
    assert event.player("0042", 3).status_code == 404
    assert console_errors(chromium) == []
    assert console_errors(other_chromium) == []


@contextlib.contextmanager
def offline(driver: webdriver.Chrome) -> Iterator[None]:
    """Within the block, the browser is offline (DevTools' network emulation): no request leaves it."""
    driver.execute_cdp_cmd("Network.enable", {})
    conditions = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**conditions, "offline": True})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**conditions, "offline": False})


@contextlib.contextmanager
def cut_off(driver: webdriver.Chrome, *patterns: str) -> Iterator[None]:
    """Within the block, the browser sends no request to an address of `patterns` (DevTools' blocked URLs): the page
    loads, the players are listed, and those registrations fail as if the network dropped them."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": list(patterns)})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def test_a_registration_that_cannot_be_sent_is_kept_over_a_reload_and_sent_once(
    event: Event, chromium: webdriver.Chrome
) -> None:
    a = Desk(chromium, event, "ja", "a")
    a.open(event.held.tokens["desk"], LAPTOP)
    # Offline, then online again with 0043's address still cut off (from before the browser is back online, when the
    # page sends its outbox at once): the page loads again, and the registration cannot be sent yet.
    with cut_off(chromium, f"*/v1/events/{event.held.event}/players/0043"):
        with offline(chromium):
            a.register("0043", DECK_A)
            kept = a.verdict("error")
            kept_laid_out = a.boxes()
            a.shot("7-offline-kept")
            a.close()
            waiting = a.outbox()
        chromium.refresh()
        a.wait_until_connected()
        said = words("ja", "event_outbox", 1)
        WebDriverWait(chromium, WAIT).until(lambda _: a.text("event-outbox") == said)
        a.shot("8-reloaded-waiting")
        after_reload = a.outbox()
        unsent = event.player("0043")
    WebDriverWait(chromium, RESENT).until(lambda _: a.outbox() == [])
    WebDriverWait(chromium, WAIT).until(lambda _: a.text("event-outbox") == "")
    listed = a.listed("0043", 1)
    a.show("players")
    a.shot("9-sent")
    puts = [r for r in sent_requests(chromium) if r.method == "PUT"]

    assert kept.error is not None
    assert words("ja", "event_kept") in kept.error
    assert words("ja", "event_kept_detail") in kept.error
    assert_laid_out(kept_laid_out)
    assert [(item["player"], item["name"], item["deck"], item["version"]) for item in waiting] == [
        ("0043", NAME, {"ydke": DECK_A}, 0)
    ]
    assert after_reload == waiting  # the same registration, kept over the reload
    assert unsent.status_code == 404
    assert listed[:4] == ["0043", NAME, "違反", "1"]
    registered = event.player("0043").json()
    assert (registered["version"], registered["registered_by"], registered["name"]) == (1, "desk-1", NAME)
    assert event.player("0043", 2).status_code == 404  # sent once, never twice
    assert puts
    assert all(put.headers.get("If-None-Match") == "*" for put in puts), puts  # as a new player, every time
    assert console_errors(chromium) == []


def roster_mismatch(event: Event, lang: str) -> str:
    """The reason POST /v1/validate gives, in `lang`, for the roster mismatch of PRESENTED against DECK_B."""
    body = {
        "ydke": PRESENTED,
        "roster": {"ydke": DECK_B},
        "duel": 1,
        "phase": "between_duels",
        "date": events_api.DAY,
        "format": "ocg",
    }
    answer = httpx.post(f"{event.url}/v1/validate", json=body, headers={"Accept-Language": lang}, timeout=30)
    assert answer.status_code == 200, answer.text
    (message,) = [v["message"] for v in answer.json()["violations"] if v["code"] == "roster_mismatch"]
    return str(message)


def tap_row(driver: webdriver.Chrome, player: str) -> bool:
    """Tap the row of `player` in the list of players; False if the list was read again under the finger."""
    try:
        for row in driver.find_elements(By.CSS_SELECTOR, "#players-table tbody tr"):
            if row.find_element(By.CSS_SELECTOR, "td").text == player:
                row.click()
                return True
    except StaleElementReferenceException:
        pass
    return False


@dataclass(frozen=True, slots=True)
class Checked:
    """A deck check on the phone: the verdict shown, its band and close button with the viewport (BAND), and how
    wide the page is."""

    shown: Shown
    band: dict[str, Any]
    width: int


def check_deck(phone: Desk, round_number: int, what: str) -> Checked:
    """Tap Compare on the phone for `round_number`, and read the verdict (kept as screenshot `what`), then close it."""
    phone.type("dc-round", str(round_number))
    phone.driver.find_element(By.ID, "dc-check").click()
    shown = phone.verdict("illegal")
    band = phone.driver.execute_script(BAND)
    width = phone.driver.execute_script("return document.documentElement.scrollWidth;")
    phone.shot(what)
    phone.close()
    return Checked(shown, band, width)


def assert_fits_the_phone(fit: dict[str, Any]) -> None:
    """Nothing wider than the phone's screen, every control and row tall enough to tap and every field wide enough
    to type in, and only the judge's sections shown."""
    assert (fit["width"], fit["scrollWidth"]) == (PHONE["width"], PHONE["width"])
    assert (fit["small"], fit["tight"]) == ([], [])
    assert fit["shown"] == ["event", "players", "deck-check"]  # not the desk's own: #submit, #roster, #log


def deck_checks_kept(event: Event) -> list[dict[str, Any]]:
    """The deck checks the event's database holds, in the order they were made."""
    engine = sa.create_engine(event.held.database)
    try:
        with engine.connect() as db:
            query = sa.select(deck_checks).where(deck_checks.c.event_id == event.held.event).order_by(deck_checks.c.id)
            return [dict(row) for row in db.execute(query).mappings()]
    finally:
        engine.dispose()


def test_a_judges_phone_checks_a_players_deck_against_their_registration(
    event: Event, chromium: webdriver.Chrome
) -> None:
    # 0042 as the desks left them in the first test: registered by desk-1, then again by desk-2.
    assert event.register(event.held.tokens["desk"], "0042", DECK_A, **{"If-None-Match": "*"}).status_code == 201
    assert event.register(event.second_desk, "0042", DECK_B, **{"If-Match": '"v1"'}).status_code == 200
    phone = Desk(chromium, event, "en", "phone")  # desk A's browser, made a phone
    phone.open(event.held.tokens["judge"], PHONE)
    listed = phone.listed("0042", 2)
    fit_en = chromium.execute_script(FIT, "#event, #players, #deck-check", TAP, NARROW)
    phone.shot("10-en-players")
    WebDriverWait(chromium, WAIT).until(lambda d: tap_row(d, "0042"))
    WebDriverWait(chromium, WAIT).until(lambda _: phone.text("dc-player") == f"0042 {NAME}")
    phone.type("dc-presented", PRESENTED)
    phone.shot("11-en-picked")
    checked = {"en": check_deck(phone, 3, "12-en-roster-mismatch")}
    chromium.find_element(By.ID, "lang").click()  # 日本語
    WebDriverWait(chromium, WAIT).until(lambda _: phone.text("dc-check") == words("ja", "dc_check"))
    fit_ja = chromium.execute_script(FIT, "#event, #players, #deck-check", TAP, NARROW)
    phone.shot("13-ja-picked")
    checked["ja"] = check_deck(phone, 4, "14-ja-roster-mismatch")
    posted = [r for r in sent_requests(chromium) if r.method == "POST" and r.url.endswith("/deck-checks")]

    assert listed[:4] == ["0042", NAME, "Illegal", "2"]
    assert_fits_the_phone(fit_en)
    assert_fits_the_phone(fit_ja)
    for lang, check in checked.items():
        assert check.shown.heading == words(lang, "illegal")
        assert ("roster_mismatch", roster_mismatch(event, lang)) in check.shown.violations
        assert check.shown.penalty
        assert (check.shown.source, check.shown.registered) == (PRESENTED, DECK_B)
        assert laptop.inside(check.band["band"], check.band["viewport"]), check.band
        assert laptop.inside(check.band["close"], check.band["viewport"]), check.band
        assert check.width == PHONE["width"]
    # Each check went with the judge's token and the round typed, and the event keeps it, against version 2.
    assert [json.loads(r.body or "null")["round"] for r in posted] == [3, 4]
    assert {r.headers["Authorization"] for r in posted} == {f"Bearer {event.held.tokens['judge']}"}
    kept = deck_checks_kept(event)
    assert [(c["player"], c["version"], c["round"], c["checked_by"], c["legal"]) for c in kept] == [
        ("0042", 2, 3, "judge-1", False),
        ("0042", 2, 4, "judge-1", False),
    ]
    assert all("roster_mismatch" in json.loads(c["codes"]) and c["penalty"] for c in kept)
    assert kept[0]["id"] < kept[1]["id"]
    assert event.player("0042").json()["version"] == 2  # a deck check changes no registration
    assert console_errors(chromium) == []


def test_a_deck_check_shows_the_registration_it_was_judged_against(event: Event, chromium: webdriver.Chrome) -> None:
    assert event.register(event.held.tokens["desk"], "0042", DECK_A, **{"If-None-Match": "*"}).status_code == 201
    phone = Desk(chromium, event, "en", "phone")
    phone.open(event.held.tokens["judge"], PHONE)
    phone.listed("0042", 1)
    WebDriverWait(chromium, WAIT).until(lambda d: tap_row(d, "0042"))
    WebDriverWait(chromium, WAIT).until(lambda _: phone.text("dc-player") == f"0042 {NAME}")
    picked = phone.text("dc-registered")
    # Another desk registers the player again while the judge has them on screen.
    assert event.register(event.second_desk, "0042", DECK_B, **{"If-Match": '"v1"'}).status_code == 200
    phone.type("dc-presented", PRESENTED)
    checked = check_deck(phone, 5, "15-en-registered-meanwhile")
    meta = phone.text("dc-meta")

    assert picked == DECK_A
    (kept,) = deck_checks_kept(event)
    assert kept["version"] == 2  # the event judged the deck against the registration current then
    assert checked.shown.registered == DECK_B  # and the verdict shows that one, not the one picked before
    assert meta.startswith(words("en", "dc_registered", 2, "desk-2", "").rstrip(")"))
    assert phone.text("dc-registered") == DECK_B
    assert console_errors(chromium) == []
