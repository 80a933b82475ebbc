"""A fillable deck list, its cards typed into the form's fields (AcroForm text fields, as in Konami's TCG deck
registration sheet), over HTTP: the values read from the fields, exactly, over the printed form's text layer (no OCR),
whether poppler shows them as text or not (a Japanese value in a form saved with no appearance, an appearance that
holds no text); a page turned by its /Rotate with its media box away from 0, 0 reads the same; a form whose fields
are broken still answers, from whatever else it holds."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter, Transformation
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    RectangleObject,
    TextStringObject,
)

from deckcheck.errors import PaperTimedOut
from deckcheck.paper import ocr
from deckcheck.paper.decoding import PAGE_PIXELS
from deckcheck.paper.fields import MAX_ANNOTATIONS, field_words, place
from tests.forms import COUNT_MM, GOTHIC, ROW_MM, SERIF, Table, form_pdf
from tests.test_paper import _read

pytestmark = pytest.mark.skipif(
    not (shutil.which("pdftoppm") and shutil.which("pdftotext") and ocr.available()),
    reason="poppler-utils or Tesseract's language data are missing: run `bash scripts/system-deps` as root",
)
PT = 72 / 25.4  # points a millimetre
A4 = (595.28, 841.89)  # points
ROWS = 8
TCG = {
    "Monster Cards": ((3, "Dark Magician"), (2, "Gemini Elf"), (1, "Giant Rat")),
    "Side Deck": ((3, "Mystic Tomato"),),
}
OCG = {
    "モンスターカード": ((3, "ブラック・マジシャン"), (2, "ヂェミナイ・エルフ")),
    "サイドデッキ": ((3, "キラー・トマト"),),
}
PASSCODES = {"Dark Magician": 46986414, "Gemini Elf": 69140098, "Giant Rat": 97017120, "Mystic Tomato": 83011277}
PASSCODES |= {"ブラック・マジシャン": 46986414, "ヂェミナイ・エルフ": 69140098, "キラー・トマト": 83011277}
SIDE = {"Side Deck", "サイドデッキ"}
Rect = tuple[float, float, float, float]


def _widget(name: str, rect: Rect, value: str | None, kind: str = "/Tx", **extra: Any) -> dict[str, Any]:
    widget: dict[str, Any] = {
        NameObject("/Type"): NameObject("/Annot"),
        NameObject("/Subtype"): NameObject("/Widget"),
        NameObject("/FT"): NameObject(kind),
        NameObject("/T"): TextStringObject(name),
        NameObject("/Rect"): ArrayObject(FloatObject(v) for v in rect),
        NameObject("/DA"): TextStringObject("/Helv 9 Tf 0 g"),
        NameObject("/F"): NumberObject(4),  # Print
    }
    if value is not None:
        widget[NameObject("/V")] = NameObject(value) if kind == "/Btn" else TextStringObject(value)
    return widget | {NameObject(f"/{key}"): value for key, value in extra.items()}


def _fillable(
    tables: dict[str, tuple[tuple[int, str], ...]],
    count_left: bool = True,
    appearance: str = "none",
    turned: tuple[float, float] | None = None,
) -> bytes:
    """A deck list form with a ruled table under each heading, a field for each row's count and name (filled with
    `tables`' rows, the rest empty), a player's name field, a check box and a button. `appearance`: "none" (the
    values saved without one, poppler draws them) or "blank" (an appearance that shows no text). `turned`: the page's
    content turned a quarter turn in a media box at that origin, /Rotate 90 turning it back upright."""
    font = SERIF if count_left else GOTHIC
    at = [(15 + 95 * n, 45) for n in range(len(tables))]
    drawn = [Table(x, y, 88, name, (), ROWS) for (x, y), name in zip(at, tables, strict=True)]
    labels = [(15, 15, "DECK REGISTRATION SHEET"), (15, 25, "First Name:")]
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(form_pdf(drawn, labels, font, count_left))))
    page = writer.pages[0]
    origin = turned or (0.0, 0.0)

    def move(x: float, y: float) -> tuple[float, float]:  # where the page's content is drawn
        return (x, y) if turned is None else (origin[0] + A4[1] - y, origin[1] + x)

    if turned is not None:
        page.add_transformation(Transformation((0, 1, -1, 0, origin[0] + A4[1], origin[1])))
        page.mediabox = RectangleObject((origin[0], origin[1], origin[0] + A4[1], origin[1] + A4[0]))
        page[NameObject("/Rotate")] = NumberObject(90)

    def rect(left: float, top: float, right: float, bottom: float) -> Rect:  # mm from the top left, as fpdf2 draws
        (x0, y0), (x1, y1) = move(left * PT, A4[1] - bottom * PT), move(right * PT, A4[1] - top * PT)
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)

    widgets = [_widget("First Name", rect(35, 21, 90, 26), "Yugi")]
    widgets.append(_widget("Agree", rect(100, 21, 104, 25), "/Yes", "/Btn"))  # a check box, checked
    widgets.append(_widget("Print", rect(110, 21, 130, 26), None, "/Btn", Ff=NumberObject(1 << 16)))  # a button
    for (x, y), (name, rows) in zip(at, tables.items(), strict=True):
        left, right = (x, x + COUNT_MM), (x + COUNT_MM, x + 88)
        counts, names = (left, right) if count_left else ((x + 88 - COUNT_MM, x + 88), (x, x + 88 - COUNT_MM))
        for row in range(1, ROWS + 1):
            top = y + row * ROW_MM
            count, card = rows[row - 1] if row <= len(rows) else (None, None)
            widgets.append(_widget(f"{name} {row} qty", rect(counts[0], top, counts[1], top + ROW_MM), _str(count)))
            widgets.append(_widget(f"{name} {row} name", rect(names[0], top, names[1], top + ROW_MM), card))
    fields = ArrayObject()
    for widget in widgets:
        if turned is not None:  # the widget's text turned with the page, as a form made for such a page has it
            widget[NameObject("/MK")] = DictionaryObject({NameObject("/R"): NumberObject(90)})
        if appearance == "blank" and NameObject("/V") in widget:
            blank = DecodedStreamObject()
            blank.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form")})
            blank[NameObject("/BBox")] = ArrayObject(FloatObject(v) for v in (0, 0, 10, 10))
            widget[NameObject("/AP")] = DictionaryObject({NameObject("/N"): writer._add_object(blank)})
        fields.append(writer.add_annotation(page, widget).indirect_reference)
    form = {NameObject("/Fields"): fields, NameObject("/DA"): TextStringObject("/Helv 0 Tf 0 g")}
    writer.root_object[NameObject("/AcroForm")] = DictionaryObject(form)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _str(count: int | None) -> str | None:
    return None if count is None else str(count)


def _text_layer(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


def _expected(tables: dict[str, tuple[tuple[int, str], ...]]) -> list[tuple[str, int, str]]:
    return sorted(("side" if name in SIDE else "main", n, card) for name, rows in tables.items() for n, card in rows)


def _deck(tables: dict[str, tuple[tuple[int, str], ...]]) -> dict[str, list[dict[str, int]]]:
    deck: dict[str, list[dict[str, int]]] = {"main": [], "extra": [], "side": []}
    for name, rows in tables.items():
        deck["side" if name in SIDE else "main"] += [{"passcode": PASSCODES[card], "count": n} for n, card in rows]
    return deck


def _answered(answer: dict[str, Any], lang: str) -> tuple[list[tuple[str, int, str]], dict[str, Any]]:
    lines = sorted((line["section"], line["count"] or 0, line[f"name_{lang}"] or "") for line in answer["lines"])
    deck = {s: [{"passcode": e["passcode"], "count": e.get("count", 1)} for e in answer["deck"][s]] for s in _deck({})}
    return lines, deck


@pytest.mark.slow
@pytest.mark.parametrize(
    ("appearance", "turned"), [("none", None), ("blank", None), ("none", (100.0, -50.0)), ("blank", (36.0, 18.0))]
)
def test_a_filled_tcg_form_reads_its_cards_from_its_fields(
    client: httpx.Client, appearance: str, turned: tuple[float, float] | None
) -> None:
    pdf = _fillable(TCG, appearance=appearance, turned=turned)
    shown = _text_layer(pdf)
    assert "Monster Cards" in shown
    assert "Qty" in shown
    assert "Card Name" in shown
    assert ("Magician" in shown) is (appearance == "none")  # a blank appearance shows poppler no card
    answer = _read(client, pdf, "application/pdf")
    assert answer["source"] == "text"
    assert _answered(answer, "en") == (_expected(TCG), _deck(TCG))
    assert [line["reasons"] for line in answer["lines"]] == [[]] * 4
    assert answer["complete"] is True
    assert all(line["confidence"] == 100 for line in answer["lines"])
    assert len(answer["cells"]) >= 2 * 2 * (ROWS + 1)  # the ruled tables found on the page as pdftoppm turns it
    assert "Yugi" not in " ".join(line["text"] for line in answer["lines"])


@pytest.mark.slow
def test_a_japanese_form_saved_without_appearances_reads_what_poppler_cannot_show(client: httpx.Client) -> None:
    pdf = _fillable(OCG, count_left=False)
    shown = _text_layer(pdf)
    assert "モンスターカード" in shown
    assert "マジシャン" not in shown  # poppler draws the field in Helvetica, which has no kana: no text
    answer = _read(client, pdf, "application/pdf", "ja")
    assert answer["source"] == "text"
    assert _answered(answer, "ja") == (_expected(OCG), _deck(OCG))
    assert [line["reasons"] for line in answer["lines"]] == [[]] * 3


@pytest.mark.slow
def test_a_value_that_poppler_shows_is_read_once() -> None:
    from deckcheck.paper.layer import text_words  # noqa: PLC0415

    words = [word.text for word in text_words(_fillable(TCG), time.monotonic() + 30)[0]]
    assert words.count("Dark Magician") == 1
    assert "Dark" not in words
    assert "Magician" not in words
    assert words.count("Yugi") == 1
    assert "/Yes" not in words
    assert "Yes" not in words


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rotate", "turned"), [(0, (0.0, 0.0)), (0, (100.0, -50.0)), (90, (36.0, 18.0)), (-90, (-20.0, 40.0))]
)
def test_a_field_stands_where_poppler_draws_it(rotate: int, turned: tuple[float, float]) -> None:
    """The field's box as place() gives it holds the pixels pdftoppm draws its value with and the words pdftotext
    reads from it, on a page turned or not whose media box stands away from 0, 0 (its crop box, smaller, is not
    what poppler rasterises)."""
    width, height = (A4[1], A4[0]) if rotate % 180 else A4
    writer = PdfWriter()
    page = writer.add_blank_page(width, height)
    page.mediabox = RectangleObject((turned[0], turned[1], turned[0] + width, turned[1] + height))
    page.cropbox = RectangleObject((turned[0] + 100, turned[1] + 100, turned[0] + width - 50, turned[1] + height - 50))
    page[NameObject("/Rotate")] = NumberObject(rotate)
    rect = (turned[0] + 150, turned[1] + 300, turned[0] + 400, turned[1] + 330)
    reference = writer.add_annotation(page, _widget("name", rect, "Dark Magician")).indirect_reference
    writer.root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): ArrayObject([reference])})
    out = io.BytesIO()
    writer.write(out)
    pdf = out.getvalue()
    [[field]] = field_words(pdf, time.monotonic() + 30)
    left, top, right, bottom = field.box
    [word] = field.words
    assert (word.text, word.left, word.top, word.right, word.bottom) == ("Dark Magician", *field.box)
    scale = PAGE_PIXELS / max(width, height)
    assert abs((right - left) - (30 if rotate % 180 else 250) * scale) <= 1
    grey = subprocess.run(
        ["pdftoppm", "-scale-to", str(PAGE_PIXELS), "-gray", "-"], input=pdf, capture_output=True, check=True
    )
    ink = np.argwhere(np.asarray(Image.open(io.BytesIO(grey.stdout)).convert("L")) < 128)
    (y0, x0), (y1, x1) = ink.min(axis=0), ink.max(axis=0)
    assert (left <= x0, top <= y0, x1 <= right, y1 <= bottom) == (True, True, True, True)
    bbox = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    words = re.findall(rb'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(\w+)<', bbox)
    assert [said for *_box, said in words] == [b"Dark", b"Magician"]
    for *box, _said in words:
        x, y = (float(box[0]) + float(box[2])) / 2 * scale, (float(box[1]) + float(box[3])) / 2 * scale
        assert left <= x <= right
        assert top <= y <= bottom


def test_place_turns_and_moves_a_rectangle_as_the_page_shows() -> None:
    box = (100.0, 200.0, 700.0, 1000.0)  # 600 × 800 points: the longer side 800 is PAGE_PIXELS
    rect = (160.0, 900.0, 220.0, 980.0)  # 60 × 80 from 60 right of the box's left, 20 below its top
    s = PAGE_PIXELS / 800
    assert place(rect, box, 0) == tuple(round(v * s) for v in (60, 20, 120, 100))
    assert place(rect, box, 90) == tuple(round(v * s) for v in (800 - 100, 60, 800 - 20, 120))
    assert place(rect, box, 180) == tuple(round(v * s) for v in (600 - 120, 800 - 100, 600 - 60, 800 - 20))
    assert place(rect, box, 270) == tuple(round(v * s) for v in (20, 600 - 120, 100, 600 - 60))
    assert place(rect, box, -90) == place(rect, box, 270)
    assert place(rect, box, 450) == place(rect, box, 90)
    assert place(rect, box, 45) == place(rect, box, 0)


def _pdf(objects: Sequence[bytes]) -> bytes:
    """A PDF of `objects` (numbered from 1, the first the catalog) and an xref table that finds them."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


