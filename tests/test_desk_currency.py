"""How current the desk's data are, at a glance, in headless Chromium at 1280×720 (and 1280×600, what such a laptop
leaves the page under the browser's bars, and 900×700): the header names the list applied on the event date with the
day it took effect, the newest list held and the data version; on a date past the day the next list of the newest was
due, and on a date after the card printings end, it warns in words in both languages, on screen without scrolling,
never folded, over no control, in a live region that screen readers are told of; the list is then never called
plainly "in force", in the header, the settings or the verdict; the warning about the list is shown exactly when the
service's own answer for the event notes it (list_may_be_outdated); and the page follows the event date, the format
and a new data version. Screenshots are saved under test-artefacts/desk-currency/."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests import browser
from tests.browser import console_errors, screenshot
from tests.decks import EXTRA, MAIN_40, SIDE
from tests.test_desk import RECORD_ANNOUNCEMENTS, SET_VALUE, WAIT

pytestmark = pytest.mark.browser

browser.skip_without_chromium()

SETTINGS_KEY = "deckcheck.desk.settings"
LANG_KEY = "deckcheck.desk.lang"
LEGAL = {"main": MAIN_40, "extra": EXTRA, "side": SIDE}
# The words of the page for a list that may be outdated, and the plain ones for a list in force.
STALE = {
    "ja": "施行中（新しいリストが出ている可能性あり）：",
    "en": "In force (a newer list may have been published): ",
}
OPTION_STALE = {
    "ja": "{0}：施行中（新しいリストが出ている可能性あり）",
    "en": "{0}: in force (a newer list may have been published)",
}
IN_FORCE = {"ja": "施行中：", "en": "In force: "}
FROM = {"ja": "{0}（{1}から）", "en": "{0} (from {1})"}
NEWEST = {"ja": "保有する最新のリスト：", "en": "Newest list held: "}
VERSION = {"ja": "データ版 ", "en": "data version "}
OUTDATED_WORDS = {"ja": "新しいリストが出ている可能性があります", "en": "A newer list than"}
PRINTINGS_WORDS = {"ja": "カードの発売データは{0}までです", "en": "Card printings are complete until {0}"}
# What the header shows, where each warning is and whether a reader sees it: rendered, not in a closed <details>,
# wholly in the viewport and on top at its middle; the live region's role; the controls the warnings would cover;
# the settings' facts (read from the DOM, the settings folded) and the list select's first option.
READ = """
const rect = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, left: r.left, bottom: r.bottom,
  right: r.right}; };
const seen = (e) => {
  const r = e.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return e.checkVisibility() && !e.closest("details:not([open])") && r.top >= 0 && r.left >= 0 &&
    r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0 && Boolean(top && e.contains(top));
};
const region = document.getElementById("currency-warnings");
const controls = Array.from(document.querySelectorAll("button, input, select, textarea, summary, a[href]"))
  .filter((c) => c.checkVisibility()).map((c) => ({id: c.id || c.tagName, box: rect(c)}));
