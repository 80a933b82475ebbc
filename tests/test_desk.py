"""The registration desk's page (GET /desk) and the offline API documentation (GET /docs) in headless Chromium, used
as event staff use them: a deck pasted, typed, scanned from a QR code or compared with its Deck Roster Sheet, the
verdict read off the page and held to the API's own answer for the request the page sent, the queue exported, the
service gone, and no host but the service's own ever asked for anything. Every host name but 127.0.0.1 fails to
resolve in this browser, as on a closed event network. The page's element ids follow its contract (the desk page's
contract shared by the page and these tests). A screenshot of each scenario is saved under test-artefacts/desk/."""

from __future__ import annotations

import contextlib
import csv
import datetime
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import segno
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests import browser, served
from tests.browser import console_errors, foreign, screenshot, sent_requests
from tests.decks import EVENT, EXTRA, MAIN_40, SIDE, main_with

pytestmark = pytest.mark.browser

browser.skip_without_chromium()

WAIT = 15  # seconds any one thing the page does may take
POT_OF_GREED = main_with({"passcode": 55144522}, drop=1)  # the legal deck with Pot of Greed for a Magical Dimension
PENALTY_WORDS = {"duel_forfeiture": "デュエルの敗北"}  # the words the Japanese page gives the penalties used here
NEXT_DUEL = "次のデュエル"  # when a penalty found at registration applies (PR 1.C)
CHECKING = "確認しています"  # what the verdict area says while a check is in flight
NO_DECK = "このコードにはデッキがありません"  # what the page says of a scanned or pictured code that is no ydke link
LOCAL_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d")  # 2008-06-01T10:15:00+09:00
RULE_CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")  # how a rule code reads in a summary: forbidden_card
# One read of everything the verdict shows: its state and heading, the overall penalty, each violation's parts and
# each line of the checked text with its number and whether it is marked as offending.
READ_VERDICT = """
const text = (element) => (element ? element.innerText.trim() : null);
const verdict = document.getElementById("verdict");
return {
  state: verdict.dataset.state,
  heading: text(verdict.querySelector("h1, h2, h3")),
  penalty: text(document.getElementById("verdict-penalty")),
  violations: Array.from(document.querySelectorAll("#violations li.violation"), (li) => ({
    code: li.dataset.code,
    message: text(li.querySelector(".message")),
    rule: text(li.querySelector(".rule")),
    penalty: text(li.querySelector(".penalty")),
    remedy: text(li.querySelector(".remedy")),
  })),
  lines: Array.from(document.querySelectorAll("#source span.line"), (span) => ({
    number: Number(span.dataset.line),
    text: span.innerText,
    offending: span.classList.contains("offending"),
  })),
};
"""
# Set a form control as a script would, telling the page's listeners of both kinds.
SET_VALUE = """
const control = document.getElementById(arguments[0]);
control.value = arguments[1];
control.dispatchEvent(new Event("input", {bubbles: true}));
control.dispatchEvent(new Event("change", {bubbles: true}));
"""
SHOWN = "const e = document.getElementById(arguments[0]); return Boolean(e && e.checkVisibility());"
SELECTION = (
    "const f = document.getElementById(arguments[0]); return [f.selectionStart, f.selectionEnd, f.value.length];"
)
TEXT = "const e = document.getElementById(arguments[0]); return e && e.checkVisibility() ? e.innerText.trim() : '';"
# Count the requests the page's scripts start, wrapping fetch as the page finds it when it calls it.
# From now on, the requests the page's scripts start are counted (window.deskFetches) and held until the test lets
# them go: a request stays in flight for as long as staff need to act, however busy the machine. A held request still
# ends when the page aborts it, as it would on the network.
HOLD_FETCHES = """
const fetchAsGiven = window.fetch;
window.deskFetches = 0;
window.deskHold = new Promise((release) => { window.deskRelease = release; });
window.fetch = (resource, options) => {
  window.deskFetches += 1;
  const signal = options && options.signal;
  const aborted = new Promise((resolve) => signal && signal.addEventListener("abort", resolve, { once: true }));
  return Promise.race([window.deskHold, aborted]).then(() => fetchAsGiven(resource, options));
};
"""
# Note, from now on, every change of text in a live region (aria-live, role status or alert), and whether the region
# was rendered, and not inert, at the frame before: a region that appears with its text, or changes inside a hidden
# or inert element, is not announced by screen readers (they learn of a live region only once it is rendered).
RECORD_ANNOUNCEMENTS = """
window.announced = [];
const live = "[aria-live], [role=status], [role=alert]";
let rendered = new Set();
const frame = () => {
  const regions = Array.from(document.querySelectorAll(live));
  rendered = new Set(regions.filter((r) => r.checkVisibility() && !r.closest("[inert]")));
  requestAnimationFrame(frame);
};
frame();
new MutationObserver((records) => {
  for (const record of records) {
    const node = record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement;
    const region = node && node.closest(live);
    if (region && region.textContent.trim()) {
      window.announced.push({text: region.textContent.trim(), rendered: rendered.has(region)});
    }
  }
}).observe(document.body, {subtree: true, childList: true, characterData: true});
"""


@dataclass(frozen=True, slots=True)
class ShownViolation:
    """One `li.violation` as the page shows it."""

    code: str
    message: str | None
    rule: str | None
    penalty: str | None
    remedy: str | None


@dataclass(frozen=True, slots=True)
class ShownLine:
    """One `span.line` of `#source`: its 1-based number, its text and whether it is marked `.offending`."""

    number: int
    text: str
    offending: bool


@dataclass(frozen=True, slots=True)
class Shown:
    """What the verdict shows."""

    state: str
    heading: str | None
    penalty: str | None
    violations: list[ShownViolation]
    lines: list[ShownLine]

    @property
    def codes(self) -> list[str]:
        """The codes of the violations shown, in order."""
        return [v.code for v in self.violations]

    @property
    def offending(self) -> list[tuple[int, str]]:
        """The numbers and texts of the lines marked as offending."""
        return [(line.number, line.text) for line in self.lines if line.offending]


@dataclass(frozen=True, slots=True)
class Check:
    """The one POST /v1/validate the page sent for a check (its JSON body) and the API's answer to the same request,
    sent again from outside the browser."""

    body: dict[str, Any]
    answer: dict[str, Any]
    language: str | None

    @property
    def codes(self) -> list[str]:
        """The codes of the API's violations, in order."""
        return [v["code"] for v in self.answer["violations"]]


@dataclass(frozen=True, slots=True)
class Decks:
    """The decks the scenarios submit, written by the API's own writers: text lists with Japanese names, as a
    Japanese desk receives them, and a ydke link."""

    legal_text: str
    pot_text: str
    pot_ydke: str
    legal_ydke: str


