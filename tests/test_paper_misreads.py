"""What Tesseract's own reading of a page gets wrong, and the reader makes good (paper/second.py, paper/bands.py,
paper/lines.py): a `1` before a name dropped or read as a letter, plain lines its layout analysis passes over, a
heading's count misread. Two real decks of the benchmark's corpus (bench/paper_corpus.py, decks 6 and 35) whose
sheets it misread so, each printed and rasterised as the benchmark does; and each step alone on a page drawn here."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from deckcheck.paper.bands import unread
from deckcheck.paper.lines import _heading_like
from deckcheck.paper.ocr import Prepared, Word
from deckcheck.paper.second import Second
from deckcheck.paper.sheet import FONT
from tests.test_paper import _bytes, _png, _read, _without_qr

# bench/paper_corpus.py's deck 6 (English): a Tesseract reading of its page drops 11 of its `1`s before a name.
DECK_6 = {
    "main": [
        (40640057, 2), (35712107, 3), (91782219, 3), (55337339, 1), (66707058, 2), (22567609, 2), (33734439, 1),
        (44954628, 3), (21347810, 3), (7572887, 1), (83269557, 1), (64511793, 3), (62121, 1), (44913552, 3),
        (72520073, 1), (38369349, 1), (90582719, 1), (68215963, 1), (24508238, 2), (56570271, 1), (85087012, 1),
        (17132130, 1), (23557835, 1), (90502999, 3), (38411870, 1), (62279055, 1), (94212438, 3), (57270476, 1),
        (64697231, 1), (30241314, 2),
    ],
    "extra": [(81003500, 1), (58332301, 2), (45231177, 3), (81197327, 1), (22160245, 3), (52031567, 2), (33691040, 3)],
    "side": [(28985331, 3), (20781762, 3), (81332143, 3)],
}  # fmt: skip
# Deck 35 (Japanese): its reading passes over three lines in a row (1 ニュート, 1 サイバー・ダーク・ホーン,
# 2 静寂の聖者) and drops or misreads the `1` of eleven more.
DECK_35 = {
    "main": [
        (68881649, 3), (32933942, 1), (51838385, 2), (78636495, 1), (41230939, 1), (26669055, 2), (7572887, 1),
        (54514594, 1), (39180960, 1), (84133008, 3), (64379430, 3), (35781051, 3), (86652646, 2), (20394040, 1),
        (62210247, 2), (15341821, 1), (64500000, 3), (88435542, 1), (56570271, 1), (65623423, 1), (98494543, 2),
        (46910446, 1), (42703248, 1), (41142615, 1), (78577570, 1), (83746708, 2), (65169794, 3), (1801154, 1),
        (97077563, 1), (35539880, 2), (95451366, 1), (28604635, 2), (4923662, 2), (92408984, 3),
    ],
    "extra": [(86346643, 2), (1546123, 2), (13857930, 1), (74157028, 1), (9910360, 3), (17881964, 3), (48156348, 1)],
    "side": [(78868776, 1), (57827484, 1), (73079365, 1), (22046459, 1), (50140163, 2), (97169186, 1)],
}  # fmt: skip
FIELDS_35 = {
    "player_name": "山田 太郎",
    "player_furigana": "ヤマダ タロウ",
    "player_id": "0000000035",
    "event": "第3回 地区予選",
    "date": "2008-06-01",
    "format": "ocg",
}


def _deck(lines: dict[str, list[tuple[int, int]]]) -> dict[str, Any]:
    return {s: [{"passcode": p, "count": c} for p, c in lines[s]] for s in ("main", "extra", "side")}


def _page(client: httpx.Client, deck: dict[str, Any], lang: str, **fields: Any) -> bytes:
    pdf = client.post("/v1/decks/convert", json={**deck, "to": "sheet", "names": lang, "sheet": fields})
    assert pdf.status_code == 200, pdf.text
    return _bytes(_without_qr(_png(pdf.content, 300), 300))


@pytest.mark.slow
def test_an_english_sheet_whose_ones_tesseract_drops_reads_back_exactly(client: httpx.Client) -> None:
    deck = _deck(DECK_6)
    read = _read(client, _page(client, deck, "en"), "image/png")
    assert read["source"] == "ocr"
    assert [(line["text"], line["reasons"]) for line in read["lines"] if line["needs_review"]] == []
    assert _counts(read["deck"]) == _counts(deck)
    assert read["complete"] is True


def _counts(deck: dict[str, Any]) -> dict[str, Counter[tuple[int, int]]]:
    return {s: Counter((e["passcode"], e.get("count", 1)) for e in deck[s]) for s in ("main", "extra", "side")}


@pytest.mark.slow
def test_a_japanese_sheet_whose_lines_tesseract_passes_over_has_every_line_read(client: httpx.Client) -> None:
    deck = _deck(DECK_35)
    read = _read(client, _page(client, deck, "ja", **FIELDS_35), "image/png", "ja")
    got = Counter((line["section"], line["passcode"], line["count"]) for line in read["lines"])
    truth = Counter((s, p, c) for s, lines in DECK_35.items() for p, c in lines)
    assert truth - got == Counter()  # every true line read, its card, count and section right (some to review)
    assert [t["text"] for t in read["totals"] if not t["agrees"]] == []
    names = {line["name_ja"] for line in read["lines"] if not line["needs_review"]}
    assert {"ニュート", "サイバー・ダーク・ホーン", "静寂の聖者"} <= names


FONT_PX = 40


def _drawn(lines: list[str], size: tuple[int, int] = (1400, 500)) -> Image.Image:
    page = Image.new("L", size, 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(FONT), FONT_PX)
    for row, text in enumerate(lines):
        draw.text((60, 40 + row * 2 * FONT_PX), text, fill=0, font=font)
    return page


def _word_box(page: Image.Image, row: int, after: str, text: str) -> Word:
    """The box of `text` drawn after `after` on line `row` of a page `_drawn` made, as Tesseract would give it."""
    font = ImageFont.truetype(str(FONT), FONT_PX)
    left = 60 + round(font.getlength(after))
    top = 40 + row * 2 * FONT_PX
    box = ImageDraw.Draw(page).textbbox((left, top), text, font=font)
    return Word(text, round(box[0]), round(box[1]), round(box[2]), round(box[3]), 90.0)


@pytest.mark.parametrize(
    ("text", "count", "name"),
    [("1 Card Trooper", "1 ", "Card"), ("1 ニュート", "1 ", "ニュート"), ("1 ハリケーン", "1 ", "ハリケーン")],
)
def test_a_one_before_a_name_is_found_among_the_pixels_and_read(text: str, count: str, name: str) -> None:
    page = _drawn([text])
    second = Second(Prepared(page, 1.0, 0.0), deadline=float("inf"))
    glyph = second.glyph_before(_word_box(page, 0, count, name))
    assert glyph is not None
    assert second.digits(glyph, pad_right=False)[0] == "1"


@pytest.mark.parametrize(
    ("text", "before", "name"),
    [
        ("・Card Trooper", "・", "Card"),  # a bullet: too low and too short
        ("Card Trooper", "", "Card"),  # nothing before the name
        ("《ニュート》", "《", "ニュート"),  # a bracket against the name: no gap
        ("1 2 Card Trooper", "1 2 ", "Card"),  # two glyphs in the room: not one count
    ],
)
def test_no_count_is_found_where_none_is_shaped_as_one(text: str, before: str, name: str) -> None:
    page = _drawn([text])
    second = Second(Prepared(page, 1.0, 0.0), deadline=float("inf"))
    assert second.glyph_before(_word_box(page, 0, before, name)) is None


def test_the_lines_no_word_covers_are_found_and_nothing_else() -> None:
    page = _drawn(["3 ブラック・マジシャン", "1 ニュート", "2 静寂の聖者", "1 強欲な壺"], (1400, 700))
    draw = ImageDraw.Draw(page)
    draw.rectangle((900, 60, 903, 64), fill=0)  # a speck
    draw.line((60, 660, 1300, 660), fill=0, width=2)  # a rule
    pixels = np.asarray(page)
    read = [_word_box(page, 0, "", "3 ブラック・マジシャン"), _word_box(page, 3, "", "1 強欲な壺")]
    boxes = unread(pixels, [(w.left, w.top, w.right, w.bottom) for w in read], FONT_PX)
    expected = [_word_box(page, 1, "", "1 ニュート"), _word_box(page, 2, "", "2 静寂の聖者")]
    assert len(boxes) == 2
    for box, word in zip(boxes, expected, strict=True):
        assert word.left <= box[0] < box[2] <= word.right
        assert word.top <= box[1] < box[3] <= word.bottom
        assert box[2] - box[0] >= 0.9 * (word.right - word.left)  # the line's ink, within its text's box


@pytest.mark.parametrize(
    ("text", "section"),
    [
        ("サイドデッキO枚", "side"),  # a count of 0 read as a letter
        ("エクストラデッキ6@枚", "extra"),  # 枚 read with a mark before it
        ("メインデッキ (40)", "main"),
        ("Side Deck (9)", "side"),
    ],
)
def test_a_heading_whose_count_is_misread_is_still_a_heading(text: str, section: str) -> None:
    assert _heading_like(text) == section


@pytest.mark.parametrize(
    "text", ["サイドデッキ", "ブラック・マジシャン 3枚", "Hero's Rule 2", "1 Moster Monk", "3 Extra Bock", "Extra Deco"]
)
def test_a_line_that_is_no_heading_is_none(text: str) -> None:
    assert _heading_like(text) is None
