"""Hostile pages over HTTP (issue 34 item 5): pages that are no deck list, or a list no reader could take for one
(noise, only ruled lines, a page of digits, a list turned on its side or upside down, prose, a lone heading, an
all-black page, a 1×1 image, a strip 20,000 pixels wide, a tiny page, a PDF whose page has no size or only lines) are
answered 200 with nothing put in the deck for sure, or with the documented 4xx where the file itself cannot be read;
never a 500. A list that holds lines whose count stands inside a word (`コメント(2)`, `(③)`, `-3x`, which raised
IndexError in paper/lines.py) puts in the deck only the cards the page prints, no more copies than it prints.

Every page is drawn here, with Pillow or as a PDF written out by hand, and all go to one server."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from deckcheck.paper import ocr

pytestmark = pytest.mark.skipif(
    not (shutil.which("pdftoppm") and shutil.which("pdfinfo") and ocr.available()),
    reason="poppler-utils or Tesseract's language data are missing: run `bash scripts/system-deps` as root",
)

FONT = Path(__file__).resolve().parent.parent / "service" / "deckcheck" / "paper" / "fonts" / "ipaexg.ttf"
A4 = (1240, 1754)  # A4 at 150 dpi: the reader scales every page to the same working size
EMPTY_DECK: dict[str, list[Any]] = {"main": [], "extra": [], "side": []}
LIST = ["メインデッキ (9)", "3 ブラック・マジシャン", "3 強欲な壺", "3 ブラック・マジシャン・ガール"]
# Lines whose count stands inside a word, among cards read for sure: each raised IndexError in paper/lines.py
# (`counted[0]` of no word) and the route answered 500.
ODD = ["メインデッキ (9)", "3 ブラック・マジシャン", "コメント(2)", "3 ブラック・マジシャン", "(③)", "-3x"]
PROSE = [
    "本日は晴天なり。駅前の図書館は午前九時に開き、",
    "午後五時に閉まります。雨の日は傘立てをご利用ください。",
    "The library by the station opens at nine in the morning",
    "and closes at five. Please leave wet umbrellas at the door.",
    "春になると川沿いの桜が咲き、多くの人が散歩に訪れます。",
    "In spring the cherry trees along the river are in bloom.",
]


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _typed(lines: list[str], size: int = 40, page: tuple[int, int] = A4) -> Image.Image:
    """`lines` typed in IPAexGothic, `size` pixels high, down a white page."""
    image = Image.new("L", page, 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), size)
    for n, line in enumerate(lines):
        draw.text((120, 150 + round(n * size * 1.8)), line, font=font, fill=0)
    return image


def _noise() -> bytes:
    return _png(Image.fromarray(np.random.default_rng(34).integers(0, 256, A4[::-1], dtype=np.uint8)))


def _ruled() -> bytes:
    image = Image.new("L", A4, 255)
    draw = ImageDraw.Draw(image)
    for y in range(100, A4[1] - 100, 60):
        draw.line((100, y, A4[0] - 100, y), fill=0, width=3)
    for x in (100, 220, A4[0] - 100):
        draw.line((x, 100, x, A4[1] - 160), fill=0, width=3)
    return _png(image)


def _digits() -> bytes:
    rng = np.random.default_rng(5)
    rows = ["  ".join(str(n) for n in rng.integers(0, 100, 8)) for _row in range(20)]
    return _png(_typed(rows, 36))


def _turned(angle: int) -> Callable[[], bytes]:
    return lambda: _png(_typed(LIST).rotate(angle, expand=True, fillcolor=255))


def _black() -> bytes:
    return _png(Image.new("L", A4, 0))


def _strip(height: int) -> Callable[[], bytes]:
    """A strip 20,000 pixels wide, a rule of ink along it."""

    def make() -> bytes:
        image = Image.new("L", (20_000, height), 255)
        ImageDraw.Draw(image).rectangle((100, height // 4, 19_900, height - 1 - height // 4), fill=0)
        return _png(image)

    return make


def _tiny() -> bytes:
    image = Image.new("L", (30, 30), 255)
    ImageDraw.Draw(image).text((8, 4), "3", font=ImageFont.truetype(str(FONT), 20), fill=0)
    return _png(image)


def _pdf(media_box: bytes, content: bytes, resources: bytes = b"<< >>") -> bytes:
    """A PDF of one page of `media_box` whose content stream is `content`, its cross-reference table exact."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [" + media_box + b"] /Contents 4 0 R /Resources " + resources + b" >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _pdf_of_prose() -> bytes:
    """Prose typed into a PDF in Helvetica: read from its text layer, no OCR."""
    shown = b"\n".join(
        b"BT /F1 14 Tf 60 %d Td (%s) Tj ET" % (760 - 30 * n, line.encode())
        for n, line in enumerate(PROSE[2:4] + PROSE[5:])
    )
    return _pdf(b"0 0 595 842", shown, b"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>")


def _pdf_of_lines() -> bytes:
    rules = [b"50 %d m 545 %d l S" % (y, y) for y in range(80, 780, 24)]
    rules += [b"%d 80 m %d 776 l S" % (x, x) for x in (50, 110, 545)]
    return _pdf(b"0 0 595 842", b"1 w\n" + b"\n".join(rules))