class Desk:
    """The desk page in the module's browser, loaded afresh on the service at `origin`."""

    def __init__(self, driver: webdriver.Chrome, origin: str) -> None:
        self.driver = driver
        self.origin = origin

    def open(self) -> None:
        """Forget everything the page kept (settings, queue) and the browser logged, load /desk, wait until
        it has read the lists from the API, and set the event date to EVENT."""
        self.driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"})
        sent_requests(self.driver)
        console_errors(self.driver)
        self.driver.get(f"{self.origin}/desk")
        self.wait_until_ready()
        self.driver.execute_script(SET_VALUE, "event-date", EVENT)

    def wait_until_ready(self) -> None:
        """Wait until the page has filled `#event-banlist` from GET /v1/banlists (its first option is "in force")."""
        script = "return document.querySelectorAll('#event-banlist option').length;"
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(script) > 1)

    def paste(self, element_id: str, text: str) -> None:
        """Put `text` into a field as a paste does: the field focused, the text inserted through the browser's input
        pipeline (the page gets its input events)."""
        self.driver.find_element(By.ID, element_id).click()
        self.driver.execute_cdp_cmd("Input.insertText", {"text": text})

    def keys(self, *keys: str) -> None:
        """Press `keys` on whatever has the focus, as a keyboard does."""
        ActionChains(self.driver).send_keys(*keys).perform()

    def shown(self, element_id: str) -> bool:
        """Whether the element is on the page and rendered."""
        return bool(self.driver.execute_script(SHOWN, element_id))

    def verdict(self) -> Shown:
        """Wait until the verdict is shown with a state, then read it."""
        script = "const v = document.getElementById('verdict'); return v && v.checkVisibility() && v.dataset.state;"
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(script) in ("legal", "illegal", "error"))
        read = self.driver.execute_script(READ_VERDICT)
        return Shown(
            state=read["state"],
            heading=read["heading"],
            penalty=read["penalty"],
            violations=[ShownViolation(**v) for v in read["violations"]],
            lines=[ShownLine(**line) for line in read["lines"]],
        )

    def close_verdict(self) -> None:
        """Close the verdict with `#verdict-close` and wait until it is gone."""
        self.driver.find_element(By.ID, "verdict-close").click()
        WebDriverWait(self.driver, WAIT).until(lambda _: not self.shown("verdict"))

    def focused_after_waiting_for(self, element_id: str) -> str | None:
        """The id of the focused element once it is `element_id`, or whatever has the focus when the wait ends."""
        with contextlib.suppress(TimeoutException):
            WebDriverWait(self.driver, WAIT).until(lambda _: self.focused() == element_id)
        return self.focused()

    def focused(self) -> str | None:
        """The id of the element with the focus (None for one without an id)."""
        return self.driver.switch_to.active_element.get_attribute("id") or None

    def check_sent(self) -> Check:
        """The one POST /v1/validate the page sent since the last look, and the API's answer to the same request."""
        url = f"{self.origin}/v1/validate"
        posts = [r for r in sent_requests(self.driver) if (r.method, r.url) == ("POST", url)]
        assert len(posts) == 1, posts
        (post,) = posts
        assert post.body is not None
        language = post.headers.get("Accept-Language")
        headers = {"Content-Type": "application/json"} | ({"Accept-Language": language} if language else {})
        answer = httpx.post(url, content=post.body.encode(), headers=headers, timeout=30)
        assert answer.status_code == 200, answer.text
        return Check(json.loads(post.body), answer.json(), answer.headers.get("Content-Language"))

    def posts(self) -> list[dict[str, Any]]:
        """The JSON bodies of the POST /v1/validate the page sent since the last look, in order."""
        url = f"{self.origin}/v1/validate"
        return [json.loads(r.body or "null") for r in sent_requests(self.driver) if (r.method, r.url) == ("POST", url)]

    def ctrl_enter(self) -> None:
        """Press Ctrl+Enter on whatever has the focus."""
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()

    def value(self, element_id: str) -> str:
        """The value of a form field."""
        return str(self.driver.execute_script("return document.getElementById(arguments[0]).value;", element_id))

    def text(self, element_id: str) -> str:
        """The text an element shows (empty when it is not rendered)."""
        return str(self.driver.execute_script(TEXT, element_id))

    def selection(self, element_id: str) -> tuple[int, int, int]:
        """A text field's selection start and end, and the length of its value."""
        start, end, length = self.driver.execute_script(SELECTION, element_id)
        return start, end, length

    def marked(self, element_id: str) -> list[int]:
        """The numbers of the lines marked as offending in a list of the verdict (#source or #roster-source)."""
        script = "return Array.from(document.querySelectorAll(`#${arguments[0]} .offending`), (s) => +s.dataset.line);"
        return list(self.driver.execute_script(script, element_id))

    @contextlib.contextmanager
    def fetches_held(self) -> Iterator[None]:
        """Within the block, every request the page's scripts start is counted and held; they go on at its end."""
        self.driver.execute_script(HOLD_FETCHES)
        try:
            yield
        finally:
            self.driver.execute_script("window.deskRelease();")

    def wait_until_fetching(self, count: int = 1) -> None:
        """Wait until the page's scripts have started `count` requests within `fetches_held`."""
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script("return window.deskFetches;") >= count)

    def wait_for_state(self, state: str) -> Shown:
        """Wait until the verdict shows `state`, then read it."""
        script = "const v = document.getElementById('verdict'); return v && v.checkVisibility() && v.dataset.state;"
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(script) == state)
        return self.verdict()

    def queue(self) -> list[list[str]]:
        """The cells of each `#queue tbody tr`, top to bottom."""
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#queue tbody tr")
        return [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td, th")] for row in rows]


def validate(origin: str, body: dict[str, Any]) -> dict[str, Any]:
    """The API's answer, in Japanese, to POST /v1/validate with `body`."""
    answer = httpx.post(f"{origin}/v1/validate", json=body, headers={"Accept-Language": "ja"}, timeout=30)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def convert(origin: str, body: dict[str, Any]) -> str:
    """The deck in `body` written by POST /v1/decks/convert."""
    answer = httpx.post(f"{origin}/v1/decks/convert", json=body, timeout=30)
    assert answer.status_code == 200, answer.text
    content: str = answer.json()["content"]
    return content


def qr_png(origin: str, link: str) -> bytes:
    """The service's QR code of a ydke link, as PNG."""
    image = httpx.post(
        f"{origin}/v1/decks/convert", json={"ydke": link, "to": "qr"}, headers={"Accept": "image/png"}, timeout=30
    )
    assert (image.status_code, image.headers.get("Content-Type")) == (200, "image/png"), image.text
    assert image.content.startswith(b"\x89PNG\r\n\x1a\n")
    return image.content


def qr_svg(origin: str, link: str) -> bytes:
    """The service's QR code of a ydke link, as it draws it by default: SVG."""
    image = httpx.post(f"{origin}/v1/decks/convert", json={"ydke": link, "to": "qr"}, timeout=30)
    assert (image.status_code, image.headers.get("Content-Type")) == (200, "image/svg+xml"), image.text
    assert b"<svg" in image.content
    return image.content


def shown_as(violations: list[ShownViolation]) -> list[tuple[str, str | None, str | None]]:
    """Each violation shown as (code, message, remedy), to hold against the API's."""
    return [(v.code, v.message, v.remedy) for v in violations]


def answered_as(answer: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    """Each violation of an API answer as (code, message, remedy)."""
    return [(v["code"], v["message"], v["remedy"]) for v in answer["violations"]]


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser saves what the page downloads."""
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory, downloads: Path) -> Iterator[webdriver.Chrome]:
    """The module's one browser: only 127.0.0.1 resolves, downloads go to `downloads` without asking, and its network
    events and console are kept for `sent_requests` and `console_errors`."""
    prefs = {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    driver = browser.start(tmp_path_factory.mktemp("chromium"), [browser.ONLY_LOOPBACK], prefs=prefs, logs=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def decks(base_url: str) -> Decks:
    """The legal deck and the one with Pot of Greed as Japanese text lists and as ydke links."""
    legal = {"main": MAIN_40, "extra": EXTRA, "side": SIDE}
    pot = {"main": POT_OF_GREED, "extra": EXTRA, "side": SIDE}
    return Decks(
        legal_text=convert(base_url, {**legal, "to": "text", "names": "ja"}),
        pot_text=convert(base_url, {**pot, "to": "text", "names": "ja"}),
        pot_ydke=convert(base_url, {**pot, "to": "ydke"}),
        legal_ydke=convert(base_url, {**legal, "to": "ydke"}),
    )


@pytest.fixture
def desk(chromium: webdriver.Chrome, base_url: str) -> Desk:
    """The desk page, fresh: nothing kept from an earlier test, the event date set to EVENT."""
    page = Desk(chromium, base_url)
    page.open()
    return page


def test_a_legal_deck_pasted_as_a_text_list_is_legal(desk: Desk, decks: Decks) -> None:
    desk.paste("submission", decks.legal_text)
    desk.driver.find_element(By.ID, "check").click()
    shown = desk.verdict()
    focused = desk.focused_after_waiting_for("verdict")  # the dialog, for a screen reader to read its name
    screenshot(desk.driver, "desk", "1-legal")
    check = desk.check_sent()

    assert (check.body.get("text"), check.body.get("date")) == (decks.legal_text, EVENT)
    assert (check.answer["legal"], check.answer["violations"], check.language) == (True, [], "ja")
    assert (shown.state, shown.heading, shown.violations) == ("legal", "合法", [])
    assert [(line.number, line.text) for line in shown.lines] == list(enumerate(decks.legal_text.splitlines(), 1))
    assert shown.offending == []
    assert focused == "verdict"


def test_a_name_a_player_spelled_loosely_is_legal_and_shown_for_staff_to_compare(desk: Desk, decks: Decks) -> None:
    typed = decks.legal_text.replace("3 ブラック・マジシャン\n", "・ぶらっくまじしゃん×3\n", 1)
    assert typed != decks.legal_text
    desk.paste("submission", typed)
    desk.driver.find_element(By.ID, "check").click()
    shown = desk.verdict()
    screenshot(desk.driver, "desk", "1-loose-name")
    check = desk.check_sent()
    (read,) = check.answer["read_loosely"]

    assert (check.answer["legal"], shown.state, read["typed"], read["name"]) == (
        True,
        "legal",
        "ぶらっくまじしゃん",
        "ブラック・マジシャン",
    )
    box = desk.driver.find_element(By.ID, "loose-box")
    assert box.is_displayed()
    assert [li.text for li in box.find_elements(By.TAG_NAME, "li")] == [read["message"]]
    assert "表記ゆれ" in box.find_element(By.TAG_NAME, "h3").text


def test_pot_of_greed_in_a_text_list_is_forbidden_on_its_line(desk: Desk, decks: Decks) -> None:
    desk.paste("submission", decks.pot_text)
    ActionChains(desk.driver).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    shown = desk.verdict()
    screenshot(desk.driver, "desk", "2-pot-of-greed")
    check = desk.check_sent()
    (violation,) = check.answer["violations"]
    lines = decks.pot_text.splitlines()

    assert (check.body.get("text"), check.body.get("date")) == (decks.pot_text, EVENT)
    assert (check.answer["penalty"], check.codes, violation["lines"]) == ("duel_forfeiture", ["forbidden_card"], [16])
    assert (shown.state, shown.heading) == ("illegal", "違反")
    assert shown.penalty is not None
    assert PENALTY_WORDS["duel_forfeiture"] in shown.penalty
    assert NEXT_DUEL in shown.penalty
    assert shown_as(shown.violations) == answered_as(check.answer)
    (item,) = shown.violations
    assert item.rule is not None
    assert violation["rule"] in item.rule
    assert item.penalty is not None
    assert PENALTY_WORDS[violation["penalty"]] in item.penalty
    assert [(line.number, line.text) for line in shown.lines] == list(enumerate(lines, 1))
    assert shown.offending == [(16, lines[15])]
    assert lines[15] == "1 強欲な壺"


def test_a_qr_code_made_by_the_service_is_read_and_checked_as_its_ydke_link(
    desk: Desk, decks: Decks, base_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "deck.png"
    path.write_bytes(qr_png(base_url, decks.pot_ydke))
    direct = validate(base_url, {"ydke": decks.pot_ydke, "date": EVENT})

    desk.driver.find_element(By.ID, "qr-file").send_keys(str(path))
    shown = desk.verdict()
    screenshot(desk.driver, "desk", "3-qr-code")
    scanned = desk.driver.find_element(By.ID, "scan").get_attribute("value")
    check = desk.check_sent()

    assert scanned == decks.pot_ydke
    assert check.body.get("ydke") == decks.pot_ydke
    assert (direct["penalty"], [v["code"] for v in direct["violations"]]) == ("duel_forfeiture", ["forbidden_card"])
    assert shown.state == "illegal"
    assert shown_as(shown.violations) == answered_as(direct)
    assert shown.penalty is not None
    assert PENALTY_WORDS[direct["penalty"]] in shown.penalty


def test_a_card_swapped_against_the_roster_before_the_first_duel_is_a_roster_mismatch(desk: Desk, decks: Decks) -> None:
    # One Dark Magician given away for a Dark Magician Girl: both legal, so the roster is all that is wrong.
    presented = decks.legal_text.replace(
        "3 ブラック・マジシャン\n", "2 ブラック・マジシャン\n1 ブラック・マジシャン・ガール\n", 1
    )
    assert presented != decks.legal_text
    desk.paste("roster-registered", decks.legal_text)
    desk.paste("roster-presented", presented)
    Select(desk.driver.find_element(By.ID, "roster-duel")).select_by_value("1")
    Select(desk.driver.find_element(By.ID, "roster-phase")).select_by_value("registration")
    desk.driver.find_element(By.ID, "roster-check").click()
    shown = desk.verdict()
    screenshot(desk.driver, "desk", "4-roster-mismatch")
    check = desk.check_sent()

    assert (check.body.get("duel"), check.body.get("phase"), check.body.get("date")) == (1, "registration", EVENT)
    assert check.codes == ["roster_mismatch"]
    (mismatch,) = check.answer["violations"]
    assert (mismatch["ctx"]["missing"][0]["name_ja"], mismatch["ctx"]["unregistered"][0]["name_ja"]) == (
        "ブラック・マジシャン",
        "ブラック・マジシャン・ガール",
    )
    assert (shown.state, shown.heading) == ("illegal", "違反")
    assert shown_as(shown.violations) == answered_as(check.answer)
    (item,) = shown.violations
    assert item.message is not None
    assert "「ブラック・マジシャン」" in item.message
    assert "「ブラック・マジシャン・ガール」" in item.message


def test_a_service_that_went_away_is_said_in_words(chromium: webdriver.Chrome, decks: Decks, tmp_path: Path) -> None:
    with served.serving(tmp_path / "stderr.log", {}) as server:
        desk = Desk(chromium, server.url)
        desk.open()
        desk.paste("submission", decks.legal_text)
        server.process.terminate()
        server.process.wait(timeout=30)
        desk.driver.find_element(By.ID, "check").click()
        shown = desk.verdict()
        screenshot(chromium, "desk", "5-service-unreachable")
        error = chromium.find_element(By.ID, "error")
        role, words = error.get_attribute("role"), error.text

    assert (shown.state, shown.heading, shown.violations) == ("error", "確認できませんでした", [])
    assert role == "alert"
    assert "サービスに接続できません" in words
    assert f"{server.url}/v1/validate" in words


def test_the_api_documentation_renders_every_operation_from_the_service_alone(
    chromium: webdriver.Chrome, base_url: str
) -> None:
    document = httpx.get(f"{base_url}/openapi.json", timeout=30).json()
    operations = sorted(
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    )
    sent_requests(chromium)
    console_errors(chromium)
    chromium.get(f"{base_url}/docs")
    count = "return document.querySelectorAll('.opblock').length;"
    with contextlib.suppress(TimeoutException):  # the count is held to the document's below, shown or not
        WebDriverWait(chromium, WAIT).until(lambda d: d.execute_script(count) >= len(operations))
    screenshot(chromium, "desk", "6-docs-offline")
    shown = chromium.execute_script(
        """return Array.from(document.querySelectorAll('.opblock'), (block) => [
          block.querySelector('.opblock-summary-method').innerText.trim(),
          block.querySelector('.opblock-summary-path').dataset.path,
        ]);"""
    )
    sent = sent_requests(chromium)
    errors = console_errors(chromium)

    assert len(operations) == 29  # the operations docs/developers/api.md names
    assert sorted(tuple(operation) for operation in shown) == operations
    assert foreign(sent, base_url) == []
    assert errors == []


def test_the_desk_asks_no_host_but_the_service(desk: Desk, decks: Decks, base_url: str, tmp_path: Path) -> None:
    path = tmp_path / "deck.png"
    path.write_bytes(qr_png(base_url, decks.pot_ydke))

    desk.paste("submission", decks.pot_text)
    desk.driver.find_element(By.ID, "check").click()
    pasted = desk.verdict()
    desk.close_verdict()
    # Chromium on Linux has no BarcodeDetector: the page loads the vendored jsQR now, for its first picture.
    desk.driver.find_element(By.ID, "qr-file").send_keys(str(path))
    scanned = desk.verdict()
    screenshot(desk.driver, "desk", "6-desk-offline")
    sent = sent_requests(desk.driver)
    errors = console_errors(desk.driver)

    assert (pasted.state, scanned.state) == ("illegal", "illegal")
    assert f"{desk.origin}/static/vendor/jsqr-1.4.0/jsQR.js" in [r.url for r in sent]
    assert foreign(sent, desk.origin) == []
    assert errors == []


def test_a_ydke_link_typed_into_the_scan_field_is_checked_with_the_keyboard_alone(desk: Desk, decks: Decks) -> None:
    desk.driver.refresh()
    desk.wait_until_ready()
    kept_date = desk.driver.find_element(By.ID, "event-date").get_attribute("value")
    tabs = 0
    while desk.focused() != "scan" and tabs < 60:
        desk.keys(Keys.TAB)
        tabs += 1
    assert desk.focused() == "scan", f"{tabs} presses of Tab never reached #scan"
    desk.keys(decks.pot_ydke, Keys.ENTER)
    shown = desk.verdict()
    focused_on_verdict = desk.focused_after_waiting_for("verdict")
    screenshot(desk.driver, "desk", "7-keyboard")
    desk.keys(Keys.ESCAPE)
    WebDriverWait(desk.driver, WAIT).until(lambda _: not desk.shown("verdict"))
    focused_after_closing = desk.focused_after_waiting_for("scan")
    selected = desk.selection("scan")
    check = desk.check_sent()

    assert kept_date == EVENT
    assert check.body.get("ydke") == decks.pot_ydke
    assert (shown.state, shown.codes) == ("illegal", check.codes)
    # The verdict is a modal dialog: it has the focus while it is shown, and gives it back to #scan, the link
    # selected for the next scan to replace.
    assert (focused_on_verdict, focused_after_closing) == ("verdict", "scan")
    assert selected == (0, len(decks.pot_ydke), len(decks.pot_ydke))
    assert len(desk.queue()) == 1


# Wait until every check of the queue holds its deck as a ydke link (the page asks the service for it after the
# verdict).
DECKS_KEPT = """
const queue = JSON.parse(localStorage.getItem("deckcheck.desk.queue") || "[]");
return queue.length > 0 && queue.filter((entry) => entry.kind !== "assessment").every((entry) => entry.deck);
"""
CSV_HEADER = [
    "時刻",
    "大会の日付",
    "フォーマット",
    "リミットレギュレーション",
    "プレイヤー",
    "種類",
    "判定",
    "罰則",
    "内容",
]
CSV_HEADER += ["違反の内容", "カード", "デッキ（ydke）"]


def _cards(violation: dict[str, Any]) -> str:
    return "、".join(f"{card['name']} ×{card['count']}" for card in violation["cards"])


def _assess_tardiness(desk: Desk) -> dict[str, Any]:
    """Assess 6 minutes' tardiness before a duel in the assessor; the API's answer to what the page sent."""
    _fill(desk, {"assess-code": "tardiness", "assess-minutes": "6", "assess-timing": "between_duels"})
    desk.driver.find_element(By.ID, "assess").click()
    WebDriverWait(desk.driver, WAIT).until(lambda _d: desk.text("assessment"))
    (assessed,) = [_answer(desk, "/v1/penalties/assess", body) for body in _posted(desk, "/v1/penalties/assess")]
    return assessed


def test_the_queue_names_what_was_found_in_words_and_exports_the_event_day(
    desk: Desk, decks: Decks, downloads: Path
) -> None:
    """A legal deck, then the next player's deck with Pot of Greed, their roster check before duel 2 and a penalty
    for tardiness: the table says each in words, and the CSV file, named by the event day, carries the event, the
    player, the verdict, the penalty, each violation's message and cards, and the deck as a ydke link."""
    desk.paste("player", "山田 太郎")
    desk.paste("submission", decks.legal_text)
    desk.driver.find_element(By.ID, "check").click()
    desk.verdict()
    legal = desk.check_sent()
    desk.close_verdict()
    desk.driver.find_element(By.ID, "player-clear").click()
    desk.paste("player", "No. 2")
    desk.driver.find_element(By.ID, "submission").clear()
    desk.paste("submission", decks.pot_text)
    desk.driver.find_element(By.ID, "check").click()
    desk.verdict()
    pot = desk.check_sent()
    desk.close_verdict()
    presented = decks.legal_text.replace(
        "3 ブラック・マジシャン\n", "2 ブラック・マジシャン\n1 ブラック・マジシャン・ガール\n", 1
    )
    desk.paste("roster-registered", decks.legal_text)
    desk.paste("roster-presented", presented)
    Select(desk.driver.find_element(By.ID, "roster-duel")).select_by_value("2")
    desk.driver.find_element(By.ID, "roster-check").click()
    desk.verdict()
    roster = desk.check_sent()
    desk.close_verdict()
    assessed = _assess_tardiness(desk)
    WebDriverWait(desk.driver, WAIT).until(lambda d: d.execute_script(DECKS_KEPT))
    rows = desk.queue()
    desk.driver.execute_script("document.getElementById('queue').scrollIntoView();")
    screenshot(desk.driver, "desk", "8-queue")
    name = f"deckcheck-{EVENT}.csv"
    desk.driver.find_element(By.ID, "queue-export").click()
    # Written in place on a busy machine: the file may stand empty a moment before its bytes arrive.
    WebDriverWait(desk.driver, WAIT).until(lambda _: (downloads / name).exists() and (downloads / name).stat().st_size)
    exported = (downloads / name).read_bytes()
    links = [convert(desk.origin, {"text": text, "to": "ydke"}) for text in (presented, decks.pot_text)]
    links.append(convert(desk.origin, {"text": decks.legal_text, "to": "ydke"}))

    (forbidden,), (mismatch,) = pot.answer["violations"], roster.answer["violations"]
    penalty = "デュエルの敗北（次のデュエル）"
    assert legal.answer["legal"]
    assert [row[1:] for row in rows] == [
        ["No. 2", "罰則の判定", penalty, "指定の時間の5分後に指定の席にいなかった"],
        ["No. 2", "違反", penalty, "デッキ内容がデッキ記入シートと一致しない"],
        ["No. 2", "違反", penalty, "禁止カードがデッキ・エクストラデッキ・サイドデッキに入っている"],
        ["山田 太郎", "合法", "—", ""],
    ]
    assert exported.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(exported.decode("utf-8-sig"), newline="")))
    event = [EVENT, "OCG", "OCG 2008.03"]
    assert [row[1:] for row in table] == [
        CSV_HEADER[1:],
        [
            *event,
            "No. 2",
            "罰則の判定",
            "罰則の判定",
            penalty,
            rows[0][4],
            f"{assessed['summary']} {assessed['applies_to_text']}",
            "",
            "",
        ],
        [
            *event,
            "No. 2",
            "デッキ記入シートとの照合",
            "違反",
            penalty,
            rows[1][4],
            mismatch["message"],
            _cards(mismatch),
            links[0],
        ],
        [
            *event,
            "No. 2",
            "提出されたデッキ",
            "違反",
            penalty,
            rows[2][4],
            forbidden["message"],
            _cards(forbidden),
            links[1],
        ],
        [*event, "山田 太郎", "提出されたデッキ", "合法", "—", "", "", "", links[2]],
    ]
    assert _cards(forbidden) == "強欲な壺 ×1"
    assert table[0][0] == "時刻"
    # The table's time column is the time of day; the file's, the full local date and time with its offset, so that
    # the record of a day that runs past midnight, or is read elsewhere, stands on its own.
    offset = datetime.timedelta(minutes=-desk.driver.execute_script("return new Date().getTimezoneOffset();"))
    for written, row in zip(table[1:], rows, strict=True):
        assert LOCAL_ISO.fullmatch(written[0]), written[0]
        when = datetime.datetime.fromisoformat(written[0])
        assert when.utcoffset() == offset
        assert when.date() == datetime.date.today()
        assert when.strftime("%H:%M:%S") == row[0]


