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
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests import browser, served
from tests.browser import console_errors, foreign, screenshot, sent_requests
from tests.decks import EVENT, EXTRA, MAIN_40, SIDE, main_with

browser.skip_without_chromium()

WAIT = 15  # seconds any one thing the page does may take
POT_OF_GREED = main_with({"passcode": 55144522}, drop=1)  # the legal deck with Pot of Greed for a Magical Dimension
PENALTY_WORDS = {"duel_forfeiture": "デュエルの敗北"}  # the words the Japanese page gives the penalties used here
NEXT_DUEL = "次のデュエル"  # when a penalty found at registration applies (PR 1.C)
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
    """The legal deck and the one with Pot of Greed as Japanese text lists, and the latter as a ydke link."""
    legal = {"main": MAIN_40, "extra": EXTRA, "side": SIDE}
    pot = {"main": POT_OF_GREED, "extra": EXTRA, "side": SIDE}
    return Decks(
        legal_text=convert(base_url, {**legal, "to": "text", "names": "ja"}),
        pot_text=convert(base_url, {**pot, "to": "text", "names": "ja"}),
        pot_ydke=convert(base_url, {**pot, "to": "ydke"}),
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
    focused = desk.focused_after_waiting_for("submission")
    screenshot(desk.driver, "desk", "1-legal")
    check = desk.check_sent()

    assert (check.body.get("text"), check.body.get("date")) == (decks.legal_text, EVENT)
    assert (check.answer["legal"], check.answer["violations"], check.language) == (True, [], "ja")
    assert (shown.state, shown.heading, shown.violations) == ("legal", "合法", [])
    assert [(line.number, line.text) for line in shown.lines] == list(enumerate(decks.legal_text.splitlines(), 1))
    assert shown.offending == []
    assert focused == "submission"


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

    assert len(operations) == 14  # the operations the README names
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
    assert f"{desk.origin}/static/vendor/jsqr/jsQR.js" in [r.url for r in sent]
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
    focused_on_verdict = desk.focused_after_waiting_for("scan")
    screenshot(desk.driver, "desk", "7-keyboard")
    desk.keys(Keys.ESCAPE)
    WebDriverWait(desk.driver, WAIT).until(lambda _: not desk.shown("verdict"))
    focused_after_closing = desk.focused_after_waiting_for("scan")
    check = desk.check_sent()

    assert kept_date == EVENT
    assert check.body.get("ydke") == decks.pot_ydke
    assert (shown.state, shown.codes) == ("illegal", check.codes)
    assert (focused_on_verdict, focused_after_closing) == ("scan", "scan")
    assert len(desk.queue()) == 1


def test_the_queue_lists_checks_newest_first_and_exports_them_as_csv(desk: Desk, decks: Decks, downloads: Path) -> None:
    desk.paste("player", "山田 太郎")
    desk.paste("submission", decks.legal_text)
    desk.driver.find_element(By.ID, "check").click()
    first = desk.verdict()
    desk.close_verdict()
    desk.driver.find_element(By.ID, "player").clear()
    desk.paste("player", "No. 2")
    desk.paste("scan", decks.pot_ydke)
    desk.keys(Keys.ENTER)
    second = desk.verdict()
    desk.close_verdict()
    rows = desk.queue()
    header = [cell.text for cell in desk.driver.find_elements(By.CSS_SELECTOR, "#queue thead th")]
    desk.driver.execute_script("document.getElementById('queue').scrollIntoView();")
    screenshot(desk.driver, "desk", "8-queue")
    name = f"deckcheck-queue-{datetime.date.today().isoformat()}.csv"
    desk.driver.find_element(By.ID, "queue-export").click()
    WebDriverWait(desk.driver, WAIT).until(lambda _: (downloads / name).exists())
    exported = (downloads / name).read_bytes()

    assert (first.state, second.state, second.codes) == ("legal", "illegal", ["forbidden_card"])
    assert [(row[1:3], RULE_CODE.findall(row[4])) for row in rows] == [
        (["No. 2", "違反"], ["forbidden_card"]),
        (["山田 太郎", "合法"], []),
    ]
    assert PENALTY_WORDS["duel_forfeiture"] in rows[0][3]
    assert exported.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(exported.decode("utf-8-sig"), newline="")))
    assert table == [header, *rows]


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
