"""The desk page given decks of the wrong shape, in headless Chromium at 1280×720: a JSON deck pasted or opened whose
text is a number, whose list is an object, whose cards are not objects or whose counts are strings; a .json file
that holds no object, a .ydke file that holds no link, a file that is not text, a ydke link scanned in part, a
roster list of the wrong shape, and answers the page cannot read. Each is said in the page's words, nothing is sent
for a deck the page can tell is wrong, the page is ready again at once (Escape closes the error, and the next deck
is checked), and no script throws. Screenshots of each error are saved under test-artefacts/desk-malformed/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests import browser
from tests.browser import console_errors, screenshot
from tests.decks import EXTRA, MAIN_40, SIDE
from tests.test_desk import CHECKING, SET_VALUE, WAIT, Desk, convert

pytestmark = pytest.mark.browser

browser.skip_without_chromium()

VIEWPORT = {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False}
LEGAL = {"main": MAIN_40, "extra": EXTRA, "side": SIDE}  # legal on EVENT
CASES_FILE = Path(__file__).parent / "fixtures" / "desk_malformed.json"
# What the page shows once a check has failed: the error's paragraphs (its message, then each detail), whether the
# error is whole on the screen without scrolling, and whether the page is ready (no check running: the status line
# is empty and the verdict's button closes it rather than stopping a check).
FAILED = """
const error = document.getElementById("error");
const box = error.getBoundingClientRect();
return {
  said: Array.from(error.querySelectorAll("p"), (p) => p.textContent),
  on_screen: box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
  ready: [document.getElementById("status").textContent, document.getElementById("verdict-close").textContent],
};
"""
READY = ["", "閉じる（Esc）"]
# The page's next request to POST /v1/validate answered with arguments[1] (status, Content-Type and body), or, when
# arguments[0] is true, failed as fetch fails with no network; later requests go to the service.
ANSWER_ONCE = """
const [fails, [status, type, body]] = arguments;
const fetchAsGiven = window.fetch;
window.fetch = (resource, options) => {
  if (!String(resource).endsWith("/v1/validate")) return fetchAsGiven(resource, options);
  window.fetch = fetchAsGiven;
  if (fails) return Promise.reject(new TypeError("Failed to fetch"));
  return Promise.resolve(new Response(body, {status, headers: {"Content-Type": type}}));
};
"""
# A file named arguments[1] holding arguments[2], dropped onto the element arguments[0] as from a file manager.
DROP = """
const [id, name, text] = arguments;
const files = new DataTransfer();
files.items.add(new File([text], name, {type: "application/json"}));
const drop = new DragEvent("drop", {dataTransfer: files, bubbles: true, cancelable: true});
document.getElementById(id).dispatchEvent(drop);
"""


@dataclass(frozen=True, slots=True)
class Malformed:
    """A deck of the wrong shape (`content`, as pasted or as the file `file` holds it; some shapes only a file can
    have, as a paste of `40` is a text list) and the paragraphs of what the page says of it (ANY: the parser's own)."""

    name: str
    content: str
    said: list[Any]
    file: str
    file_only: bool


def _case(raw: dict[str, Any]) -> Malformed:
    """A case of CASES_FILE: its deck as JSON, or its `text` as it is."""
    content = raw["text"] if "text" in raw else json.dumps(raw["deck"], ensure_ascii=False)
    said = [ANY if words is None else words for words in raw["said"]]
    return Malformed(raw["name"], content, said, raw.get("file", "deck.json"), raw.get("file_only", False))


CASES = [_case(raw) for raw in json.loads(CASES_FILE.read_text(encoding="utf-8"))]
PASTED = [case for case in CASES if not case.file_only]
COUNT_STRING = next(case for case in CASES if case.name == "count-string")
TOP_LIST = next(case for case in CASES if case.name == "top-list")


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """The module's one browser at 1280×720: only 127.0.0.1 resolves, and its network and console are kept."""
    driver = browser.start(tmp_path_factory.mktemp("chromium"), [browser.ONLY_LOOPBACK], logs=True)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", VIEWPORT)
    yield driver
    driver.quit()


@pytest.fixture
def desk(chromium: webdriver.Chrome, base_url: str) -> Desk:
    """The desk page, fresh: nothing kept from an earlier test, the event date set to EVENT."""
    page = Desk(chromium, base_url)
    page.open()
    return page


def _failed(desk: Desk, name: str) -> dict[str, Any]:
    """Wait for the error, keep its screenshot as `name`, and read it; and the requests the page sent for it."""
    assert desk.verdict().state == "error"
    screenshot(desk.driver, "desk-malformed", name)
    return {**desk.driver.execute_script(FAILED), "posts": desk.posts()}


def _next_is_checked(desk: Desk, field: str, deck: str, *keys: str) -> tuple[str, list[dict[str, Any]]]:
    """Escape, then the next deck pasted over the field's selected content and checked with `keys`: the state of
    its verdict, and the requests sent for it. Nothing either did may have made a script throw."""
    desk.keys(Keys.ESCAPE)
    WebDriverWait(desk.driver, WAIT).until(lambda _: not desk.shown("verdict"))
    assert desk.focused_after_waiting_for(field) == field
    assert desk.selection(field) == (0, len(desk.value(field)), len(desk.value(field)))
    desk.driver.execute_cdp_cmd("Input.insertText", {"text": deck})
    if keys:
        desk.keys(*keys)
    else:
        desk.ctrl_enter()
    state = desk.wait_for_state("legal").state
    assert console_errors(desk.driver) == []
    return state, desk.posts()


@pytest.mark.parametrize("case", PASTED, ids=[case.name for case in PASTED])
def test_a_json_deck_of_the_wrong_shape_pasted_is_said_in_words(desk: Desk, case: Malformed) -> None:
    desk.paste("submission", case.content)
    desk.driver.find_element(By.ID, "check").click()
    failed = _failed(desk, f"paste-{case.name}")
    state, posts = _next_is_checked(desk, "submission", json.dumps(LEGAL))

    assert (failed["said"], failed["on_screen"], failed["ready"], failed["posts"]) == (case.said, True, READY, [])
    assert (state, [post["main"] for post in posts]) == ("legal", [MAIN_40])


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_file_of_the_wrong_shape_opened_is_said_in_words(desk: Desk, case: Malformed, tmp_path: Path) -> None:
    path = tmp_path / case.file
    path.write_text(case.content, encoding="utf-8")
    desk.driver.find_element(By.ID, "submission-file").send_keys(str(path))
    failed = _failed(desk, f"file-{case.name}")
    state, posts = _next_is_checked(desk, "submission", json.dumps(LEGAL))

    assert (failed["said"], failed["on_screen"], failed["ready"], failed["posts"]) == (case.said, True, READY, [])
    assert (state, [post["main"] for post in posts]) == ("legal", [MAIN_40])


def test_a_ydke_link_scanned_in_part_is_said_in_words(desk: Desk, base_url: str) -> None:
    desk.paste("scan", "ydke://AAAA!")
    desk.keys(Keys.ENTER)
    failed = _failed(desk, "scan-ydke-in-part")
    link = convert(base_url, {**LEGAL, "to": "ydke"})
    state, posts = _next_is_checked(desk, "scan", link, Keys.ENTER)

    assert failed["said"] == [
        "ydke リンクの形が違います。ydke://メイン!エクストラ!サイド! の3つの部分からなるはずが、このリンクは2つです。",
        "入力された内容：ydke://AAAA!",
    ]
    assert (failed["on_screen"], failed["ready"], failed["posts"]) == (True, READY, [])
    assert (state, [post["ydke"] for post in posts]) == ("legal", [link])


@pytest.mark.parametrize(
    ("field", "list_words"), [("roster-registered", "登録したリスト"), ("roster-presented", "提示されたデッキ")]
)
def test_a_roster_list_of_the_wrong_shape_is_said_of_its_list(desk: Desk, field: str, list_words: str) -> None:
    for each in ("roster-registered", "roster-presented"):
        desk.paste(each, COUNT_STRING.content if each == field else json.dumps(LEGAL))
    desk.driver.find_element(By.ID, "roster-check").click()
    failed = _failed(desk, f"roster-{field}")
    desk.driver.execute_script(SET_VALUE, "roster-registered", json.dumps(LEGAL))  # corrected, as staff would
    state, posts = _next_is_checked(desk, "roster-presented", json.dumps(LEGAL))

    assert failed["said"] == [f"{list_words} {COUNT_STRING.said[0]}", *COUNT_STRING.said[1:]]
    assert (failed["on_screen"], failed["ready"], failed["posts"]) == (True, READY, [])
    assert (state, [post["roster"]["main"] for post in posts]) == ("legal", [MAIN_40])


def test_a_json_file_of_the_wrong_shape_dropped_on_a_roster_list_is_said_at_once(desk: Desk) -> None:
    desk.driver.execute_script(DROP, "roster-registered", "sheet.json", TOP_LIST.content)
    failed = _failed(desk, "roster-dropped")

    assert failed["said"] == [f"登録したリスト {TOP_LIST.said[0]}", *TOP_LIST.said[1:]]
    assert (failed["on_screen"], failed["ready"], failed["posts"]) == (True, READY, [])
    assert desk.value("roster-registered") == TOP_LIST.content  # kept, for staff to correct


BAD_ANSWER = "サービスから読めない答えが届きました（HTTP {status}）。"
PAGE_ERROR = "確認の途中でページにエラーが起きました。もう一度確認し、また起きるときはページを読み込み直してください。"
# How the test answers the page's request (fails, [status, Content-Type, body]), and what the page then says.
ANSWERS: dict[str, tuple[tuple[bool, list[Any]], list[Any]]] = {
    "not-json": ((False, [200, "text/html", "<html><body>Captive portal</body></html>"]), [BAD_ANSWER]),
    "proxy-page": ((False, [502, "text/html", "<html><body>Bad Gateway</body></html>"]), [BAD_ANSWER]),
    "no-report": ((False, [200, "application/json", "[]"]), [BAD_ANSWER]),
    "no-network": ((True, [0, "", ""]), ["サービスに接続できません（{origin}/v1/validate）。"]),
    "undrawable": ((False, [200, "application/json", '{"legal": true, "violations": [{}]}']), [PAGE_ERROR, ANY]),
}


@pytest.mark.parametrize("answer", list(ANSWERS))
def test_an_answer_the_page_cannot_read_is_said_in_words(desk: Desk, answer: str, base_url: str) -> None:
    (fails, given), said = ANSWERS[answer]
    desk.paste("submission", json.dumps(LEGAL))
    desk.driver.execute_script(ANSWER_ONCE, fails, given)
    desk.ctrl_enter()
    failed = _failed(desk, f"answer-{answer}")
    state, posts = _next_is_checked(desk, "submission", json.dumps(LEGAL))

    words = [w if w is ANY else w.format(status=given[0], origin=base_url) for w in said]
    assert (failed["said"], failed["on_screen"], failed["ready"]) == (words, True, READY)
    assert (state, len(posts)) == ("legal", 1)  # the test's answer came from no network, the next from the service


def test_escape_stops_the_check_after_a_failed_one(desk: Desk) -> None:
    desk.paste("submission", '{"text": 40}')
    desk.ctrl_enter()
    failed = _failed(desk, "escape-after")
    desk.keys(Keys.ESCAPE)
    WebDriverWait(desk.driver, WAIT).until(lambda _: not desk.shown("verdict"))
    desk.driver.execute_cdp_cmd("Input.insertText", {"text": json.dumps(LEGAL)})
    with desk.fetches_held():
        desk.ctrl_enter()
        desk.wait_until_fetching()
        during = desk.text("verdict")
        desk.keys(Keys.ESCAPE)
        WebDriverWait(desk.driver, WAIT).until(lambda _: not desk.shown("verdict"))
    state, _ = _next_is_checked(desk, "submission", json.dumps(LEGAL))
    desk.close_verdict()

    assert (failed["ready"], CHECKING in during) == (READY, True)
    assert (state, [row[2] for row in desk.queue()]) == ("legal", ["合法"])  # the check stopped is not recorded


def test_the_english_page_says_what_is_wrong_in_english(desk: Desk) -> None:
    desk.driver.find_element(By.ID, "lang").click()
    desk.paste("submission", COUNT_STRING.content)
    desk.ctrl_enter()
    failed = _failed(desk, "english-count-string")

    assert failed["said"] == ['"count" of card 1 of "main" must be a whole number; it is a string.', 'Given: "3"']
    assert (failed["on_screen"], failed["ready"]) == (True, ["", "Close (Esc)"])
