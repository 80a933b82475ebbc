"""The desk on a laptop's screen, in headless Chromium: browser viewports of 1280×600 and 1366×650 (what a 1280×720 or
1366×768 laptop leaves the page under the browser's bars) and 1920×1080, in Japanese and in English, on the desk's
default event date, today (whose rules carry a note on later card types). The verdict of a deck with Pot of Greed and
of a roster check before duel 2 shows the first violation's reason, penalty and remedy inside the viewport and inside
the pane that scrolls them; no box of the verdict or of the roster comparison is drawn over another; the page's
visible text holds no rule code; the assessor refuses contradictory facts in words; and the time-limit form's life
points are labelled and stay inside their column. A screenshot of each size and language is saved under
test-artefacts/desk-laptop/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests import browser
from tests.browser import console_errors, screenshot
from tests.decks import EXTRA, MAIN_40, SIDE
from tests.test_desk import POT_OF_GREED, SET_VALUE, WAIT, convert

pytestmark = pytest.mark.browser

browser.skip_without_chromium()

VIEWPORTS = [(1280, 600), (1366, 650), (1920, 1080)]
# A code as programs read it, digits too: forbidden_card, tardiness_5_minutes, roster_mismatch.
RULE_CODE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
SLACK = 0.5  # px: rectangles that share an edge touch, they do not overlap
# Where each box of the verdict is, and the first violation's reason, penalty (with its rule) and remedy.
MEASURE = """
const rect = (e) => {
  if (!e || !e.checkVisibility()) return null;
  const r = e.getBoundingClientRect();
  return {top: r.top, left: r.left, bottom: r.bottom, right: r.right};
};
const first = document.querySelector("#violations li.violation");
const pane = document.querySelector(".findings");
const boxes = {head: ".verdict-head", findings: ".findings", actions: ".verdict-actions"};
const figures = Array.from(document.querySelectorAll(".sources figure"));
figures.forEach((figure, i) => {
  boxes[`caption ${i}`] = figure.querySelector("figcaption");
  boxes[`list ${i}`] = figure.querySelector("pre");
});
return {
  viewport: {top: 0, left: 0, bottom: innerHeight, right: innerWidth},
  pane: rect(pane),
  scrolls: getComputedStyle(pane).overflowY,
  parts: Object.fromEntries(
    ["message", "facts", "remedy"].map((part) => [part, rect(first.querySelector(`.${part}`))])),
  penalty: first.querySelector(".facts .penalty").innerText,
  boxes: Object.fromEntries(Object.entries(boxes).map(([name, box]) =>
    [name, rect(typeof box === "string" ? document.querySelector(box) : box)]).filter(([, r]) => r)),
};
"""
# The page's roster comparison: each list's label and field.
ROSTER_BOXES = """
return Array.from(document.querySelectorAll("#roster .pair label > *"), (e) => {
  const r = e.getBoundingClientRect();
  return {top: r.top, left: r.left, bottom: r.bottom, right: r.right};
});
"""
# Each life-point field of the time-limit form: its accessible name (from the row and column it is labelled by), its
# box and the box of the column (#clock-panel) it must stay in.
LIFE_POINTS = """
const rect = (e) => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right}; };
const panel = rect(document.getElementById("clock-panel"));
return Array.from(document.querySelectorAll("#time-limit .lp input"), (input) => ({
  id: input.id,
  name: input.getAttribute("aria-labelledby").split(" ").map((id) => document.getElementById(id).innerText).join(" "),
  box: rect(input),
  panel,
}));
"""
VISIBLE_TEXT = "return document.body.innerText;"
# Whether an element lies wholly inside the viewport.
IN_VIEW = """
const r = document.getElementById(arguments[0]).getBoundingClientRect();
return r.top >= -0.5 && r.left >= -0.5 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
"""


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    """Whether the rectangle `inner` lies within `outer`."""
    return all(
        (inner[side] >= outer[side] - SLACK) if side in ("top", "left") else (inner[side] <= outer[side] + SLACK)
        for side in ("top", "left", "bottom", "right")
    )


def overlapping(boxes: dict[str, dict[str, float]]) -> list[tuple[str, str]]:
    """The pairs of boxes drawn over each other."""
    found = []
    for (one, a), (other, b) in combinations(boxes.items(), 2):
        width = min(a["right"], b["right"]) - max(a["left"], b["left"])
        height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
        if width > SLACK and height > SLACK:
            found.append((one, other))
    return found


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """The module's one browser: only 127.0.0.1 resolves, its network and console kept."""
    driver = browser.start(tmp_path_factory.mktemp("chromium"), [browser.ONLY_LOOPBACK], logs=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def lists(base_url: str) -> dict[str, str]:
    """The legal deck and the one with Pot of Greed as Japanese text lists, and the legal one with a Dark Magician
    given away for a Dark Magician Girl (a roster mismatch)."""
    legal = convert(base_url, {"main": MAIN_40, "extra": EXTRA, "side": SIDE, "to": "text", "names": "ja"})
    pot = convert(base_url, {"main": POT_OF_GREED, "extra": EXTRA, "side": SIDE, "to": "text", "names": "ja"})
    swapped = legal.replace("3 ブラック・マジシャン\n", "2 ブラック・マジシャン\n1 ブラック・マジシャン・ガール\n", 1)
    assert swapped != legal
    return {"legal": legal, "pot": pot, "swapped": swapped}


class Laptop:
    """The desk page at one viewport and language, fresh, on its default event date."""

    def __init__(self, driver: webdriver.Chrome, origin: str, size: tuple[int, int], lang: str) -> None:
        self.driver, self.origin, self.lang = driver, origin, lang
        self.name = f"{size[0]}x{size[1]}-{lang}"
        width, height = size
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        browser.open_desk(driver, origin, lang, metrics)
        ready = "return document.querySelectorAll('#event-banlist option').length > 1"
        WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(ready))
        count = "return document.querySelectorAll('#assess-code option').length;"
        WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(count) > 30)
        assert driver.execute_script("return innerWidth + 'x' + innerHeight;") == f"{width}x{height}"

    def set(self, element_id: str, value: str) -> None:
        """Set a field as staff would, telling the page."""
        self.driver.execute_script(SET_VALUE, element_id, value)

    def click(self, element_id: str) -> None:
        """Click a button."""
        self.driver.find_element(By.ID, element_id).click()

    def verdict(self) -> dict[str, Any]:
        """Wait for the verdict, then measure it."""
        state = "const v = document.getElementById('verdict'); return v.checkVisibility() && v.dataset.state;"
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(state) == "illegal")
        measured: dict[str, Any] = self.driver.execute_script(MEASURE)
        return measured

    def close(self) -> None:
        """Close the verdict."""
        self.click("verdict-close")
        WebDriverWait(self.driver, WAIT).until(lambda d: not d.execute_script(SHOWN_VERDICT))

    def shot(self, what: str) -> None:
        """Keep what the page shows as test-artefacts/desk-laptop/<size>-<lang>-<what>.png."""
        screenshot(self.driver, "desk-laptop", f"{self.name}-{what}")