def test_the_page_speaks_english_when_asked_and_keeps_the_choice(desk: Desk, decks: Decks) -> None:
    html = desk.driver.find_element(By.TAG_NAME, "html")
    desk.driver.find_element(By.ID, "lang").click()
    WebDriverWait(desk.driver, WAIT).until(lambda _: html.get_attribute("lang") == "en")
    desk.driver.refresh()
    desk.wait_until_ready()
    kept = desk.driver.find_element(By.TAG_NAME, "html").get_attribute("lang")
    desk.paste("submission", decks.pot_text)
    desk.driver.find_element(By.ID, "check").click()
    shown = desk.verdict()
    screenshot(desk.driver, "desk", "9-english")
    check = desk.check_sent()
    desk.close_verdict()
    desk.driver.find_element(By.ID, "lang").click()
    WebDriverWait(desk.driver, WAIT).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja")
    reopened = desk.shown("verdict")
    screenshot(desk.driver, "desk", "9-back-to-japanese")

    assert kept == "en"
    assert (check.language, check.codes) == ("en", ["forbidden_card"])
    assert (shown.state, shown.heading) == ("illegal", "Illegal")
    assert shown_as(shown.violations) == answered_as(check.answer)
    assert shown.penalty is not None
    assert "Duel forfeiture" in shown.penalty
    assert not reopened, "switching the language brought back the verdict that had been closed"


