"""The desk's paper lists in headless Chromium, at 1280×720, as staff use them: a registration sheet the service
printed (POST /v1/decks/convert, to: sheet), rasterised at 200 dpi, is opened with 「紙のリストを読む」 and read by
POST /v1/decks/read. Without its QR code (covered in white) and with one name smudged, that line comes back to
review, and the deck cannot be checked until staff have confirmed or removed every line to review, each against the
sheet itself; with the QR code, the read is exact and checked at once. Both verdicts are legal, and the deck checked
is the sheet's; read as the Deck Roster Sheet, it is compared with the deck presented. 「登録用紙を印刷」 makes the
sheet of the deck typed as a PDF, opened in a tab of its own, or saved where the browser opens none; a file that
holds no list is refused in words and the page is ready again; the camera's photo is sent as a JPEG, and where the
camera is refused the device's own is offered. A TCG form's ruled tables (Monster Cards and Side Deck side by side,
scanned at 300 dpi) show their cells over the picture, under the lines' boxes, each line its section; a line moved to
another section is confirmed there and checked in it, and the lines of a table with no heading wait until staff
choose their section. No host but the service's own is ever asked for anything. Screenshots are saved under
test-artefacts/desk-paper/ (the forms' also under /tmp/desk-forms/)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageDraw
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests import browser
from tests.browser import ARTEFACTS, console_errors, foreign, screenshot, sent_requests
from tests.decks import EVENT, EXTRA, MAIN_40, SIDE
from tests.forms import SERIF, Table, form_pdf
from tests.test_desk import POT_OF_GREED, SET_VALUE, SHOWN, WAIT, Desk, convert
from tests.test_desk_laptop import RULE_CODE

pytestmark = pytest.mark.browser

browser.skip_without_chromium()
for _program in ("pdftoppm", "pdftotext"):
    if shutil.which(_program) is None:
        pytest.skip(f"{_program} is missing: run `bash scripts/system-deps` as root", allow_module_level=True)

VIEWPORT = {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False}
DPI = 200
PX = DPI / 72  # pixels of the page image a PDF point takes
QR_CORNER = 60 / 25.4 * DPI  # px: the top-right 60 mm square of the sheet, where its QR code is
SMUDGED = "ブラッド・ヴォルス"  # the card whose name is smudged
READ_WAIT = 90  # seconds a read (OCR on a shared machine) may take
# Chromium's own PDF viewer, built in (no host): it shows the sheet in the tab the page opens for it.
PDF_VIEWER = "chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/"
NOT_A_PICTURE = "PNG・JPEG の画像か PDF を選んでください。"  # what the page says of a file it cannot read
# A count and a name on one line of the printed sheet, as pdftotext gives its words.
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
# The headings of the sheet's sections, as pdftotext gives their first word.
SECTION_HEADINGS = {"メインデッキ": "main", "エクストラデッキ": "extra", "サイドデッキ": "side"}
# Each line of the deck read as the page shows it: its index, state ("" read for sure, review, confirmed, removed),
# count and card shown, the reason given, the names suggested, and its box over the picture in percent of the page.
READ_LINES = """
return Array.from(document.querySelectorAll("#paper-sections li.paper-line"), (li) => {
  const box = document.querySelector(`#paper-boxes .paper-box[data-index="${li.dataset.index}"]`);
  const text = (selector) => li.querySelector(selector)?.innerText.trim() ?? null;
  return {
    index: Number(li.dataset.index),
    state: li.dataset.state,
    section: li.closest(".paper-section").dataset.section,
    count: text(".paper-count"),
    card: text(".paper-card"),
    why: text(".paper-why"),
    suggestions: Array.from(li.querySelectorAll('[data-act="suggest"]'), (b) => b.dataset.name),
    box: box && {state: box.dataset.state, left: parseFloat(box.style.left), top: parseFloat(box.style.top),
      width: parseFloat(box.style.width), height: parseFloat(box.style.height)},
  };
});
"""


@dataclass(frozen=True, slots=True)
class PrintedLine:
    """A card line of the printed sheet: its count, the card's name and where it is, in pixels of the page image."""

    count: int
    name: str
    left: float
    top: float
    right: float
    bottom: float
    name_left: float
    section: str  # main, extra or side: the section heading it is printed under

    def holds(self, x: float, y: float) -> bool:
        """Whether the point (x, y) of the page image lies on this line."""
        return self.left - 10 <= x <= self.right + 10 and self.top - 10 <= y <= self.bottom + 10


@dataclass(frozen=True, slots=True)
class Sheet:
    """The legal deck as a Japanese text list, its registration sheet as PDF, the sheet's page at 200 dpi (as is, and
    with its QR code covered and one name smudged), its size and its card lines."""

    text: str
    pdf: bytes
    with_qr: Path
    smudged: Path
    size: tuple[int, int]
    lines: list[PrintedLine]