SHOWN_VERDICT = "return document.getElementById('verdict').checkVisibility();"


@pytest.fixture
def laptop(request: pytest.FixtureRequest, chromium: webdriver.Chrome, base_url: str) -> Iterator[Laptop]:
    """The desk at the size and in the language of the test's parameters; the browser's own size again after."""
    size, lang = request.param
    yield Laptop(chromium, base_url, size, lang)
    chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


CASES = [(size, lang) for size in VIEWPORTS for lang in ("ja", "en")]


def assert_readable(measured: dict[str, Any]) -> None:
    """The first violation's reason, penalty and remedy wholly in the viewport and in the pane that scrolls them,
    and no box over another."""
    assert measured["scrolls"] == "auto"
    for part, box in measured["parts"].items():
        assert box is not None, part
        assert inside(box, measured["viewport"]), (part, box, measured["viewport"])
        assert inside(box, measured["pane"]), (part, box, measured["pane"])
    assert overlapping(measured["boxes"]) == [], measured["boxes"]


@pytest.mark.parametrize("laptop", CASES, indirect=True, ids=[f"{w}x{h}-{lang}" for (w, h), lang in CASES])
def test_the_reason_is_the_first_thing_under_the_verdict(laptop: Laptop, lists: dict[str, str]) -> None:
    laptop.set("player", "No. 7")
    laptop.set("submission", lists["pot"])
    laptop.click("check")
    pot = laptop.verdict()
    notes_folded = laptop.driver.execute_script("return !document.getElementById('notes-box').open;")
    laptop.shot("1-pot-of-greed")
    pot_text = laptop.driver.execute_script(VISIBLE_TEXT)
    laptop.close()
    laptop.set("roster-registered", lists["legal"])
    laptop.set("roster-presented", lists["swapped"])
    Select(laptop.driver.find_element(By.ID, "roster-duel")).select_by_value("2")
    laptop.click("roster-check")
    roster = laptop.verdict()
    laptop.shot("2-roster")
    roster_text = laptop.driver.execute_script(VISIBLE_TEXT)
    laptop.close()
    page_roster = laptop.driver.execute_script(ROSTER_BOXES)

    assert notes_folded
    assert_readable(pot)
    assert_readable(roster)
    assert {"caption 0", "list 0", "caption 1", "list 1"} <= roster["boxes"].keys()  # both lists shown
    assert overlapping({str(i): box for i, box in enumerate(page_roster)}) == []
    assert ("デュエルの敗北" if laptop.lang == "ja" else "Duel forfeiture") in roster["penalty"]
    assert RULE_CODE.findall(pot_text) == []  # in English too: staff read words, not codes
    assert RULE_CODE.findall(roster_text) == []
    assert console_errors(laptop.driver) == []