# ---- What a busy desk does: the next list, the next player, a scan during a check, pictures and codes that hold
# no deck, errors in the registered list, the keyboard and screen readers, the records kept and the slip printed.


def test_the_next_list_pasted_after_a_check_replaces_the_one_checked(desk: Desk, decks: Decks) -> None:
    desk.paste("submission", decks.legal_text)
    desk.ctrl_enter()
    first = desk.verdict()
    desk.keys(Keys.ESCAPE)
    focused = desk.focused_after_waiting_for("submission")
    selected = desk.selection("submission")
    # Ctrl+V into the field with the focus, as staff paste the next player's list.
    desk.driver.execute_cdp_cmd("Input.insertText", {"text": decks.pot_text})
    desk.ctrl_enter()
    second = desk.wait_for_state("illegal")
    screenshot(desk.driver, "desk", "10-next-list")
    posts = desk.posts()

    assert (first.state, focused) == ("legal", "submission")
    assert selected == (0, len(decks.legal_text), len(decks.legal_text))
    assert [post.get("text") for post in posts] == [decks.legal_text, decks.pot_text]
    assert (second.codes, len(second.lines)) == (["forbidden_card"], len(decks.pot_text.splitlines()))


def test_the_player_stays_through_their_duels_until_staff_clear_it(desk: Desk, decks: Decks) -> None:
    """A player's deck at registration, then their roster check before duel 2: both under their name; after
    次のプレイヤー, the next check is nobody's until a name is typed."""
    desk.paste("player", "山田 太郎")
    desk.paste("submission", decks.legal_text)
    desk.driver.find_element(By.ID, "check").click()
    desk.verdict()
    header = desk.text("verdict-player")
    screenshot(desk.driver, "desk", "11-player-on-verdict")
    desk.close_verdict()
    kept = desk.value("player")
    desk.paste("roster-registered", decks.legal_text)
    desk.paste("roster-presented", decks.legal_text)
    Select(desk.driver.find_element(By.ID, "roster-duel")).select_by_value("2")
    Select(desk.driver.find_element(By.ID, "roster-phase")).select_by_value("between_duels")
    desk.driver.find_element(By.ID, "roster-check").click()
    desk.wait_for_state("legal")
    duel_2 = desk.text("verdict-player")
    desk.close_verdict()
    desk.driver.find_element(By.ID, "player-clear").click()
    cleared, focused = desk.value("player"), desk.focused()
    desk.driver.find_element(By.ID, "submission").clear()
    desk.paste("submission", decks.pot_text)
    desk.ctrl_enter()
    desk.wait_for_state("illegal")
    unnamed = desk.text("verdict-player")
    desk.close_verdict()

    assert [row[1:3] for row in desk.queue()] == [["", "違反"], ["山田 太郎", "合法"], ["山田 太郎", "合法"]]
    assert kept == "山田 太郎"
    assert "山田 太郎" in header
    assert "山田 太郎" in duel_2
    assert (cleared, focused) == ("", "player")
    assert unnamed == "プレイヤー名なし"


