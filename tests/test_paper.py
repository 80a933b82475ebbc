"""Paper at the desk over HTTP: the registration sheet (`to: sheet`) holds every name as text and a QR code of the
deck, reads back exactly from its PDF or a scan, reads back line by line with the QR code gone, marks a smudged
line for review, and every file that cannot be read gets a clear 4xx."""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import sys
import unicodedata
import zlib
from pathlib import Path
from typing import Any

import httpx
import pytest
import zxingcpp
from PIL import Image, ImageDraw, ImageFilter

from deckcheck.paper import ocr
from tests import served
from tests.decks import EVENT, EXTRA, MAIN_40, SIDE

pytestmark = pytest.mark.skipif(
    not (shutil.which("pdftoppm") and shutil.which("pdftotext") and ocr.available()),
    reason="poppler-utils or Tesseract's language data are missing: run `bash scripts/system-deps` as root",
)
DECK: dict[str, Any] = {"main": MAIN_40, "extra": EXTRA, "side": SIDE}
QR_SQUARE_MM = 60  # the top-right square of the sheet that holds its QR code


def _sheet(client: httpx.Client, names: str, **sheet: Any) -> bytes:
    answer = client.post("/v1/decks/convert", json={**DECK, "to": "sheet", "names": names, "sheet": sheet})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/pdf"
    return answer.content


def _png(pdf: bytes, dpi: int) -> Image.Image:
    done = subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", "-png", "-"], input=pdf, capture_output=True, check=True
    )
    return Image.open(io.BytesIO(done.stdout)).convert("L")  # poppler's grey PNG opens as RGB: white is 255 in L


def _bytes(image: Image.Image, kind: str = "PNG", **options: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **options)
    return out.getvalue()


def _without_qr(image: Image.Image, dpi: int) -> Image.Image:
    side = round(QR_SQUARE_MM / 25.4 * dpi)
    blank = image.copy()
    ImageDraw.Draw(blank).rectangle((blank.width - side, 0, blank.width, side), fill=255)
    return blank


def _copies(deck: dict[str, list[dict[str, Any]]]) -> dict[str, dict[int, int]]:
    return {s: {e["passcode"]: e.get("count", 1) for e in deck[s]} for s in ("main", "extra", "side")}


def _read(client: httpx.Client, content: bytes, media: str, lang: str = "en") -> dict[str, Any]:
    answer = client.post("/v1/decks/read", content=content, headers={"Content-Type": media, "Accept-Language": lang})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _names(client: httpx.Client, lang: str) -> list[str]:
    parsed = client.post("/v1/decks/parse", json=DECK).json()
    return [entry[f"name_{lang}"] for section in ("main", "extra", "side") for entry in parsed[section]]


def _squeezed(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_sheet_holds_every_name_as_text_and_its_qr_code_is_the_deck(client: httpx.Client, lang: str) -> None:
    pdf = _sheet(client, lang, player_name="山田 太郎", player_id="0123456789", date=EVENT, format="ocg")
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    for name in [*_names(client, lang), "山田 太郎", "0123456789", EVENT]:
        assert _squeezed(name) in _squeezed(text), name
    link = client.post("/v1/decks/convert", json={**DECK, "to": "ydke"}).json()["content"]
    codes = zxingcpp.read_barcodes(_png(pdf, 150))
    assert [code.text for code in codes] == [link]


def test_a_letter_sheet_is_letter_and_an_a4_sheet_a4(client: httpx.Client) -> None:
    sizes = {}
    for paper in ("a4", "letter"):
        pdf = _sheet(client, "en", paper=paper)
        info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True)
        sizes[paper] = next(line for line in info.stdout.decode().splitlines() if line.startswith("Page size"))
    assert "(A4)" in sizes["a4"]
    assert "(letter)" in sizes["letter"]