LABELS = b"BT /F1 14 Tf 50 780 Td (Monster Cards) Tj ET BT /F1 10 Tf 50 750 Td (3 Dark Magician) Tj ET"
PAGE = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >>"
BROKEN = {
    "fields pointing at garbage": [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields 99 0 R /DA 7 >> >>",
        b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(LABELS), LABELS),
        PAGE + b" /Annots [6 0 R 99 0 R 7 0 R (text) null 5 0 R] >>",
        b"<< /Type /Annot /Subtype /Widget /FT /Tx /V (Giant Rat) >>",  # no /Rect
        b"<< /Type /Annot /Subtype /Widget /Rect [1 2 (x) 4] /FT /Tx /V (Gemini Elf) /Parent 7 0 R >>",
    ],
    "a parent loop and odd values": [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R 7 0 R] >> >>",
        b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(LABELS), LABELS),
        PAGE + b" /Annots 6 0 R >>",
        b"[7 0 R 8 0 R 9 0 R]",
        b"<< /Subtype /Widget /Rect [50 700 300 720] /Parent 8 0 R /V 12 >>",
        b"<< /Subtype /Widget /Rect [50 670 300 690] /Parent 7 0 R /FT /Tx /V [(a) (b)] /Ff (x) >>",
        b"<< /Subtype /Widget /Rect [1e999 0 -1e999 9] /FT /Tx /V (Giant Rat) >>",
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_form_whose_fields_are_broken_answers_from_its_text(client: httpx.Client, broken: str) -> None:
    pdf = _pdf(BROKEN[broken])
    assert field_words(pdf, time.monotonic() + 30) in ([], [[]])
    answer = _read(client, pdf, "application/pdf")
    assert answer["source"] == "text"
    assert _answered(answer, "en")[0] == [("main", 3, "Dark Magician")]