def printed_lines(pdf: Path) -> list[PrintedLine]:
    """The card lines of a printed sheet, from pdftotext's word boxes: the words of one line share their top and
    their column, and a card line starts with its count."""
    words = WORD.findall(
        subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    )
    rows: dict[tuple[float, bool], list[tuple[float, float, float, float, str]]] = {}
    for x0, y0, x1, y1, word in words:
        box = (float(x0) * PX, float(y0) * PX, float(x1) * PX, float(y1) * PX, word)
        rows.setdefault((round(float(y0), 1), float(x0) > 297), []).append(box)
    found = []
    section = {False: "main", True: "main"}  # by column: the section of the heading last passed
    for (_top, right), row in sorted(rows.items()):
        row.sort()
        section[right] = SECTION_HEADINGS.get(row[0][4], section[right])
        if len(row) > 1 and row[0][4].isdigit():
            name = " ".join(word for *_, word in row[1:])
            found.append(
                PrintedLine(
                    int(row[0][4]),
                    name,
                    row[0][0],
                    min(w[1] for w in row),
                    row[-1][2],
                    max(w[3] for w in row),
                    row[1][0],
                    section[right],
                )
            )
    return found


@pytest.fixture(scope="module")
def sheet(base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Sheet:
    """The legal deck's registration sheet, printed by the service and rasterised as a scanner would."""
    folder = tmp_path_factory.mktemp("sheet")
    text = convert(base_url, {"main": MAIN_40, "extra": EXTRA, "side": SIDE, "to": "text", "names": "ja"})
    answer = httpx.post(f"{base_url}/v1/decks/convert", json={"text": text, "to": "sheet", "names": "ja"}, timeout=60)
    assert (answer.status_code, answer.headers["Content-Type"]) == (200, "application/pdf"), answer.text
    pdf = folder / "sheet.pdf"
    pdf.write_bytes(answer.content)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(pdf), str(folder / "sheet")], check=True)
    with_qr = folder / "sheet.png"
    lines = printed_lines(pdf)
    page = Image.open(with_qr).convert("RGB")
    width, height = page.size
    draw = ImageDraw.Draw(page)
    draw.rectangle((width - QR_CORNER, 0, width, QR_CORNER), fill="white")
    # A grey blob over the middle of one name: the line is still a card line, but no longer read for sure.
    (line,) = [line for line in lines if line.name == SMUDGED]
    middle = line.name_left + 0.45 * (line.right - line.name_left)
    draw.ellipse((middle, line.top + 4, middle + 60, line.bottom - 2), fill=(170, 170, 170))
    smudged = folder / "smudged.png"
    page.save(smudged)
    return Sheet(text, answer.content, with_qr, smudged, (width, height), lines)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser saves what the page downloads."""
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory, downloads: Path) -> Iterator[webdriver.Chrome]:
    """The module's one browser: only 127.0.0.1 resolves, a fake camera it may use without asking, downloads go to
    `downloads` without asking, and its network and console are kept."""
    flags = [browser.ONLY_LOOPBACK, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
    prefs = {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    driver = browser.start(tmp_path_factory.mktemp("chromium"), flags, prefs=prefs, logs=True)
    yield driver
    driver.quit()


@contextmanager
def paper_desk(chromium: webdriver.Chrome, base_url: str, metrics: Mapping[str, object]) -> Iterator[Desk]:
    """The desk page on a screen of Chromium's device `metrics`, fresh, on EVENT, with the paper panel open."""
    chromium.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(metrics))
    page = Desk(chromium, base_url)
    page.open()
    chromium.find_element(By.ID, "paper-read").click()
    yield page
    chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture
def desk(chromium: webdriver.Chrome, base_url: str) -> Iterator[Desk]:
    """The desk page at 1280×720, fresh, on EVENT, with the paper panel open."""
    with paper_desk(chromium, base_url, VIEWPORT) as page:
        yield page


def shot(desk: Desk, name: str) -> Path:
    return screenshot(desk.driver, "desk-paper", name)


def read_file(desk: Desk, path: Path, field: str = "paper-file") -> str:
    """Choose `path` in a file input of the panel and wait for the read: "review" once the deck read is shown,
    "error" when the page says what went wrong."""
    desk.driver.find_element(By.ID, field).send_keys(str(path))
    outcome = """
    if (document.getElementById("verdict").dataset.state === "error" && !document.getElementById("verdict").hidden)
      return "error";
    return document.getElementById("paper-review").hidden ? null : "review";
    """
    result: str = WebDriverWait(desk.driver, READ_WAIT).until(lambda d: d.execute_script(outcome))
    return result


def shown_lines(desk: Desk) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = desk.driver.execute_script(READ_LINES)
    return lines


def printed_at(sheet: Sheet, box: dict[str, float]) -> PrintedLine | None:
    """The card line of the sheet under the centre of a box drawn over the picture (in percent of the page)."""
    return line_under(sheet.size, sheet.lines, box)


def line_under(size: tuple[int, int], lines: list[PrintedLine], box: dict[str, float]) -> PrintedLine | None:
    """The card line of a page `size` pixels large under the centre of a box drawn over it (in percent)."""
    width, height = size
    x = (box["left"] + box["width"] / 2) * width / 100
    y = (box["top"] + box["height"] / 2) * height / 100
    return next((line for line in lines if line.holds(x, y)), None)


def line_button(desk: Desk, index: int, act: str, name: str | None = None) -> None:
    where = f'li[data-index="{index}"] [data-act="{act}"]' + (f'[data-name="{name}"]' if name else "")
    desk.driver.find_element(By.CSS_SELECTOR, where).click()