def test_the_sheet_reads_back_exactly_from_its_pdf_and_a_phone_photo(client: httpx.Client) -> None:
    pdf = _sheet(client, "ja")
    photo = _png(pdf, 150).rotate(5, expand=True, fillcolor=230).filter(ImageFilter.GaussianBlur(0.8))
    for content, media in ((pdf, "application/pdf"), (_bytes(photo, "JPEG", quality=50), "image/jpeg")):
        read = _read(client, content, media)
        assert (read["source"], read["complete"], read["needs_review"]) == ("qr", True, 0)
        assert _copies(read["deck"]) == _copies(DECK)
        verdicts = [
            client.post("/v1/validate", json={**d, "date": EVENT}).json()["legal"] for d in (read["deck"], DECK)
        ]
        assert verdicts == [True, True]


def test_without_its_qr_code_an_english_sheet_reads_back_line_by_line(client: httpx.Client) -> None:
    page = _without_qr(_png(_sheet(client, "en"), 300), 300)
    read = _read(client, _bytes(page), "image/png")
    assert read["source"] == "ocr"
    assert [line for line in read["lines"] if line["needs_review"]] == []
    assert _copies(read["deck"]) == _copies(DECK)
    assert all(line["box"] is not None and line["confidence"] > 0 for line in read["lines"])
    ignored = [line["text"] for line in read["ignored"]]
    assert "Deck Registration Sheet" in ignored
    assert [(t["text"], t["printed"], t["read"], t["agrees"]) for t in read["totals"]] == [
        ("Main Deck (40)", 40, 40, True),
        ("Monster Cards (27)", 27, 27, True),
        ("Spell Cards (7)", 7, 7, True),
        ("Trap Cards (6)", 6, 6, True),
        ("Extra Deck (2)", 2, 2, True),
        ("Side Deck (8)", 8, 8, True),
    ]


def _with_line_of(client: httpx.Client, name: str) -> tuple[Image.Image, list[int]]:
    """The English sheet at 300 dpi without its QR code, and the box its clean reading gives the line of `name`."""
    page = _without_qr(_png(_sheet(client, "en"), 300), 300)
    clean = _read(client, _bytes(page), "image/png")
    return page, next(line["box"] for line in clean["lines"] if line["name_en"] == name)


def test_a_line_lost_altogether_shows_as_a_total_that_disagrees(client: httpx.Client) -> None:
    lost, (left, top, width, height) = _with_line_of(client, "Gemini Elf")
    ImageDraw.Draw(lost).rectangle((left - 5, top - 5, left + width + 5, top + height + 5), fill=255)
    read = _read(client, _bytes(lost), "image/png", "ja")
    assert [line for line in read["lines"] if line["name_en"] == "Gemini Elf"] == []
    assert read["needs_review"] == 0
    assert read["complete"] is False
    disagree = [(t["text"], t["printed"], t["read"], t["message"]) for t in read["totals"] if not t["agrees"]]
    check = "抜けた行がないか確認してください。"
    assert disagree == [
        ("Main Deck (40)", 40, 37, f"見出しは40枚ですが、読み取った枚数は37枚です。{check}"),
        ("Monster Cards (27)", 27, 24, f"見出しは27枚ですが、読み取った枚数は24枚です。{check}"),
    ]