@pytest.mark.parametrize("laptop", CASES, indirect=True, ids=[f"{w}x{h}-{lang}" for (w, h), lang in CASES])
def test_the_judges_tools_speak_in_words_and_stay_in_their_columns(laptop: Laptop, lists: dict[str, str]) -> None:
    laptop.set("player", "No. 7")
    laptop.set("submission", lists["pot"])
    laptop.click("check")
    laptop.verdict()
    laptop.close()
    laptop.set("assess-code", "slow_play_unintentional")
    laptop.set("assess-intentional", "true")
    laptop.click("assess")
    refused = "return document.querySelectorAll('.assessed-contradictions li').length;"
    WebDriverWait(laptop.driver, WAIT).until(lambda d: d.execute_script(refused) == 1)
    marked = laptop.driver.execute_script(
        "return Array.from(document.querySelectorAll('[aria-invalid=true]'), (e) => e.id);"
    )
    words_shown = laptop.driver.execute_script(IN_VIEW, "assessment")
    laptop.shot("3-assessor-refused")
    words = laptop.driver.find_element(By.ID, "assessment").text
    laptop.set("assess-code", "tardiness")
    laptop.set("assess-minutes", "6")
    laptop.click("assess")
    WebDriverWait(laptop.driver, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#queue tbody tr")) == 2)
    laptop.click("clock-call")
    laptop.set("tl-lp-1", "500")
    laptop.driver.execute_script("document.getElementById('time-limit').scrollIntoView();")
    laptop.shot("4-time-limit")
    fields = laptop.driver.execute_script(LIFE_POINTS)
    laptop.driver.execute_script("document.getElementById('log').scrollIntoView();")
    laptop.shot("5-queue")
    page_text = laptop.driver.execute_script(VISIBLE_TEXT)
    rows = [row.text for row in laptop.driver.find_elements(By.CSS_SELECTOR, "#queue tbody tr")]

    assert marked == ["assess-code", "assess-intentional"]
    assert words_shown
    assert RULE_CODE.findall(page_text) == [], page_text
    if laptop.lang == "ja":
        assert "「故意か」が「はい」" in words
        assert "指定の時間の5分後に指定の席にいなかった" in rows[0]
        assert "禁止カード" in rows[1]
    else:
        assert "“Intentional?” is given as yes" in words
    player = ("プレイヤー1", "プレイヤー2") if laptop.lang == "ja" else ("Player 1", "Player 2")
    assert [field["id"] for field in fields] == [f"tl-{row}-{n}" for row in ("lp", "sd", "xlp", "xsd") for n in (1, 2)]
    for field in fields:
        assert field["name"].endswith(player[int(field["id"][-1]) - 1]), field
        assert len(field["name"]) > len(player[0]) + 3, field  # the row's words, then the player
        assert field["panel"]["left"] - SLACK <= field["box"]["left"] < field["box"]["right"], field
        assert field["box"]["right"] <= field["panel"]["right"] + SLACK, field
    # The browser logs the refusal's status; nothing else went wrong.
    (logged,) = console_errors(laptop.driver)
    assert "/v1/penalties/assess" in logged
    assert "422" in logged


def test_a_code_with_digits_is_a_code() -> None:
    assert RULE_CODE.findall("(tardiness_5_minutes; PR 5) forbidden_card ydke://") == [
        "tardiness_5_minutes",
        "forbidden_card",
    ]