def correct(desk: Desk, line: dict[str, Any], printed: PrintedLine | None) -> None:
    """Do what staff do with a line to review, holding the sheet: give it the count and card printed there (a name
    suggested where it is the one), and confirm it; a line that is no card line of the sheet is removed."""
    index = line["index"]
    if printed is None:
        line_button(desk, index, "remove")
        return
    if line["section"] != printed.section:  # read under another section's heading, where its own was lost
        where = f'li[data-index="{index}"] select[data-field="section"]'
        Select(desk.driver.find_element(By.CSS_SELECTOR, where)).select_by_value(printed.section)
    count = desk.driver.find_element(By.CSS_SELECTOR, f'li[data-index="{index}"] input[data-field="count"]')
    count.clear()
    count.send_keys(str(printed.count))
    if printed.name in line["suggestions"]:
        line_button(desk, index, "suggest", printed.name)
    else:
        name = desk.driver.find_element(By.CSS_SELECTOR, f'li[data-index="{index}"] input[data-field="name"]')
        name.clear()
        name.click()
        desk.driver.execute_cdp_cmd("Input.insertText", {"text": printed.name})  # typed, as an IME gives it
    line_button(desk, index, "confirm")


def check_disabled(desk: Desk) -> bool:
    return bool(desk.driver.execute_script("return document.getElementById('paper-check').disabled;"))


def checked(desk: Desk) -> dict[str, Any]:
    """The one POST /v1/validate the page sent since the last look (its JSON body), every request having gone to
    the service alone."""
    sent = sent_requests(desk.driver)
    assert foreign(sent, desk.origin) == []
    posts = [json.loads(r.body or "null") for r in sent if (r.method, r.url) == ("POST", f"{desk.origin}/v1/validate")]
    assert len(posts) == 1, posts
    body: dict[str, Any] = posts[0]
    return body


def totals(body: dict[str, Any]) -> dict[str, int]:
    return {section: sum(entry["count"] for entry in body[section]) for section in ("main", "extra", "side")}


def test_a_sheet_read_line_by_line_is_checked_only_once_staff_have_confirmed_each_line_to_review(
    desk: Desk, sheet: Sheet
) -> None:
    assert read_file(desk, sheet.smudged) == "review"
    shot(desk, "a-1-read")
    lines = shown_lines(desk)
    summary = desk.text("paper-summary")
    panel = desk.text("paper")
    to_review = [line for line in lines if line["state"] == "review"]
    printed = {line["index"]: printed_at(sheet, line["box"]) if line["box"] else None for line in to_review}
    smudged = [line for line in to_review if getattr(printed[line["index"]], "name", None) == SMUDGED]
    blocked = check_disabled(desk)
    left = desk.text("paper-left")

    assert "1行ずつ" in summary
    assert RULE_CODE.findall(panel) == [], panel  # the reasons in words, not codes
    assert len(smudged) == 1, lines
    assert smudged[0]["why"]  # the reason, in words
    # The card the reader could only guess is offered among the others, never filled in as if read.
    name_field = f'li[data-index="{smudged[0]["index"]}"] input[data-field="name"]'
    assert desk.driver.find_element(By.CSS_SELECTOR, name_field).get_attribute("value") == ""
    assert SMUDGED in smudged[0]["suggestions"]
    assert smudged[0]["box"]["state"] == "review"  # its box marked too
    assert blocked
    assert f"あと{len(to_review)}行" in left

    # Highlight the smudged line from its box, then correct every line to review as the sheet says.
    desk.driver.find_element(By.CSS_SELECTOR, f'.paper-box[data-index="{smudged[0]["index"]}"]').click()
    picked = desk.driver.execute_script("return document.querySelector('li.paper-line.picked').dataset.index;")
    shot(desk, "a-2-smudged-line-picked")
    for number, line in enumerate(to_review):
        correct(desk, line, printed[line["index"]])
        if number == 0:
            shot(desk, "a-3-first-line-confirmed")
    states = {line["index"]: line["state"] for line in shown_lines(desk)}
    ready = not check_disabled(desk)
    shot(desk, "a-4-ready")
    sent_requests(desk.driver)  # what the read sent is looked at no more
    desk.driver.find_element(By.ID, "paper-check").click()
    shown = desk.verdict()
    shot(desk, "a-5-verdict")
    body = checked(desk)

    assert int(picked) == smudged[0]["index"]
    assert {states[line["index"]] for line in to_review} <= {"confirmed", "removed"}
    assert ready
    assert (shown.state, shown.heading) == ("legal", "合法")
    assert totals(body) == {"main": 40, "extra": 2, "side": 8}
    assert body["date"] == EVENT
    assert console_errors(desk.driver) == []


def test_a_sheet_with_its_qr_code_is_read_exactly_and_checked_at_once(desk: Desk, sheet: Sheet) -> None:
    assert read_file(desk, sheet.with_qr) == "review"
    shot(desk, "b-1-read-from-qr")
    lines = shown_lines(desk)
    summary = desk.text("paper-summary")
    qr_boxes = len(desk.driver.find_elements(By.CSS_SELECTOR, "#paper-boxes .paper-qr"))
    ready = not check_disabled(desk)
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "paper-check").click()
    shown = desk.verdict()
    shot(desk, "b-2-verdict")
    body = checked(desk)

    assert "QRコード" in summary
    assert [line for line in lines if line["state"]] == []  # nothing to review
    assert {(line["section"], int(line["count"])) for line in lines} >= {("main", 3), ("extra", 1), ("side", 2)}
    assert qr_boxes == 1
    assert ready
    assert (shown.state, shown.heading) == ("legal", "合法")
    assert totals(body) == {"main": 40, "extra": 2, "side": 8}
    assert all("passcode" in entry for section in ("main", "extra", "side") for entry in body[section])
    assert console_errors(desk.driver) == []