@pytest.mark.slow
def test_a_field_reader_that_fails_or_is_slow_gives_no_fields(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pdf = _fillable(TCG)
    assert field_words(b"%PDF-1.4\n%%EOF\n", time.monotonic() + 30) == []  # no form: no process started
    assert field_words(b"%PDF-1.4 /AcroForm garbage\n%%EOF\n", time.monotonic() + 30) == []
    with pytest.raises(PaperTimedOut) as late:
        field_words(pdf, time.monotonic() - 1)
    assert late.value.kind == "read_timeout"
    monkeypatch.setattr(sys, "executable", shutil.which("false"))
    assert field_words(pdf, time.monotonic() + 30) == []
    slow = tmp_path / "slow"
    slow.write_text("#!/bin/sh\nexec sleep 60\n")
    slow.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(slow))
    started = time.monotonic()
    assert field_words(pdf, started + 4) == []  # ended at half the time left: the page is read without its fields
    assert 1.9 < time.monotonic() - started < 4


@pytest.mark.slow
def test_the_fields_read_are_bounded() -> None:
    writer = PdfWriter()
    page = writer.add_blank_page(*A4)
    references = ArrayObject()
    for number in range(MAX_ANNOTATIONS + 500):
        y = 20 + number % 700
        widget = _widget(f"f{number}", (20.0, y, 200.0, y + 10), f"Card {number} " + "x" * 500)
        references.append(writer.add_annotation(page, widget).indirect_reference)
    multi = _widget("list", (300.0, 100.0, 500.0, 800.0), "3 Dark Magician\r\n\n2 Gemini Elf", Ff=NumberObject(4096))
    writer.root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): references})
    first = PdfWriter()
    first_page = first.add_blank_page(*A4)
    first.add_annotation(first_page, multi)
    first.root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): ArrayObject()})
    for target, pages in ((writer, 1), (first, 1)):
        out = io.BytesIO()
        target.write(out)
        read = field_words(out.getvalue(), time.monotonic() + 60)
        assert len(read) == pages
        if target is writer:
            assert len(read[0]) == MAX_ANNOTATIONS
            assert {len(field.words[0].text) for field in read[0]} == {200}
        else:
            [field] = read[0]
            assert [word.text for word in field.words] == ["3 Dark Magician", "2 Gemini Elf"]
            first_line, second_line = field.words
            assert field.box[1] == first_line.top < first_line.bottom < second_line.top
            assert abs(second_line.bottom - first_line.top - 3 * 9 * 1.2 * PAGE_PIXELS / A4[1]) <= 1


def test_a_value_too_long_for_its_field_is_read_once() -> None:
    from deckcheck.paper.layer import text_words  # noqa: PLC0415

    writer = PdfWriter()
    page = writer.add_blank_page(*A4)
    widget = _widget("name", (100.0, 700.0, 160.0, 715.0), "Elemental HERO Flame Wingman")
    reference = writer.add_annotation(page, widget).indirect_reference
    writer.root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): ArrayObject([reference])})
    out = io.BytesIO()
    writer.write(out)
    bbox = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=out.getvalue(), capture_output=True, check=True)
    assert bbox.stdout.count(b"<word ") == 4  # poppler writes the value on past the field's right edge
    assert [word.text for word in text_words(out.getvalue(), time.monotonic() + 30)[0]] == [
        "Elemental HERO Flame Wingman"
    ]