def test_the_player_is_the_one_typed_when_the_check_started(desk: Desk, decks: Decks) -> None:
    desk.paste("player", "No. 1")
    desk.paste("submission", decks.legal_text)
    with desk.fetches_held():
        desk.driver.find_element(By.ID, "check").click()
        desk.wait_until_fetching()
        # The next player's name, typed while the check is in flight.
        desk.driver.execute_script(SET_VALUE, "player", "No. 2")
    shown = desk.verdict()
    header = desk.text("verdict-player")
    desk.close_verdict()

    assert shown.state == "legal"
    assert [row[1:3] for row in desk.queue()] == [["No. 1", "合法"]]
    assert "No. 1" in header
    assert desk.value("player") == "No. 2"  # the next player's name is kept for the next check


def test_a_code_scanned_during_a_check_is_kept_and_never_shown_the_first_verdict(desk: Desk, decks: Decks) -> None:
    desk.driver.find_element(By.ID, "scan").click()
    with desk.fetches_held():
        desk.keys(decks.pot_ydke, Keys.ENTER)
        desk.wait_until_fetching()
        desk.keys(decks.legal_ydke, Keys.ENTER)  # the next player's code, while the first is checked
        during = desk.text("verdict")
        screenshot(desk.driver, "desk", "12-scan-during-a-check")
    first = desk.wait_for_state("illegal")
    screenshot(desk.driver, "desk", "12-first-verdict-next-code-kept")
    # The first verdict is the first code's, and says that the second is kept unchecked.
    assert desk.value("scan") == decks.legal_ydke
    assert CHECKING in during
    assert [post.get("ydke") for post in desk.posts()] == [decks.pot_ydke]
    assert (first.codes, [line.text for line in first.lines]) == (["forbidden_card"], [decks.pot_ydke])
    assert "Enter" in desk.text("verdict-notice")
    # Screen readers are told both: the verdict, and the deck kept.
    said = "const s = document.querySelector('#verdict [role=status]'); return s ? s.textContent : '';"
    WebDriverWait(desk.driver, WAIT).until(lambda d: "違反" in d.execute_script(said))
    assert "Enter" in desk.driver.execute_script(said)
    desk.keys(Keys.ENTER)  # "press Enter again"
    second = desk.wait_for_state("legal")
    sent_second = desk.posts()
    screenshot(desk.driver, "desk", "12-second-verdict")
    desk.close_verdict()

    assert [post.get("ydke") for post in sent_second] == [decks.legal_ydke]
    assert [line.text for line in second.lines] == [decks.legal_ydke]
    assert [row[2] for row in desk.queue()] == ["合法", "違反"]