def test_the_registration_sheet_of_the_deck_typed_opens_as_a_pdf_to_print(desk: Desk, sheet: Sheet) -> None:
    desk.driver.execute_script(SET_VALUE, "player", "山田 太郎")
    desk.paste("submission", sheet.text)
    (page,) = desk.driver.window_handles
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "sheet-print").click()
    WebDriverWait(desk.driver, WAIT).until(lambda d: len(d.window_handles) == 2)
    status = desk.text("sheet-status")
    shot(desk, "c-1-sheet-made")
    sent = sent_requests(desk.driver)
    posts = [json.loads(r.body or "null") for r in sent if r.url == f"{desk.origin}/v1/decks/convert"]
    href = desk.driver.find_element(By.ID, "sheet-link").get_attribute("href")
    (tab,) = set(desk.driver.window_handles) - {page}
    desk.driver.switch_to.window(tab)
    WebDriverWait(desk.driver, WAIT).until(lambda d: d.current_url.startswith("blob:"))
    url = desk.driver.current_url
    desk.driver.close()
    desk.driver.switch_to.window(page)

    assert [url for url in foreign(sent, desk.origin) if not url.startswith(PDF_VIEWER)] == []
    assert posts == [
        {
            "text": sheet.text,
            "to": "sheet",
            "names": "ja",
            "sheet": {"player_name": "山田 太郎", "date": EVENT, "format": "ocg", "paper": "a4"},
        }
    ]
    assert url == href  # the PDF the service made, in a tab of its own to print
    assert status == "登録用紙を新しいタブで開きました。そこから印刷してください。"
    assert console_errors(desk.driver) == []


def test_a_sheet_the_browser_opens_no_tab_for_is_offered_as_a_file(desk: Desk, sheet: Sheet, downloads: Path) -> None:
    desk.driver.execute_script("window.open = () => null;")  # as a popup blocker answers
    desk.paste("submission", sheet.text)
    desk.driver.find_element(By.ID, "sheet-print").click()
    WebDriverWait(desk.driver, WAIT).until(lambda d: d.execute_script(SHOWN, "sheet-link"))
    status = desk.text("sheet-status")
    shot(desk, "c-2-sheet-blocked")
    link = desk.driver.find_element(By.ID, "sheet-link")
    href, download = link.get_attribute("href"), link.get_attribute("download")
    link.click()
    saved = downloads / "deck-sheet.pdf"
    WebDriverWait(desk.driver, WAIT).until(lambda _: saved.exists() and saved.stat().st_size > 0)

    assert status == "新しいタブを開けませんでした。「登録用紙（PDF）を保存」で保存してから印刷してください。"
    assert str(href).startswith("blob:")
    assert download == "deck-sheet.pdf"
    assert saved.read_bytes().startswith(b"%PDF-")
    assert foreign(sent_requests(desk.driver), desk.origin) == []


def test_a_sheet_read_as_the_registered_list_is_compared_with_the_deck_presented(desk: Desk, sheet: Sheet) -> None:
    swapped = sheet.text.replace(
        "3 ブラック・マジシャン\n", "2 ブラック・マジシャン\n1 ブラック・マジシャン・ガール\n", 1
    )
    desk.driver.execute_script(SET_VALUE, "roster-presented", swapped)
    desk.driver.execute_script(SET_VALUE, "roster-duel", "2")
    assert read_file(desk, sheet.with_qr) == "review"
    desk.driver.execute_script(SET_VALUE, "paper-use", "registered")
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "paper-check").click()
    shown = desk.verdict()
    shot(desk, "f-1-roster-verdict")
    body = checked(desk)

    assert (shown.state, shown.penalty) == ("illegal", "デュエルの敗北（次のデュエル）")
    assert shown.codes == ["roster_mismatch"]
    assert (body["text"], body["duel"]) == (swapped, 2)  # the deck presented, against the sheet read
    assert totals(body["roster"]) == {"main": 40, "extra": 2, "side": 8}
    assert console_errors(desk.driver) == []


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("list.png", "3 ブラック・マジシャン\n".encode(), NOT_A_PICTURE),  # a text list named as a picture
        ("white.png", None, "デッキリストを読み取れませんでした。"),  # a picture with nothing on it
        ("list.txt", b"3 Dark Magician\n", NOT_A_PICTURE),  # no picture at all: never sent
    ],
    ids=["text-named-png", "blank-png", "text-file"],
)
def test_a_file_that_holds_no_list_is_refused_in_words_and_the_page_is_ready_again(
    desk: Desk, tmp_path: Path, name: str, content: bytes | None, said: str
) -> None:
    path = tmp_path / name
    if content is None:
        Image.new("RGB", (1, 1), "white").save(path)
    else:
        path.write_bytes(content)
    sent_requests(desk.driver)
    outcome = read_file(desk, path)
    words = desk.text("error")
    shot(desk, f"d-{name.replace('.', '-')}-refused")
    sent = sent_requests(desk.driver)
    desk.close_verdict()
    ready = desk.driver.execute_script(
        "return [document.getElementById('paper-file').disabled, document.getElementById('paper-status').innerText,"
        " document.getElementById('paper-review').hidden, document.activeElement.id];"
    )
    reads = [r for r in sent if r.url == f"{desk.origin}/v1/decks/read"]

    assert outcome == "error"
    assert words.splitlines()[0] == said, words
    assert RULE_CODE.findall(words) == [], words  # words, not codes
    assert ready == [False, "", True, "paper-file"]
    assert foreign(sent, desk.origin) == []
    assert len(reads) == (0 if name.endswith(".txt") else 1)
    assert [error for error in console_errors(desk.driver) if "/v1/decks/read" not in error] == []


