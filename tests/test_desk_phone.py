"""The desk on a judge's phone, in headless Chromium emulating one held upright: 390×844 CSS pixels at a device scale
factor of 3, as a mobile device (the page's viewport meta honoured; anything wider than the screen would zoom the
whole page out, for good, rather than scroll it sideways), in Japanese and in English, on the desk's default event
date (today). At each step of the desk's work (the page, the event settings, the verdict of a deck with Pot of Greed,
a roster check before duel 2, the judge's time-limit form and assessor, a date on which the header shows both its
warnings, and a paper list read and reviewed) it measures: the page never wider than the screen; the header at most
HEADER px tall (HEADER_WARNED with both warnings); every field rendered at least NARROW px wide and every control at
least TAP px tall (a checkbox by its label, which takes the tap); no text broken into lines of fewer than WHOLE
characters on average, and the word 施行中 (In force), the table's headings, the clock's column headings and the
verdict's buttons each on one line; the verdict's band and its close button on the screen, and the first violation's
reason, penalty and remedy on the screen inside the pane that scrolls them. Screenshots of each step are saved under
test-artefacts/desk-phone/."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests import browser
from tests import test_desk_laptop as laptop
from tests import test_desk_paper as paper
from tests.browser import console_errors, screenshot
from tests.test_desk import SET_VALUE, WAIT, Desk

pytestmark = pytest.mark.browser

browser.skip_without_chromium()

# The module's browser (only 127.0.0.1 resolves, its network and console kept), the laptop tests' deck lists (legal,
# with Pot of Greed, with a card given away) and the paper tests' printed registration sheet.
chromium = laptop.chromium
lists = laptop.lists
sheet = paper.sheet

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
# The header's bound: under a quarter of the screen's 844 px for the title, the language, the event and the warning of
# the day, leaving three quarters to the work; with both warnings the header may show (a newer list may be in force,
# cards may be missing), never folded, under a third of it.
HEADER = 200
HEADER_WARNED = 260
TAP = 44 - 0.5  # px: the height of a target for a finger (less a rounding)
NARROW = 120  # px: the width of a field one can read and type in
WHOLE = 4  # characters a line at the least, on average, of a text broken over lines
IN_FORCE = {"ja": "施行中", "en": "In force"}
# Elements whose words stay on one line.
ONE_LINE = "th, .lp-player, .bar h1, #verdict-heading, .verdict-actions button"
# How the parts of the page `arguments[0]` (a selector) names fit the screen: its size and how wide the page is, the
# header's height, each control rendered there that is too short to tap or a field too narrow to type in, each text
# node broken a few characters a line, each element of ONE_LINE laid on more than one, and whether the word
# `arguments[1]` of the event's line is.
FIT = """
const [scope, word, tap, narrow, whole, oneLine] = arguments;
const shown = (e) => e.checkVisibility({visibilityProperty: true});
const lineHeight = (e) => parseFloat(getComputedStyle(e).lineHeight);
const lines = (range, e) => Math.round(range.getBoundingClientRect().height / lineHeight(e));
const name = (e) => `${e.tagName.toLowerCase()} ${e.id || e.dataset.act || e.dataset.field || e.textContent.trim()}`;
const rangeOf = (node) => { const range = document.createRange(); range.selectNodeContents(node); return range; };
const small = [], tight = [], broken = [];
for (const e of document.querySelectorAll(`:is(${scope}) :is(input, select, textarea, button, summary)`)) {
  if (!shown(e)) continue;
  const target = e.type === "checkbox" ? e.closest("label") : e;
  const {width, height} = target.getBoundingClientRect();
  if (height < tap) small.push(`${name(e)}: ${Math.round(height)} px tall`);
  if (e.matches("input:not([type=checkbox]), select, textarea") && width < narrow) {
    tight.push(`${name(e)}: ${Math.round(width)} px wide`);
  }
}
for (const root of document.querySelectorAll(scope)) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, "");
    if (text.length < 2 || !shown(node.parentElement)) continue;
    const count = lines(rangeOf(node), node.parentElement);
    if (count > 1 && text.length / count < whole) broken.push(`${text} on ${count} lines`);
  }
}
const split = Array.from(document.querySelectorAll(`:is(${scope}) :is(${oneLine})`))
  .filter((e) => shown(e) && lines(rangeOf(e), e) > 1).map(name);