def test_the_next_code_scanned_over_a_verdict_is_checked_in_its_place(desk: Desk, decks: Decks) -> None:
    desk.paste("scan", decks.pot_ydke)
    desk.keys(Keys.ENTER)
    first = desk.verdict()
    desk.keys(decks.legal_ydke, Keys.ENTER)  # the scanner, with the verdict still shown and the page under it inert
    second = desk.wait_for_state("legal")
    posts = desk.posts()
    desk.close_verdict()

    assert first.state == "illegal"
    assert [post.get("ydke") for post in posts] == [decks.pot_ydke, decks.legal_ydke]
    assert [line.text for line in second.lines] == [decks.legal_ydke]
    assert desk.value("scan") == decks.legal_ydke
    assert [row[2] for row in desk.queue()] == ["合法", "違反"]


def test_escape_during_a_check_stops_it_and_nothing_is_recorded(desk: Desk, decks: Decks) -> None:
    desk.paste("player", "No. 1")
    desk.paste("scan", decks.pot_ydke)
    with desk.fetches_held():
        desk.keys(Keys.ENTER)
        desk.wait_until_fetching()
        during = desk.text("verdict")
        desk.keys(Keys.ESCAPE)
        WebDriverWait(desk.driver, WAIT).until(lambda _: not desk.shown("verdict"))
        focused = desk.focused_after_waiting_for("scan")
    # Long enough for the answer to have come, had the request not been stopped.
    with contextlib.suppress(TimeoutException):
        WebDriverWait(desk.driver, 3).until(lambda _: desk.shown("verdict"))
    reopened = desk.shown("verdict")

    assert CHECKING in during
    assert "No. 1" in during
    assert (focused, reopened) == ("scan", False)
    assert desk.queue() == []
    assert desk.value("player") == "No. 1"  # the check was not made: its player is still to be checked