def test_the_camera_takes_a_jpeg_and_a_refused_camera_offers_the_devices_own(desk: Desk, sheet: Sheet) -> None:
    desk.driver.find_element(By.ID, "paper-camera").click()
    WebDriverWait(desk.driver, WAIT).until(
        lambda d: d.execute_script("return !document.getElementById('paper-shoot').disabled;")
    )
    shot(desk, "e-1-camera")
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "paper-shoot").click()
    WebDriverWait(desk.driver, READ_WAIT).until(lambda d: d.execute_script(SHOWN, "error"))
    words = desk.text("error")
    sent = [r for r in sent_requests(desk.driver) if r.url == f"{desk.origin}/v1/decks/read"]
    desk.close_verdict()
    camera_off = desk.driver.execute_script("return document.getElementById('paper-camera-view').hidden;")
    # The camera refused: the device's own camera, through a file input, instead.
    desk.driver.execute_script(
        "navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));"
    )
    desk.driver.find_element(By.ID, "paper-camera").click()
    WebDriverWait(desk.driver, WAIT).until(lambda d: d.execute_script(SHOWN, "paper-capture"))
    offered = desk.text("paper-status")
    capture = desk.driver.find_element(By.ID, "paper-capture").get_attribute("capture")
    shot(desk, "e-2-camera-refused")
    outcome = read_file(desk, sheet.with_qr, "paper-capture")

    assert [(r.method, r.headers.get("Content-Type")) for r in sent] == [("POST", "image/jpeg")]
    assert "読み取れません" in words
    assert camera_off
    assert "「写真を撮る」" in offered
    assert capture == "environment"
    assert outcome == "review"


LOST = "ブラック・マジシャン"  # the card whose whole line is painted out: no reading of the sheet holds it


def test_a_line_the_reader_lost_is_said_and_the_deck_waits_until_staff_add_it_or_tick_the_totals(
    desk: Desk, sheet: Sheet, tmp_path: Path
) -> None:
    page = Image.open(sheet.with_qr).convert("RGB")
    draw = ImageDraw.Draw(page)
    draw.rectangle((page.width - QR_CORNER, 0, page.width, QR_CORNER), fill="white")
    (line,) = [line for line in sheet.lines if line.name == LOST]
    draw.rectangle((line.left - 6, line.top - 6, line.right + 6, line.bottom + 6), fill="white")
    lost = tmp_path / "lost.png"
    page.save(lost)
    assert read_file(desk, lost) == "review"
    said = desk.text("paper-sections")
    for noisy in [line for line in shown_lines(desk) if line["state"] == "review"]:
        correct(desk, noisy, printed_at(sheet, noisy["box"]) if noisy["box"] else None)
    blocked = check_disabled(desk)
    left = desk.text("paper-left")
    ticks = len(desk.driver.find_elements(By.CSS_SELECTOR, '.paper-totals input[data-act="totals"]'))
    shot(desk, "g-1-a-line-lost")
    desk.driver.find_element(By.CSS_SELECTOR, '.paper-section[data-section="main"] [data-act="add"]').click()
    added = max(shown_lines(desk), key=lambda shown_line: int(shown_line["index"]))
    correct(desk, added, line)
    # With the line added, every printed total agrees: nothing is left to tick.
    warned = len(desk.driver.find_elements(By.CSS_SELECTOR, ".paper-totals"))
    ready = not check_disabled(desk)
    shot(desk, "g-2-added")
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "paper-check").click()
    shown = desk.verdict()
    body = checked(desk)

    assert "見出しは40枚、読み取ったのは37枚" in said  # Japanese headings print their count as `40枚`
    assert "見出しの枚数の違いを確認してください。" in left
    assert blocked
    assert ticks == 1
    assert (added["section"], added["state"]) == ("main", "review")
    assert warned == 0
    assert ready
    assert (shown.state, shown.heading) == ("legal", "合法")
    assert totals(body) == {"main": 40, "extra": 2, "side": 8}
    assert console_errors(desk.driver) == []


POT = "強欲な壺"  # the forbidden card (Pot of Greed) the illegal deck's sheet lists
UNCOUNTED = "ブラッド・ヴォルス"  # the card whose count is painted out: read for sure, its count to give