return {
  summary: document.getElementById("event-summary").textContent,
  data: document.getElementById("data-summary").textContent,
  role: region.getAttribute("role"),
  region: rect(region),
  warnings: Array.from(region.querySelectorAll("p"), (p) => ({id: p.id, text: p.textContent, seen: seen(p)})),
  controls,
  facts: Array.from(document.querySelectorAll("#currency dd"), (dd) => dd.textContent),
  first_option: document.querySelector("#event-banlist option").textContent,
};
"""


@dataclass(frozen=True, slots=True)
class Header:
    """What the header and the settings show of how current the data are."""

    summary: str
    data: str
    role: str | None
    region: dict[str, float]
    warnings: dict[str, tuple[str, bool]]  # by id: its text, and whether a reader sees it
    controls: list[dict[str, Any]]
    facts: list[str]
    first_option: str

    def covered(self) -> list[str]:
        """The controls the warnings are drawn over."""
        box = self.region
        return [
            control["id"]
            for control in self.controls
            if min(box["right"], control["box"]["right"]) - max(box["left"], control["box"]["left"]) > 0.5
            and min(box["bottom"], control["box"]["bottom"]) - max(box["top"], control["box"]["top"]) > 0.5
        ]


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """The module's one browser: only 127.0.0.1 resolves, its console kept."""
    driver = browser.start(tmp_path_factory.mktemp("chromium"), [browser.ONLY_LOOPBACK], logs=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def health(base_url: str) -> dict[str, Any]:
    """The service's GET /healthz: its newest lists, the day the printings end and its data version."""
    answer = httpx.get(f"{base_url}/healthz", timeout=30)
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()
    return found


def newest(health: dict[str, Any], fmt: str) -> dict[str, Any]:
    """The newest list of `fmt` /healthz names."""
    found: list[dict[str, Any]] = [entry for entry in health["newest_lists"] if entry["format"] == fmt]
    assert len(found) == 1
    return found[0]


def day(iso: str, days: int = 0) -> str:
    """The ISO date `days` after `iso`."""
    return (dt.date.fromisoformat(iso) + dt.timedelta(days=days)).isoformat()


class Page:
    """The desk in the module's browser at a laptop's size."""

    def __init__(self, driver: webdriver.Chrome, origin: str, version: str) -> None:
        self.driver, self.origin, self.version = driver, origin, version

    def open(
        self, lang: str, date: str, fmt: str = "ocg", banlist: str = "", size: tuple[int, int] = (1280, 720)
    ) -> Header:
        """Load the desk afresh in `lang` with the event `date`, `fmt` and `banlist` kept, and read its header once it
        names the data version."""
        width, height = size
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        self.driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"})
        self.driver.get(f"{self.origin}/desk")
        kept = json.dumps({"date": date, "format": fmt, "banlist": banlist})
        self.driver.execute_script(
            "localStorage.setItem(arguments[0], arguments[1]); localStorage.setItem(arguments[2], arguments[3]);",
            SETTINGS_KEY,
            kept,
            LANG_KEY,
            lang,
        )
        console_errors(self.driver)
        self.driver.get(f"{self.origin}/desk")
        return self.wait_for(lambda header: self.version in header.data)

    def read(self) -> Header:
        """The header as it is now."""
        read = self.driver.execute_script(READ)
        warnings = {w["id"]: (w["text"], w["seen"]) for w in read.pop("warnings")}
        return Header(warnings=warnings, **read)

    def wait_for(self, condition: Any) -> Header:
        """Wait until the header meets `condition`, then read it."""
        WebDriverWait(self.driver, WAIT).until(lambda _: condition(self.read()))
        return self.read()

    def set(self, element_id: str, value: str) -> None:
        """Set a field as staff would, telling the page."""
        self.driver.execute_script(SET_VALUE, element_id, value)

    def shot(self, name: str) -> None:
        """Keep what the page shows as test-artefacts/desk-currency/<name>.png."""
        screenshot(self.driver, "desk-currency", name)


@pytest.fixture
def page(chromium: webdriver.Chrome, base_url: str, health: dict[str, Any]) -> Iterator[Page]:
    """The desk; the browser's own size again after."""
    yield Page(chromium, base_url, health["data_version"])
    chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def notes_of(origin: str, date: str, fmt: str, banlist: str = "") -> list[str]:
    """The notes of the service's answer for a legal deck at the event `date`, `fmt` (and `banlist`)."""
    body: dict[str, Any] = {**LEGAL, "date": date, "format": fmt} | ({"banlist": banlist} if banlist else {})
    answer = httpx.post(f"{origin}/v1/validate", json=body, timeout=30)
    assert answer.status_code == 200, answer.text
    return [note["code"] for note in answer.json()["ruleset"]["notes"]]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_header_names_the_list_in_force_the_newest_and_the_data_version(
    page: Page, health: dict[str, Any], lang: str
) -> None:
    ocg = newest(health, "ocg")
    # The day the newest OCG list took effect: it is in force, and no newer one is due yet.
    header = page.open(lang, ocg["effective_from"])
    page.shot(f"1280x720-{lang}-current")
    listed = FROM[lang].format(ocg["name"], ocg["effective_from"])

    assert header.summary == f"{ocg['effective_from']} · OCG · {IN_FORCE[lang]}{listed}"
    assert header.data == f"{NEWEST[lang]}{listed} · {VERSION[lang]}{health['data_version']}"
    assert "warn-outdated" not in header.warnings
    assert header.first_option == f"{IN_FORCE[lang]}{ocg['name']}"
    assert header.facts[0] == listed
    assert ocg["next_list_due"] in header.facts[1]
    assert health["data_version"] in header.facts[3]
    assert header.role == "status"
    assert console_errors(page.driver) == []


def test_the_last_day_of_the_printings_with_its_list_current_warns_of_nothing(
    page: Page, health: dict[str, Any]
) -> None:
    until = health["printings_complete_until"]
    header = page.open("ja", until)

    assert header.warnings == {}
    assert header.summary.startswith(f"{until} · OCG · {IN_FORCE['ja']}")
    assert header.facts[2] == f"{until}まで"


def test_today_warns_as_the_service_weighs_today(page: Page, health: dict[str, Any]) -> None:
    # /healthz weighs its data for today: the desk, on today's date, says the same.
    today = dt.date.today().isoformat()
    header = page.open("ja", today)
    page.shot("1280x720-ja-today")

    assert ("warn-outdated" in header.warnings) is newest(health, "ocg")["may_be_outdated"]
    assert ("warn-printings" in header.warnings) is health["printings_may_be_missing"]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("size", [(1280, 720), (1280, 600), (900, 700)], ids=["1280x720", "1280x600", "900x700"])
def test_a_date_past_the_next_list_due_warns_in_plain_sight(
    page: Page, health: dict[str, Any], lang: str, size: tuple[int, int]
) -> None:
    ocg = newest(health, "ocg")
    date = day(ocg["next_list_due"], 31)  # 2027-02-01 for OCG 2026.10, due 2027-01-01
    header = page.open(lang, date, size=size)
    page.shot(f"{size[0]}x{size[1]}-{lang}-outdated")

    outdated, seen = header.warnings["warn-outdated"]
    assert seen  # on screen without scrolling, in no closed <details>, under nothing
    assert OUTDATED_WORDS[lang] in outdated
    assert [date in outdated, ocg["name"] in outdated, ocg["next_list_due"] in outdated] == [True, True, True]
    printings, printings_seen = header.warnings["warn-printings"]
    assert printings_seen
    assert PRINTINGS_WORDS[lang].format(health["printings_complete_until"]) in printings
    assert header.role == "status"
    assert header.covered() == []
    # Never plainly "in force": not in the header, the list select or the settings.
    assert header.summary == f"{date} · OCG · {STALE[lang]}{FROM[lang].format(ocg['name'], ocg['effective_from'])}"
    assert header.first_option == OPTION_STALE[lang].format(ocg["name"])
    assert header.facts[0].startswith(FROM[lang].format(ocg["name"], ocg["effective_from"]))
    assert header.facts[0] != FROM[lang].format(ocg["name"], ocg["effective_from"])
    assert console_errors(page.driver) == []


# The settings' facts, each name with its words, as shown once the settings are open.
SETTINGS = """
const names = Array.from(document.querySelectorAll("#currency dt"));
return names.map((dt) => [dt.innerText, dt.nextElementSibling.innerText, dt.nextElementSibling.checkVisibility()]);
"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_settings_say_how_current_the_data_are(page: Page, health: dict[str, Any], lang: str) -> None:
    ocg = newest(health, "ocg")
    date = day(ocg["next_list_due"], 31)
    page.open(lang, date)
    page.driver.find_element(By.CSS_SELECTOR, "#settings summary").click()
    page.driver.execute_script("document.getElementById('currency').scrollIntoView({block: 'end'});")
    facts = page.driver.execute_script(SETTINGS)
    page.shot(f"1280x720-{lang}-settings")
    listed = FROM[lang].format(ocg["name"], ocg["effective_from"])
    stale = {"ja": "・新しいリストが出ている可能性あり", "en": "; a newer list may have been published"}[lang]

    assert [fact[2] for fact in facts] == [True] * 4
    assert facts[0][1] == listed + stale
    assert facts[1][1].startswith(listed[:-1])  # with the day the next list is due
    assert ocg["next_list_due"] in facts[1][1]
    assert health["printings_complete_until"] in facts[2][1]
    assert facts[3][1].startswith(health["data_version"])


@pytest.mark.parametrize("fmt", ["ocg", "tcg"])
def test_the_list_warning_is_shown_exactly_when_the_service_notes_it(
    page: Page, health: dict[str, Any], base_url: str, fmt: str
) -> None:
    held = newest(health, fmt)
    due = held["next_list_due"]
    dates = [day(due, -1), due, day(due, 31), held["effective_from"]]
    header = page.open("ja", dates[0], fmt)
    shown = {}
    for date in dates:
        page.set("event-date", date)
        header = page.wait_for(lambda h, date=date: h.summary.startswith(date))
        shown[date] = "warn-outdated" in header.warnings
    noted = {date: "list_may_be_outdated" in notes_of(base_url, date, fmt) for date in dates}

    assert shown == noted
    assert shown == {dates[0]: False, due: True, dates[2]: True, dates[3]: False}


def test_a_list_chosen_by_name_is_said_to_be_chosen_and_not_warned_of(
    page: Page, health: dict[str, Any], base_url: str
) -> None:
    ocg = newest(health, "ocg")
    date = day(ocg["next_list_due"], 31)
    header = page.open("en", date, banlist=ocg["id"])

    assert header.summary == f"{date} · OCG · List chosen: {FROM['en'].format(ocg['name'], ocg['effective_from'])}"
    assert "warn-outdated" not in header.warnings  # the service does not note it either: the list was named
    assert "list_may_be_outdated" not in notes_of(base_url, date, "ocg", ocg["id"])


def test_the_header_follows_the_date_and_the_format(page: Page, health: dict[str, Any]) -> None:
    ocg, tcg = newest(health, "ocg"), newest(health, "tcg")
    page.open("ja", ocg["effective_from"])
    page.driver.execute_script(RECORD_ANNOUNCEMENTS)
    page.set("event-date", day(ocg["next_list_due"], 31))
    stale = page.wait_for(lambda h: "warn-outdated" in h.warnings)
    announced = page.driver.execute_script("return window.announced;")
    page.set("event-date", day(tcg["next_list_due"], 1))
    page.set("event-format", "tcg")
    header = page.wait_for(lambda h: tcg["name"] in h.summary)
    until = health["printings_complete_until"]
    page.set("event-date", until)
    before_printings_end = page.wait_for(lambda h: h.summary.startswith(until))

    # Screen readers are told the warning: its live region was rendered before its words changed.
    outdated = stale.warnings["warn-outdated"][0]
    assert [a["rendered"] for a in announced if outdated in a["text"]][:1] == [True]
    assert header.summary.startswith(f"{day(tcg['next_list_due'], 1)} · TCG · {STALE['ja']}{tcg['name']}")
    assert tcg["name"] in header.data
    assert header.warnings["warn-outdated"][1]
    assert "warn-printings" not in before_printings_end.warnings
    assert "warn-outdated" not in before_printings_end.warnings


def test_the_verdict_never_names_an_outdated_list_plainly(page: Page, health: dict[str, Any]) -> None:
    ocg = newest(health, "ocg")
    date = day(ocg["next_list_due"], 31)
    page.open("ja", date)
    page.set("submission", json.dumps(LEGAL))
    page.driver.find_element(By.ID, "check").click()
    state = "const v = document.getElementById('verdict'); return v.checkVisibility() && v.dataset.state;"
    WebDriverWait(page.driver, WAIT).until(lambda d: d.execute_script(state) in ("legal", "illegal"))
    meta = page.driver.find_element(By.ID, "verdict-meta").text
    page.shot("1280x720-ja-outdated-verdict")

    assert f"{STALE['ja']}{ocg['name']}" in meta


# Before the page's scripts run: the first GET /healthz it makes answers as an older service did, with another data
# version and printings complete until far later; the next ones go to the service.
OLDER_HEALTH = """
const fetchAsGiven = window.fetch;
let first = true;
window.fetch = async (resource, options) => {
  const answer = await fetchAsGiven(resource, options);
  if (!first || !String(resource).endsWith("/healthz")) return answer;
  first = false;
  const json = await answer.json();
  const older = {...json, data_version: "0123456789abcdef", printings_complete_until: "2099-12-31"};
  return new Response(JSON.stringify(older), {status: 200, headers: {"Content-Type": "application/json"}});
};
"""


def test_an_answer_of_another_data_version_brings_the_header_up_to_date(page: Page, health: dict[str, Any]) -> None:
    added = page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OLDER_HEALTH})
    try:
        page.version = "0123456789abcdef"
        older = page.open("en", day(health["printings_complete_until"], 1))
        page.version = health["data_version"]
        page.set("submission", json.dumps(LEGAL))
        page.driver.find_element(By.ID, "check").click()
        # The check's answer names the service's data version: the page asks /healthz again.
        now = page.wait_for(lambda h: health["data_version"] in h.data)
    finally:
        page.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})

    assert "0123456789abcdef" in older.data
    assert "warn-printings" not in older.warnings
    assert "warn-printings" in now.warnings