def test_a_qr_code_drawn_as_svg_by_the_service_is_read_and_checked(
    desk: Desk, decks: Decks, base_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "deck.svg"
    path.write_bytes(qr_svg(base_url, decks.pot_ydke))

    desk.driver.find_element(By.ID, "qr-file").send_keys(str(path))
    shown = desk.verdict()
    screenshot(desk.driver, "desk", "13-qr-code-svg")
    words = desk.text("verdict")
    scanned = desk.value("scan")
    posts = desk.posts()

    assert (shown.state, shown.codes) == ("illegal", ["forbidden_card"]), words
    assert scanned == decks.pot_ydke
    assert [post.get("ydke") for post in posts] == [decks.pot_ydke]


def test_a_picture_that_cannot_be_read_leaves_no_earlier_link_to_check_again(
    desk: Desk, decks: Decks, tmp_path: Path
) -> None:
    broken = tmp_path / "photo.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n not a picture")
    desk.paste("player", "No. 1")
    desk.paste("scan", decks.legal_ydke)
    desk.keys(Keys.ENTER)
    first = desk.verdict()
    desk.close_verdict()
    desk.driver.find_element(By.ID, "player-clear").click()
    desk.paste("player", "No. 2")
    desk.driver.find_element(By.ID, "qr-file").send_keys(str(broken))
    failed = desk.verdict()
    words = desk.text("error")
    screenshot(desk.driver, "desk", "14-picture-unreadable")
    desk.close_verdict()
    left = desk.value("scan")
    desk.driver.find_element(By.ID, "scan").click()
    desk.keys(Keys.ENTER)  # what staff press next, out of habit
    again = desk.verdict()
    desk.close_verdict()

    assert (first.state, failed.state, again.state) == ("legal", "error", "error")
    assert "画像を読めません" in words
    assert left == ""
    assert [post.get("ydke") for post in desk.posts()] == [decks.legal_ydke]
    assert [row[1:3] for row in desk.queue()] == [["No. 1", "合法"]]


@pytest.mark.parametrize("code", ["https://example.com/entry/0042", "PLAYER-0042"])
def test_a_code_that_holds_no_deck_is_said_so_and_never_checked(desk: Desk, code: str, tmp_path: Path) -> None:
    picture = tmp_path / "code.png"
    segno.make_qr(code).save(str(picture), kind="png", scale=8, border=4)

    desk.paste("scan", code)
    desk.keys(Keys.ENTER)
    scanned = desk.verdict()
    scanned_words = desk.text("verdict")
    screenshot(desk.driver, "desk", "15-scanned-code-without-a-deck")
    desk.close_verdict()
    desk.driver.find_element(By.ID, "qr-file").send_keys(str(picture))
    pictured = desk.verdict()
    pictured_words = desk.text("verdict")
    desk.close_verdict()

    assert (scanned.state, pictured.state) == ("error", "error")
    assert NO_DECK in scanned_words
    assert NO_DECK in pictured_words
    assert desk.posts() == []
    assert desk.queue() == []


def test_an_error_in_the_registered_list_is_marked_on_the_registered_list(desk: Desk, decks: Decks) -> None:
    lines = decks.legal_text.splitlines()
    bad = lines.index("3 ブラック・マジシャン") + 1
    registered = "\n".join(["0 ブラック・マジシャン" if n == bad else line for n, line in enumerate(lines, 1)])
    desk.paste("roster-registered", registered)
    desk.paste("roster-presented", decks.legal_text)
    desk.driver.find_element(By.ID, "roster-check").click()
    shown = desk.verdict()
    words = desk.text("error")
    screenshot(desk.driver, "desk", "16-error-in-the-registered-list")
    marked_registered = desk.marked("roster-source")

    assert shown.state == "error"
    assert shown.offending == []  # the presented deck has nothing wrong
    assert desk.shown("roster-source")
    assert marked_registered == [bad]
    assert f"登録したリスト {bad}行目" in words
    assert "提示されたデッキ" not in words


def test_an_error_in_the_presented_deck_is_marked_on_it_and_named(desk: Desk, decks: Decks) -> None:
    lines = decks.legal_text.splitlines()
    bad = lines.index("3 ブラック・マジシャン") + 1
    presented = "\n".join(["0 ブラック・マジシャン" if n == bad else line for n, line in enumerate(lines, 1)])
    desk.paste("roster-registered", decks.legal_text)
    desk.paste("roster-presented", presented)
    desk.driver.find_element(By.ID, "roster-check").click()
    shown = desk.verdict()
    words = desk.text("error")
    marked_registered = desk.marked("roster-source")

    assert shown.state == "error"
    assert shown.offending == [(bad, "0 ブラック・マジシャン")]
    assert marked_registered == []
    assert f"提示されたデッキ {bad}行目" in words


def test_the_verdict_is_a_modal_dialog_that_keeps_the_focus_and_is_announced(desk: Desk, decks: Decks) -> None:
    desk.driver.execute_script(RECORD_ANNOUNCEMENTS)
    desk.paste("submission", decks.pot_text)
    desk.driver.find_element(By.ID, "check").click()
    shown = desk.verdict()
    dialog = desk.driver.execute_script(
        """const v = document.getElementById("verdict");
        const label = document.getElementById(v.getAttribute("aria-labelledby") || "none");
        return {role: v.getAttribute("role"), modal: v.getAttribute("aria-modal"), label: label && label.innerText,
                page: [document.querySelector("main").inert, document.querySelector("header").inert]};"""
    )
    inside = "return Boolean(document.activeElement.closest('#verdict'));"
    walked = []
    for key in [Keys.TAB] * 8 + [Keys.SHIFT + Keys.TAB] * 8:
        desk.keys(key)
        walked.append((desk.focused(), desk.driver.execute_script(inside)))
    screenshot(desk.driver, "desk", "17-dialog")
    announced = desk.driver.execute_script("return window.announced;")
    said = [a["text"] for a in announced if a["rendered"]]

    assert shown.state == "illegal"
    assert (dialog["role"], dialog["modal"], dialog["label"]) == ("dialog", "true", "違反")
    assert dialog["page"] == [True, True]
    assert [step for step in walked if not step[1]] == [], walked
    assert any("違反" in words and PENALTY_WORDS["duel_forfeiture"] in words for words in said), announced