@pytest.fixture(scope="module")
def pot_sheet(base_url: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[PrintedLine]]:
    """The registration sheet of the legal deck with Pot of Greed for a Magical Dimension, printed by the service and
    rasterised, its QR code covered and the count of UNCOUNTED's line painted out, with its card lines."""
    folder = tmp_path_factory.mktemp("pot-sheet")
    fields = {"main": POT_OF_GREED, "extra": EXTRA, "side": SIDE, "to": "sheet", "names": "ja"}
    answer = httpx.post(f"{base_url}/v1/decks/convert", json=fields, timeout=60)
    assert answer.status_code == 200, answer.text
    pdf = folder / "sheet.pdf"
    pdf.write_bytes(answer.content)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(pdf), str(folder / "sheet")], check=True)
    lines = printed_lines(pdf)
    page = Image.open(folder / "sheet.png").convert("RGB")
    draw = ImageDraw.Draw(page)
    draw.rectangle((page.width - QR_CORNER, 0, page.width, QR_CORNER), fill="white")
    (line,) = [line for line in lines if line.name == UNCOUNTED]
    draw.rectangle((line.left - 6, line.top - 6, line.name_left - 8, line.bottom + 6), fill="white")
    path = folder / "uncounted.png"
    page.save(path)
    return path, lines


def test_a_line_read_for_sure_offers_its_own_card_and_the_verdict_marks_the_line_of_the_card_it_names(
    desk: Desk, pot_sheet: tuple[Path, list[PrintedLine]]
) -> None:
    path, printed = pot_sheet
    assert read_file(desk, path) == "review"
    lines = shown_lines(desk)
    with Image.open(path) as picture:
        size = picture.size
    found = {line["index"]: line_under(size, printed, line["box"]) for line in lines if line["box"]}
    (uncounted,) = [line for line in lines if getattr(found.get(line["index"]), "name", None) == UNCOUNTED]
    name_field = f'li[data-index="{uncounted["index"]}"] input[data-field="name"]'
    prefilled = desk.driver.find_element(By.CSS_SELECTOR, name_field).get_attribute("value")
    shot(desk, "h-1-count-to-give")
    for line in [line for line in lines if line["state"] == "review"]:
        correct(desk, line, found.get(line["index"]))
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "paper-check").click()
    shown = desk.verdict()
    shot(desk, "h-2-pot-of-greed-marked")
    body = checked(desk)

    # The line's card was read for sure: it is the name given and the first offered; only its count is to give.
    assert (uncounted["state"], uncounted["count"]) == ("review", "?")
    assert prefilled == UNCOUNTED
    assert uncounted["suggestions"][:1] == [UNCOUNTED]
    assert (shown.state, shown.codes) == ("illegal", ["forbidden_card"])
    # The deck went by passcode: its lines are marked from the entries the violation names.
    assert shown.offending == [(line.number, line.text) for line in shown.lines if line.text == f"1 {POT}"]
    assert len(shown.offending) == 1
    assert totals(body) == {"main": 40, "extra": 2, "side": 8}
    assert console_errors(desk.driver) == []


# ---- Forms: ruled tables, each line's section from the heading over its table ----

FORM_DPI = 300
MONSTERS = ((3, "Dark Magician"), (2, "Gemini Elf"))
SIDE_ROWS = ((2, "Mystic Tomato"), (1, "Giant Rat"))
FORM_SECTIONS = {name: "main" for _count, name in MONSTERS} | {name: "side" for _count, name in SIDE_ROWS}
MOVED = "Giant Rat"  # the line staff move from the side deck to the main deck
FORM_SHOTS = Path("/tmp/desk-forms")  # the forms' screenshots, to look at
SECTION_WORDS = {"main": "メインデッキ", "extra": "エクストラデッキ", "side": "サイドデッキ"}
# The page's fetch, wrapped to keep the answer of POST /v1/decks/read it was given (as window.readAnswer).
KEEP_READ = """
const fetched = window.fetch;
window.fetch = async (...request) => {
  const answer = await fetched(...request);
  if (String(request[0]).endsWith("/v1/decks/read")) window.readAnswer = await answer.clone().json();
  return answer;
};
"""
# The cells drawn over the picture, and whether they lie under the lines' boxes and out of reach: their layer before
# the boxes', hidden from screen readers, nothing in it focusable, and the point at a box's centre the box's.
DRAWN_CELLS = """
const layer = document.getElementById("paper-cells");
const cells = Array.from(layer.querySelectorAll(".paper-cell"), (cell) => ({left: parseFloat(cell.style.left),
  top: parseFloat(cell.style.top), width: parseFloat(cell.style.width), height: parseFloat(cell.style.height)}));
const boxes = document.getElementById("paper-boxes");
const hit = Array.from(boxes.querySelectorAll(".paper-box"), (box) => {
  const r = box.getBoundingClientRect();
  return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === box;
});
const style = layer.querySelector(".paper-cell") && getComputedStyle(layer.querySelector(".paper-cell"));
return {cells, hit, under: Boolean(layer.compareDocumentPosition(boxes) & Node.DOCUMENT_POSITION_FOLLOWING),
  hidden: layer.getAttribute("aria-hidden"), focusable: layer.querySelectorAll("[tabindex], a, button, input").length,
  pointer: style?.pointerEvents, shown: layer.querySelector(".paper-cell")?.checkVisibility() ?? false};
"""
# Each section's heading over the list, and for each line the section shown on its own choice of section.
SECTION_SHOWN = """
return {
  headings: Array.from(document.querySelectorAll("#paper-sections .paper-section h4"), (h) => h.innerText.trim()),
  chosen: Object.fromEntries(Array.from(document.querySelectorAll("#paper-sections li.paper-line"), (li) => {
    const field = li.querySelector('select[data-field="section"]');
    return [li.dataset.index, field && {value: field.value, words: field.selectedOptions[0]?.innerText ?? ""}];
  })),
};
"""