@pytest.mark.slow
def test_a_smudged_name_needs_review_and_stays_out_of_the_deck(client: httpx.Client) -> None:
    smudge, (left, top, width, height) = _with_line_of(client, "Magical Dimension")
    ImageDraw.Draw(smudge).rectangle((left + width // 3, top, left + width, top + height), fill=150)
    read = _read(client, _bytes(smudge), "image/png", "ja")
    marked = [line for line in read["lines"] if line["needs_review"]]
    assert len(marked) == 1
    assert abs(marked[0]["box"][1] - top) < height
    assert marked[0]["message"].endswith("確認してください。")
    assert read["complete"] is False
    main = _copies(read["deck"])["main"]
    assert 28553439 not in main  # Magical Dimension: never in the deck from an uncertain read
    assert main == {p: n for p, n in _copies(DECK)["main"].items() if p != 28553439}


def _png_header(width: int, height: int) -> bytes:
    """A PNG that says it is `width`×`height` pixels and holds almost nothing: a decompression bomb's header."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    ("content", "media", "status", "kind"),
    [
        (b"3 Pot of Greed\n", "image/png", 415, "not_an_image"),
        (_png_header(100, 100)[:20], "image/png", 422, "unreadable_image"),
        (_png_header(30_000, 30_000), "image/png", 422, "too_many_pixels"),
        (b"\xff\xd8\xff\xe0 not a jpeg at all", "image/jpeg", 422, "unreadable_image"),
        (b"%PDF-1.4\nnot a pdf\n%%EOF\n", "application/pdf", 422, "unreadable_pdf"),
        (b"\x89PNG\r\n\x1a\n", "text/plain", 415, "unsupported_media_type"),
    ],
)
def test_a_file_that_cannot_be_read_gets_a_clear_4xx(
    client: httpx.Client, content: bytes, media: str, status: int, kind: str
) -> None:
    answer = client.post("/v1/decks/read", content=content, headers={"Content-Type": media})
    assert answer.status_code == status
    assert answer.headers["content-type"] == "application/problem+json"
    assert [error["type"] for error in answer.json()["errors"]] == [kind]


def test_a_file_over_the_limit_is_refused_whole(client: httpx.Client) -> None:
    answer = client.post(
        "/v1/decks/read", content=b"\x89PNG" + bytes(21 * 1024 * 1024), headers={"Content-Type": "image/png"}
    )
    assert answer.status_code == 413


def test_a_blank_page_reads_as_no_lines(client: httpx.Client) -> None:
    read = _read(client, _bytes(Image.new("L", (1240, 1754), 255)), "image/png")
    assert (read["source"], read["lines"], read["deck"]) == ("ocr", [], {"main": [], "extra": [], "side": []})


def test_a_sheet_of_an_unknown_card_is_refused_naming_it(client: httpx.Client) -> None:
    answer = client.post("/v1/decks/convert", json={"text": "3 Not A Card At All", "to": "sheet"})
    assert answer.status_code == 422
    assert [error["type"] for error in answer.json()["errors"]] == ["unknown_name"]


def test_the_client_prints_a_sheet_and_reads_it_back(base_url: str) -> None:
    from deckcheck.client import Client  # noqa: PLC0415

    with Client(base_url) as deckcheck:
        pdf = deckcheck.sheet({**DECK, "names": "en", "sheet": {"player_name": "Yugi Muto"}})
        read = deckcheck.read_paper(pdf, "application/pdf", lang="ja")
    assert pdf.startswith(b"%PDF-")
    assert (read.source, read.complete) == ("qr", True)
    assert _copies(read.deck.model_dump(exclude_none=True)) == _copies(DECK)


def test_deckcheck_sheet_writes_the_pdf_the_service_prints(tmp_path: Path) -> None:
    deck = tmp_path / "deck.ydk"
    deck.write_text("#main\n" + "\n".join(str(e["passcode"]) for e in MAIN_40 for _ in range(e.get("count", 1))))
    out = tmp_path / "sheet.pdf"
    argv = [sys.executable, "-m", "deckcheck", "sheet", str(deck), "--out", str(out), "--player", "山田 太郎"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, f"deckcheck: wrote {out}\n")
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, check=True).stdout.decode()
    assert "山田 太郎" in text
    assert "ブラック・マジシャン" in text
    refused = subprocess.run([*argv[:4], "ydke://AAAA!!!", "--out", str(out)], capture_output=True, check=False)
    assert refused.returncode == 2


@pytest.mark.slow
def test_a_read_past_its_time_budget_is_a_504_and_the_service_answers_on(client: httpx.Client, tmp_path: Path) -> None:
    page = _bytes(_without_qr(_png(_sheet(client, "en"), 300), 300))
    env = {"DECKCHECK_PAPER_SECONDS": "0.3", "DECKCHECK_ACCESS_LOG": "false"}
    with served.serving(tmp_path / "serve.log", env) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        answer = http.post("/v1/decks/read", content=page, headers={"Content-Type": "image/png"})
        health = http.get("/healthz")
        metrics = http.get("/metrics").text
    assert answer.status_code == 504
    assert [error["type"] for error in answer.json()["errors"]] == ["read_timeout"]
    assert health.status_code == 200
    assert 'deckcheck_paper_reads_total{outcome="read_timeout"} 1.0' in metrics