def test_the_printed_slip_shows_the_checked_list_only_when_a_line_is_marked(desk: Desk, decks: Decks) -> None:
    figure = "return document.getElementById('source').closest('figure').checkVisibility();"
    desk.paste("scan", decks.pot_ydke)
    desk.keys(Keys.ENTER)
    by_link = desk.verdict()
    with browser.printing(desk.driver):
        link_printed = desk.driver.execute_script(figure)
        screenshot(desk.driver, "desk", "18-slip-ydke")
    desk.close_verdict()
    desk.paste("submission", decks.pot_text)
    desk.ctrl_enter()
    by_text = desk.verdict()
    with browser.printing(desk.driver):
        text_printed = desk.driver.execute_script(figure)
        screenshot(desk.driver, "desk", "18-slip-text")

    assert (by_link.state, by_link.offending) == ("illegal", [])
    assert not link_printed
    assert (by_text.state, len(by_text.offending)) == ("illegal", 1)
    assert text_printed


# The judge's tools: the round clock, a time-limit ruling walked through TR 2.C, and the penalty assessor.


def _posted(page: Desk, path: str) -> list[dict[str, Any]]:
    """The JSON bodies the page POSTed to `path` since the last look."""
    url = f"{page.origin}{path}"
    return [json.loads(r.body or "null") for r in sent_requests(page.driver) if (r.method, r.url) == ("POST", url)]


def _answer(page: Desk, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The API's answer, in Japanese as the page asks, to the body the page sent."""
    answer = httpx.post(f"{page.origin}{path}", json=body, headers={"Accept-Language": "ja"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _fill(page: Desk, values: dict[str, str]) -> None:
    for element_id, value in values.items():
        page.driver.execute_script(SET_VALUE, element_id, value)


def _wait_for_text(page: Desk, element_id: str, changed_from: str) -> str:
    WebDriverWait(page.driver, WAIT).until(lambda _d: page.text(element_id) not in ("", changed_from))
    return page.text(element_id)


def test_the_round_clock_runs_pauses_and_resets(desk: Desk) -> None:
    assert desk.text("clock") == "40:00"
    desk.driver.find_element(By.ID, "clock-start").click()
    WebDriverWait(desk.driver, WAIT).until(lambda _d: desk.text("clock") == "39:59")
    desk.driver.find_element(By.ID, "clock-start").click()  # pause
    paused = desk.text("clock")
    desk.driver.find_element(By.ID, "clock-interval").click()
    interval = desk.text("interval")
    desk.driver.find_element(By.ID, "clock-reset").click()

    assert paused in ("39:59", "39:58")
    assert interval.startswith("インターバル 残り 03:00") or interval.startswith("インターバル 残り 02:59")
    assert desk.text("clock") == "40:00"
    assert not desk.shown("time-limit")  # shown when time is up, or when the judge calls it
    assert console_errors(desk.driver) == []


def test_a_time_limit_ruling_follows_the_procedure_as_it_unfolds(desk: Desk) -> None:
    """Player 2 leads 1–0 and the duel in progress is level after the extra turns: sudden death, won by player 1,
    makes it one each, so 判定2's extra duel decides the match; the page says each next step in turn."""
    desk.driver.find_element(By.ID, "clock-call").click()
    _fill(desk, {"tl-wins-1": "0", "tl-wins-2": "1", "tl-lp-1": "500", "tl-lp-2": "500"})
    desk.driver.find_element(By.ID, "tl-rule").click()
    first = _wait_for_text(desk, "tl-next", "")
    _fill(desk, {"tl-sd-1": "500", "tl-sd-2": "0"})
    desk.driver.find_element(By.ID, "tl-rule").click()
    second = _wait_for_text(desk, "tl-next", first)
    _fill(desk, {"tl-xlp-1": "8000", "tl-xlp-2": "7000"})
    desk.driver.find_element(By.ID, "tl-rule").click()
    third = _wait_for_text(desk, "tl-next", second)
    steps = [li.text for li in desk.driver.find_elements(By.CSS_SELECTOR, "#tl-steps li")]
    screenshot(desk.driver, "desk", "judge-time-limit")
    sent = _posted(desk, "/v1/matches/time-limit")
    answers = [_answer(desk, "/v1/matches/time-limit", body) for body in sent]

    assert [a["next_step"]["code"] if a["next_step"] else None for a in answers] == ["sudden_death", "extra_duel", None]
    assert first == f"次の手順：{answers[0]['next_step']['text']}"
    assert second == f"次の手順：{answers[1]['next_step']['text']}"
    assert third == "マッチの勝者：プレイヤー1"
    assert steps == [step["text"] for step in answers[2]["steps"]]
    assert sent[2] == {
        "wins": [0, 1],
        "in_duel": True,
        "duel": {"life_points": [500, 500], "sudden_death": [500, 0]},
        "extra_duel": {"life_points": [8000, 7000]},
    }


def test_the_assessor_asks_only_what_the_infraction_depends_on(desk: Desk) -> None:
    code = Select(desk.driver.find_element(By.ID, "assess-code"))
    WebDriverWait(desk.driver, WAIT).until(lambda _d: len(code.options) > 30)
    code.select_by_value("tardiness")
    minutes_asked, intent_asked = desk.shown("assess-minutes-box"), desk.shown("assess-intentional-box")
    _fill(desk, {"assess-minutes": "6", "assess-timing": "between_duels", "assess-prior": "1"})
    desk.driver.find_element(By.ID, "assess").click()
    WebDriverWait(desk.driver, WAIT).until(lambda _d: desk.text("assessment"))
    shown = desk.text("assessment")
    screenshot(desk.driver, "desk", "judge-assessor")
    (body,) = _posted(desk, "/v1/penalties/assess")
    answer = _answer(desk, "/v1/penalties/assess", body)
    code.select_by_value("marked_cards_unintentional")

    assert (minutes_asked, intent_asked) == (True, False)
    assert desk.shown("assess-intentional-box")
    assert body == {
        "code": "tardiness",
        "timing": "between_duels",
        "match_decided": False,
        "prior": 1,
        "minutes_late": 6,
    }
    assert answer["code"] == "tardiness_5_minutes"
    assert shown.splitlines()[0] == f"{answer['penalty_name']}: {answer['applies_to_text']}"
    assert "次のデュエル" in shown
    assert answer["escalations"][0]["text"] in shown  # the raise the referee may give, said, never applied
    assert console_errors(desk.driver) == []