@dataclass(frozen=True, slots=True)
class Form:
    """A TCG deck list form, `Qty | Card Name` tables side by side, as a typed PDF and as 300 dpi scans: with both
    tables' headings (Monster Cards, Side Deck), and with the Side Deck table's heading left out."""

    pdf: Path
    headed: Path
    headless: Path


@pytest.fixture(scope="module")
def form(tmp_path_factory: pytest.TempPathFactory) -> Form:
    folder = tmp_path_factory.mktemp("form")
    labels = [(15, 15, "DECK REGISTRATION SHEET"), (15, 25, "First Name: Taro"), (110, 25, "CARD GAME ID: 0000000035")]
    paths = {}
    for kind, heading in (("headed", "Side Deck"), ("headless", None)):
        tables = [Table(15, 45, 88, "Monster Cards", MONSTERS, 8), Table(107, 45, 88, heading, SIDE_ROWS, 8)]
        pdf = folder / f"{kind}.pdf"
        pdf.write_bytes(form_pdf(tables, labels, SERIF, count_left=True))
        subprocess.run(
            ["pdftoppm", "-r", str(FORM_DPI), "-png", "-singlefile", str(pdf), str(folder / kind)], check=True
        )
        paths[kind] = folder / f"{kind}.png"
    return Form(folder / "headed.pdf", paths["headed"], paths["headless"])


def read_form(desk: Desk, path: Path) -> dict[str, Any]:
    """Read `path` in the panel as staff do, and the answer the page was given."""
    desk.driver.execute_script(KEEP_READ)
    assert read_file(desk, path) == "review"
    answer: dict[str, Any] = desk.driver.execute_script("return window.readAnswer;")
    return answer


def keep_shot(desk: Desk, name: str, selector: str | None = None) -> Path:
    """A screenshot of the page (or of the element at `selector` alone), kept with the others and copied to
    /tmp/desk-forms/ to look at."""
    if selector is None:
        path = shot(desk, name)
    else:
        path = ARTEFACTS / "desk-paper" / f"{name}.png"
        assert desk.driver.find_element(By.CSS_SELECTOR, selector).screenshot(str(path))
    FORM_SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, FORM_SHOTS / path.name)
    return path


def assert_cells_drawn(desk: Desk, answer: dict[str, Any]) -> None:
    """The cells over the picture: as many as the answer's on its page, where it puts them, under the lines' boxes
    and out of reach."""
    drawn = desk.driver.execute_script(DRAWN_CELLS)
    page = answer["pages"][0]
    cells = [cell for cell in answer["cells"] if cell["page"] == 1]
    first = cells[0]["box"]

    assert len(cells) >= 2 * 2 * 3  # two tables of two columns, their header and rows
    assert len(drawn["cells"]) == len(cells)
    assert drawn["cells"][0]["left"] == pytest.approx(100 * first[0] / page["width"], abs=0.01)
    assert drawn["cells"][0]["top"] == pytest.approx(100 * first[1] / page["height"], abs=0.01)
    assert drawn["shown"]
    assert (drawn["under"], drawn["hidden"], drawn["focusable"], drawn["pointer"]) == (True, "true", 0, "none")
    assert drawn["hit"]
    assert all(drawn["hit"])  # every line's box takes the click over the cells


def choose_section(desk: Desk, index: int, section: str) -> None:
    field = desk.driver.find_element(By.CSS_SELECTOR, f'li[data-index="{index}"] select[data-field="section"]')
    Select(field).select_by_value(section)


def test_a_form_shows_its_table_cells_and_each_lines_section_and_a_line_moved_is_checked_in_its_new_section(
    desk: Desk, form: Form
) -> None:
    answer = read_form(desk, form.headed)
    shown = desk.driver.execute_script(SECTION_SHOWN)
    lines = shown_lines(desk)
    keep_shot(desk, "h-1-form-read")
    keep_shot(desk, "h-1-form-picture-cells", "#paper-sheet")
    names = {i: line["name_en"] for i, line in enumerate(answer["lines"])}
    (moved,) = [line for line in lines if names[line["index"]] == MOVED]

    assert answer["source"] == "ocr"
    assert "1行ずつ" in desk.text("paper-summary")
    assert_cells_drawn(desk, answer)
    # Every line in its own table's section, read for sure, and its section shown on its line.
    assert sorted(names.values()) == sorted(FORM_SECTIONS)
    assert {names[line["index"]]: line["section"] for line in lines} == FORM_SECTIONS
    assert [line["state"] for line in lines] == [""] * len(lines)
    assert {i: chosen["words"] for i, chosen in shown["chosen"].items()} == {
        str(line["index"]): SECTION_WORDS[line["section"]] for line in lines
    }
    assert shown["headings"] == ["メインデッキ（5枚）", "サイドデッキ（3枚）"]
    assert not check_disabled(desk)

    # Staff move Giant Rat to the main deck: it is to be confirmed there, and nothing is checked until it is.
    choose_section(desk, moved["index"], "main")
    after = {line["index"]: line for line in shown_lines(desk)}[moved["index"]]
    blocked = check_disabled(desk)
    focused = desk.driver.execute_script("return document.activeElement.closest('li')?.dataset.index ?? null;")
    keep_shot(desk, "h-2-form-line-moved")
    line_button(desk, moved["index"], "confirm")
    confirmed = {line["index"]: line for line in shown_lines(desk)}[moved["index"]]
    headings = desk.driver.execute_script(SECTION_SHOWN)["headings"]
    keep_shot(desk, "h-3-form-line-confirmed")
    keep_shot(desk, "h-3-form-list-confirmed", ".paper-list")
    ready = not check_disabled(desk)
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "paper-check").click()
    desk.verdict()
    body = checked(desk)
    passcode = answer["lines"][moved["index"]]["passcode"]

    assert (after["section"], after["state"], after["box"]["state"]) == ("main", "review", "review")
    assert after["why"] == "サイドデッキの行として読み取りました。区分を変えたので、確定してください。"
    assert blocked
    assert focused == str(moved["index"])  # the focus stays on the line moved
    assert (confirmed["section"], confirmed["state"]) == ("main", "confirmed")
    assert headings == ["メインデッキ（6枚）", "サイドデッキ（2枚）"]
    assert ready
    assert {"passcode": passcode, "count": 1} in body["main"]
    assert passcode not in [entry["passcode"] for entry in body["side"]]
    assert (totals(body)["main"], totals(body)["side"]) == (6, 2)
    assert console_errors(desk.driver) == []