# Why a page that is not read is refused, by the status of the refusal.
REFUSED = {422: "unreadable_pdf", 504: "read_timeout"}
# name: (the file, its media type, the statuses it may be answered with, the cards it prints: name -> copies)
PAGES: dict[str, tuple[Callable[[], bytes], str, tuple[int, ...], dict[str, int]]] = {
    "noise": (_noise, "image/png", (200,), {}),
    "ruled_lines": (_ruled, "image/png", (200,), {}),
    "digits": (_digits, "image/png", (200,), {}),
    "list_turned_90": (_turned(90), "image/png", (200,), {}),
    "list_turned_180": (_turned(180), "image/png", (200,), {}),
    "prose": (lambda: _png(_typed(PROSE, 36)), "image/png", (200,), {}),
    "only_a_heading": (lambda: _png(_typed(["メインデッキ (40)"])), "image/png", (200,), {}),
    "all_black": (_black, "image/png", (200,), {}),
    "one_pixel": (lambda: _png(Image.new("L", (1, 1), 0)), "image/png", (200,), {}),
    # A strip is seen by the detector at its most pixels (detect.MOST_PIXELS): about 8 s of one idle core, so on a
    # loaded machine its read may run out of the request's time. A timeout puts nothing in the deck either.
    "strip_20000x10": (_strip(10), "image/png", (200, 504), {}),
    "strip_20000x3": (_strip(3), "image/png", (200, 504), {}),
    "tiny_30x30": (_tiny, "image/png", (200,), {}),
    "pdf_page_of_no_size": (lambda: _pdf(b"0 0 0 0", b""), "application/pdf", (200, 422), {}),
    "pdf_of_only_lines": (_pdf_of_lines, "application/pdf", (200,), {}),
    "pdf_of_prose_as_text": (_pdf_of_prose, "application/pdf", (200,), {}),
    "odd_counts": (lambda: _png(_typed(ODD, 28)), "image/png", (200,), {"ブラック・マジシャン": 6}),
    "odd_comment_alone": (lambda: _png(_typed(["コメント(2)"], 28)), "image/png", (200,), {}),
    "odd_circled": (
        lambda: _png(_typed(["ブラック・マジシャン (③)"], 28)),
        "image/png",
        (200,),
        {"ブラック・マジシャン": 3},
    ),
    "odd_dash": (
        lambda: _png(_typed(["メインデッキ (3)", "-3x ブラック・マジシャン"], 28)),
        "image/png",
        (200,),
        {"ブラック・マジシャン": 3},
    ),
}


@pytest.fixture(scope="module")
def passcodes(base_url: str) -> dict[str, int]:
    """The passcode of every card the pages print, as the service parses a pasted list."""
    names = sorted({name for _make, _media, _statuses, cards in PAGES.values() for name in cards})
    with httpx.Client(base_url=base_url, timeout=30) as http:
        parsed = http.post("/v1/decks/parse", json={"text": "\n".join(f"1 {name}" for name in names)}).json()
    return {entry["name_ja"]: entry["passcode"] for entry in parsed["main"]}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PAGES))
def test_a_hostile_page_puts_nothing_in_the_deck_for_sure(
    client: httpx.Client, passcodes: dict[str, int], name: str
) -> None:
    make, media, statuses, printed = PAGES[name]
    content = make()
    answer = client.post("/v1/decks/read", content=content, headers={"Content-Type": media}, timeout=60)
    assert answer.status_code in statuses, (answer.status_code, answer.text[:2000])
    if answer.status_code != 200:
        assert answer.headers["content-type"] == "application/problem+json"
        assert [error["type"] for error in answer.json()["errors"]] == [REFUSED[answer.status_code]]
        return
    read: dict[str, Any] = answer.json()
    allowed = {passcodes[card]: copies for card, copies in printed.items()}
    sure = [line for line in read["lines"] if not line["needs_review"]]
    assert read["source"] in {"ocr", "text"}
    assert (read["qr"], read["ydke"], read["pages_in_file"], len(read["pages"])) == (None, None, 1, 1)
    if media != "application/pdf":
        page = read["pages"][0]
        assert (page["page"], page["width"], page["height"]) == (1, *Image.open(io.BytesIO(content)).size)
    assert read["needs_review"] == len(read["lines"]) - len(sure)
    assert all(line["reasons"] and line["message"] for line in read["lines"] if line["needs_review"])
    assert all(line["passcode"] in allowed and line["count"] is not None for line in sure), sure
    deck = {s: {e["passcode"]: e.get("count", 1) for e in read["deck"][s]} for s in EMPTY_DECK}
    assert deck["extra"] == deck["side"] == {}
    assert all(deck["main"].get(passcode, 0) <= copies for passcode, copies in allowed.items())
    assert set(deck["main"]) <= set(allowed), deck
    if not allowed:
        assert sure == []
        assert read["deck"] == EMPTY_DECK
    agree = all(total["agrees"] for total in read["totals"])
    assert read["complete"] is (bool(read["lines"]) and read["needs_review"] == 0 and agree)