const summary = document.getElementById("event-summary");
const holder = Array.from(summary.querySelectorAll("span"), (s) => s.firstChild).find((t) => t?.data.includes(word));
const range = document.createRange();
range.setStart(holder, holder.data.indexOf(word));
range.setEnd(holder, holder.data.indexOf(word) + word.length);
return {
  width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
  header: document.querySelector("header").getBoundingClientRect().height,
  small, tight, broken, split: lines(range, summary) === 1 ? split : [word, ...split],
};
"""
# The verdict's band and close button, and the viewport.
BAND = """
const rect = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, left: r.left, bottom: r.bottom,
  right: r.right}; };
return {band: rect(document.querySelector(".verdict-head")), close: rect(document.getElementById("verdict-close")),
  viewport: {top: 0, left: 0, bottom: innerHeight, right: innerWidth}};
"""
# Where the picture of a paper list and its lines are.
COLUMNS = """
const rect = (s) => { const r = document.querySelector(s).getBoundingClientRect(); return {top: r.top,
  left: r.left, bottom: r.bottom, right: r.right}; };
return {sheet: rect("#paper-sheet"), list: rect(".paper-list")};
"""
# Scroll the deck read to its first line to review.
FIRST_TO_REVIEW = "document.querySelector('#paper-sections .paper-line[data-state=review]').scrollIntoView();"


def load(driver: webdriver.Chrome, origin: str, lang: str) -> None:
    """Open the desk on the phone in `lang`, fresh, on its default event date, its logs read."""
    browser.open_desk(driver, origin, lang, PHONE)
    ready = "return document.querySelectorAll('#assess-code option').length > 30;"
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(ready))
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "event-summary").text)


class Phone:
    """The desk page on the phone, in `lang`."""

    def __init__(self, driver: webdriver.Chrome, lang: str) -> None:
        self.driver, self.lang = driver, lang

    def set(self, element_id: str, value: str) -> None:
        """Set a field as staff would, telling the page."""
        self.driver.execute_script(SET_VALUE, element_id, value)

    def click(self, element_id: str) -> None:
        """Tap a button or a summary."""
        self.driver.find_element(By.ID, element_id).click()

    def fit(self, scope: str = "header, main") -> dict[str, Any]:
        """How the parts of the page `scope` names fit the phone (FIT)."""
        word = IN_FORCE[self.lang]
        fit: dict[str, Any] = self.driver.execute_script(FIT, scope, word, TAP, NARROW, WHOLE, ONE_LINE)
        return fit

    def verdict(self, state: str = "illegal") -> dict[str, Any]:
        """Wait for the verdict in `state`, then measure it: its parts (test_desk_laptop's MEASURE), band and close
        button, and how it fits."""
        shown = "const v = document.getElementById('verdict'); return v.checkVisibility() && v.dataset.state;"
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(shown) == state)
        measured: dict[str, Any] = self.driver.execute_script(laptop.MEASURE)
        band: dict[str, Any] = self.driver.execute_script(BAND)
        return {**measured, **band, "fit": self.fit("#verdict")}

    def close(self) -> None:
        """Close the verdict."""
        self.click("verdict-close")
        WebDriverWait(self.driver, WAIT).until(lambda d: not d.execute_script(laptop.SHOWN_VERDICT))

    def show(self, element_id: str, block: str = "start") -> None:
        """Scroll the page to an element (its top at the screen's top, or `block`), as a thumb does."""
        script = "document.getElementById(arguments[0]).scrollIntoView({block: arguments[1]});"
        self.driver.execute_script(script, element_id, block)

    def shot(self, what: str) -> None:
        """Keep what the screen shows as test-artefacts/desk-phone/<lang>-<what>.png."""
        screenshot(self.driver, "desk-phone", f"{self.lang}-{what}")


@pytest.fixture
def phone(request: pytest.FixtureRequest, chromium: webdriver.Chrome, base_url: str) -> Iterator[Phone]:
    """The desk on the phone in the language of the test's parameter; the browser's own size again after."""
    load(chromium, base_url, request.param)
    yield Phone(chromium, request.param)
    chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def assert_fits(fit: dict[str, Any], header: float = HEADER) -> None:
    """The screen is the phone's, nothing is wider, the header at most `header` px tall, and every control, field and
    word measured is usable."""
    assert (fit["width"], fit["height"]) == (PHONE["width"], PHONE["height"])
    assert fit["scrollWidth"] <= fit["width"]
    assert fit["header"] <= header, fit["header"]
    assert (fit["small"], fit["tight"], fit["broken"], fit["split"]) == ([], [], [], [])


def assert_verdict_readable(measured: dict[str, Any]) -> None:
    """The band and the close button on the screen, the first violation readable in its pane (as on a laptop), and
    the verdict's controls and words usable."""
    assert laptop.inside(measured["band"], measured["viewport"]), measured["band"]
    assert laptop.inside(measured["close"], measured["viewport"]), measured["close"]
    laptop.assert_readable(measured)
    assert_fits(measured["fit"])


@pytest.mark.parametrize("phone", ["ja", "en"], indirect=True)
def test_the_desk_is_usable_on_a_phone(phone: Phone, lists: dict[str, str]) -> None:
    phone.shot("1-page")
    assert_fits(phone.fit())
    phone.click("settings")
    phone.shot("2-settings")
    assert_fits(phone.fit())
    phone.click("settings")
    phone.set("player", "No. 7")
    phone.set("submission", lists["pot"])
    phone.click("check")
    pot = phone.verdict()
    phone.shot("3-pot-of-greed")
    assert_verdict_readable(pot)
    phone.close()
    phone.set("roster-registered", lists["legal"])
    phone.set("roster-presented", lists["swapped"])
    Select(phone.driver.find_element(By.ID, "roster-duel")).select_by_value("2")
    phone.show("roster")
    phone.shot("4-roster-lists")
    assert_fits(phone.fit())
    phone.click("roster-check")
    roster = phone.verdict()
    phone.shot("5-roster")
    assert_verdict_readable(roster)
    assert {"caption 0", "list 0", "caption 1", "list 1"} <= roster["boxes"].keys()  # both lists shown
    phone.close()

    assert_fits(phone.fit())  # nothing on the way was wider than the screen
    assert console_errors(phone.driver) == []


@pytest.mark.parametrize("phone", ["ja", "en"], indirect=True)
def test_the_judges_tools_are_usable_on_a_phone(phone: Phone) -> None:
    phone.click("clock-call")
    phone.set("tl-lp-1", "500")
    phone.show("time-limit")
    time_limit = phone.fit()
    fields = phone.driver.execute_script(laptop.LIFE_POINTS)
    phone.shot("6-time-limit")
    phone.set("assess-code", "slow_play_unintentional")
    phone.set("assess-intentional", "true")
    phone.show("assessor-panel")
    phone.click("assess")
    refused = "return document.querySelectorAll('.assessed-contradictions li').length;"
    WebDriverWait(phone.driver, WAIT).until(lambda d: d.execute_script(refused) == 1)
    words_shown = phone.driver.execute_script(laptop.IN_VIEW, "assessment")
    assessor = phone.fit()
    phone.shot("7-assessor-refused")

    assert_fits(time_limit)
    assert len(fields) == 8
    for field in fields:
        assert field["panel"]["left"] - laptop.SLACK <= field["box"]["left"], field
        assert field["box"]["right"] <= field["panel"]["right"] + laptop.SLACK, field
        assert field["box"]["right"] - field["box"]["left"] >= NARROW, field
    assert words_shown
    assert_fits(assessor)
    (logged,) = console_errors(phone.driver)  # the refusal's status, and nothing else
    assert "/v1/penalties/assess" in logged


@pytest.mark.parametrize("phone", ["ja", "en"], indirect=True)
def test_the_header_holds_both_warnings_on_a_phone(phone: Phone, base_url: str) -> None:
    health = httpx.get(f"{base_url}/healthz", timeout=30).json()
    (ocg,) = [newest for newest in health["newest_lists"] if newest["format"] == "ocg"]
    late = date.fromisoformat(ocg["next_list_due"]) + timedelta(days=31)  # a newer list may be in force
    assert late.isoformat() > health["printings_complete_until"]  # and cards printed by then may be missing
    phone.set("event-date", late.isoformat())
    warned = "return document.querySelectorAll('#currency-warnings p').length;"
    WebDriverWait(phone.driver, WAIT).until(lambda d: d.execute_script(warned) == 2)
    phone.shot("0-both-warnings")

    assert_fits(phone.fit(), HEADER_WARNED)
    assert console_errors(phone.driver) == []


@pytest.fixture
def desk(chromium: webdriver.Chrome, base_url: str) -> Iterator[Desk]:
    """The desk page on the phone, in Japanese, fresh, on test_desk's event date, with the paper panel open."""
    with paper.paper_desk(chromium, base_url, PHONE) as page:
        yield page


def test_a_paper_list_is_reviewed_on_a_phone(desk: Desk, sheet: paper.Sheet) -> None:
    phone = Phone(desk.driver, "ja")
    assert paper.read_file(desk, sheet.smudged) == "review"
    review = phone.fit()
    columns = desk.driver.execute_script(COLUMNS)
    phone.shot("8-paper-read")
    to_review = [line for line in paper.shown_lines(desk) if line["state"] == "review"]
    desk.driver.execute_script(FIRST_TO_REVIEW)
    phone.shot("9-paper-line")
    line_fit = phone.fit()
    for line in to_review:
        paper.correct(desk, line, paper.printed_at(sheet, line["box"]) if line["box"] else None)
    phone.show("paper-check", "center")
    ready = phone.fit()
    phone.shot("10-paper-ready")
    desk.driver.find_element(By.ID, "paper-check").click()
    verdict = desk.verdict()
    phone.shot("11-paper-verdict")

    assert_fits(review)
    assert columns["sheet"]["bottom"] <= columns["list"]["top"]  # the picture over the lines, each the screen's width
    assert_fits(line_fit)
    assert to_review
    assert_fits(ready)
    assert (verdict.state, verdict.heading) == ("legal", "合法")
    assert console_errors(desk.driver) == []


# The phone held sideways: the laptop's layout at its width, on a screen a third as tall.
SIDEWAYS = {"width": 844, "height": 390, "deviceScaleFactor": 3, "mobile": True}
BAND_SIDEWAYS = 120  # px: the verdict's band at most, leaving the reasons most of the 390


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_verdict_reads_on_a_phone_held_sideways(
    chromium: webdriver.Chrome, base_url: str, lists: dict[str, str], lang: str
) -> None:
    """At 844×390 the verdict's band takes at most BAND_SIDEWAYS px, its close button is on the screen, and the
    first violation's reason, penalty and remedy are readable in the pane; nothing is wider than the screen."""
    browser.open_desk(chromium, base_url, lang, SIDEWAYS)
    try:
        WebDriverWait(chromium, WAIT).until(lambda d: d.find_element(By.ID, "event-summary").text)
        phone = Phone(chromium, lang)
        phone.set("submission", lists["pot"])
        phone.click("check")
        measured = phone.verdict()
        phone.shot("sideways-pot-of-greed")
        band, close, viewport = measured["band"], measured["close"], measured["viewport"]
        assert (viewport["right"], viewport["bottom"]) == (SIDEWAYS["width"], SIDEWAYS["height"])
        assert band["bottom"] - band["top"] <= BAND_SIDEWAYS, band
        assert laptop.inside(close, viewport), close
        laptop.assert_readable(measured)
        assert measured["fit"]["scrollWidth"] <= SIDEWAYS["width"]
        phone.close()
        assert console_errors(chromium) == []
    finally:
        chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