def test_a_table_with_no_heading_over_it_waits_for_staff_to_choose_each_lines_section(desk: Desk, form: Form) -> None:
    answer = read_form(desk, form.headless)
    lines = shown_lines(desk)
    unclear = [i for i, line in enumerate(answer["lines"]) if "section_unclear" in line["reasons"]]
    shown = desk.driver.execute_script(SECTION_SHOWN)
    flagged = [line for line in lines if line["index"] in unclear]
    blocked = check_disabled(desk)
    focused = desk.driver.execute_script(
        "const at = document.activeElement; return [Number(at.closest('li')?.dataset.index), at.dataset.field];"
    )
    keep_shot(desk, "i-1-form-no-heading")
    keep_shot(desk, "i-1-form-list-no-heading", ".paper-list")
    # Confirmed without a section chosen: refused in words, the choice focused.
    line_button(desk, unclear[0], "confirm")
    refused = desk.driver.execute_script(
        "const li = document.querySelector(arguments[0]), field = document.activeElement.dataset.field;"
        "return [li.dataset.state, li.querySelector('.paper-invalid').innerText, field];",
        f'li[data-index="{unclear[0]}"]',
    )
    # In English too, the lines of no section are said to be so.
    desk.driver.find_element(By.ID, "lang").click()
    english = desk.driver.execute_script(SECTION_SHOWN)["headings"]
    desk.driver.execute_script("document.getElementById('paper-review').scrollIntoView({block: 'start'});")
    keep_shot(desk, "i-2-form-no-heading-en")
    desk.driver.find_element(By.ID, "lang").click()
    for index in unclear:
        choose_section(desk, index, "side")
        line_button(desk, index, "confirm")
    resolved = [line for line in shown_lines(desk) if line["index"] in unclear]
    keep_shot(desk, "i-3-form-sections-chosen")
    ready = not check_disabled(desk)
    sent_requests(desk.driver)
    desk.driver.find_element(By.ID, "paper-check").click()
    desk.verdict()
    body = checked(desk)

    assert sorted(answer["lines"][i]["name_en"] for i in unclear) == sorted(name for _count, name in SIDE_ROWS)
    assert answer["deck"]["side"] == []
    assert {line["section"] for line in flagged} == {"unknown"}  # listed apart, in no section until chosen
    assert [line["state"] for line in flagged] == ["review"] * len(unclear)
    assert [line["why"] for line in flagged] == [answer["lines"][i]["message"] for i in unclear]
    assert all("見出しから決められませんでした" in line["why"] for line in flagged)
    assert [line["box"]["state"] for line in flagged] == ["review"] * len(unclear)
    assert [shown["chosen"][str(i)]["value"] for i in unclear] == [""] * len(unclear)
    assert shown["headings"][0] == "区分が未定の行（3枚）"
    assert blocked
    assert focused == [flagged[0]["index"], "section"]  # the first line's section, to choose
    assert refused == ["review", "この行の区分（メイン・エクストラ・サイド）を選んでから確定してください。", "section"]
    assert english[0] == "Lines of no section yet (3)"
    assert english[1:] == ["Main deck (5)"]
    assert [(line["section"], line["state"]) for line in resolved] == [("side", "confirmed")] * len(unclear)
    assert ready
    assert totals(body) == {"main": 5, "extra": 0, "side": 3}
    assert console_errors(desk.driver) == []


def test_a_typed_pdf_form_is_said_to_be_read_from_its_text(desk: Desk, form: Form) -> None:
    answer = read_form(desk, form.pdf)
    summary = desk.text("paper-summary")
    lines = shown_lines(desk)

    assert answer["source"] == "text"
    assert summary.startswith("PDFの文字から読み取りました（OCRなし）。"), summary
    assert not desk.shown("paper-sheet")  # a PDF: the list alone, no picture to draw cells over
    assert sorted((line["section"], line["state"]) for line in lines) == sorted(
        (section, "") for section in FORM_SECTIONS.values()
    )
    assert console_errors(desk.driver) == []
