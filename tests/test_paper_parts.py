"""The parts of the paper reader that decide what a line is, alone: a form's grid (paper/grid.py), the cells joined
into rows (paper/cells.py), the section over a line (paper/sections.py), the page's furniture (paper/furniture.py),
and the line reader (paper/lines.py) over any words, boxes and counts, which never raises."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from deckcheck import Data
from deckcheck.model import SECTIONS, Section
from deckcheck.paper import ppocr
from deckcheck.paper.cells import assemble
from deckcheck.paper.furniture import furniture, total_line
from deckcheck.paper.grid import find
from deckcheck.paper.lines import said_of
from deckcheck.paper.ocr import Prepared, TextLine, Word
from deckcheck.paper.page import read_lines
from deckcheck.paper.second import Second
from deckcheck.paper.sections import Box, place
from tests.forms import MINCHO, SERIF
from tests.profiles import examples

PAGE = (2000, 2800)  # width, height of the pages drawn here


def _grid_page(count_left: bool, rows: int = 6) -> np.ndarray:
    """A white page with one table: rows of 80 px, a count column of 120 px and a name column of 700 px."""
    pixels = np.full((PAGE[1], PAGE[0]), 255, dtype=np.uint8)
    left, top, count, name = 200, 400, 120, 700
    for row in range(rows + 1):
        pixels[top + 80 * row : top + 80 * row + 3, left : left + count + name] = 0
    divider = left + count if count_left else left + name
    for x in (left, divider, left + count + name):
        pixels[top : top + 80 * rows + 3, x : x + 3] = 0
    return pixels


@pytest.mark.parametrize("count_left", [True, False])
def test_a_grid_pairs_each_name_with_the_count_on_its_own_side(count_left: bool) -> None:
    grid, erased = find(_grid_page(count_left))
    assert len(grid.horizontal) == 7
    assert len(grid.vertical) == 3
    assert len(grid.cells) == 12
    pairs = grid.pairs()
    assert len(pairs) == 6
    for name, count in pairs:
        assert count is not None
        assert not name.narrow
        assert count.narrow
        assert (count.box[0] < name.box[0]) is count_left
        assert name.top == 401  # every row's table begins at the first rule
    assert int(erased.min()) == 255  # the rules are painted out


def test_rules_alone_make_no_cell_and_text_makes_no_rule() -> None:
    pixels = np.full((PAGE[1], PAGE[0]), 255, dtype=np.uint8)
    pixels[300:303, 100:1900] = 0  # one rule, nothing under it
    pixels[500:540, 100:130] = 0  # a glyph's stroke, 40 px high
    grid, _erased = find(pixels)
    assert len(grid.horizontal) == 1
    assert grid.vertical == ()
    assert grid.cells == ()


def test_a_count_in_its_own_cell_joins_the_name_on_its_row() -> None:
    grid, erased = find(_grid_page(count_left=False))
    prepared = Prepared(Image.fromarray(erased), 1.0, 0.0)
    words = [Word("ブラック・マジシャン", 220, 500, 600, 540, 95.0), Word("3", 940, 500, 960, 540, 95.0)]
    words += [Word("・", 1500, 500, 1510, 540, 40.0)]  # outside the table: a line of its own
    assembled = assemble(words, grid, prepared, Second(prepared, deadline=0.0))
    texts = [line.text for line in assembled.lines]
    assert texts == ["3 ブラック・マジシャン", "・"]
    assert assembled.tables == {0: 401}


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        ((100, 500, 600, 40), ("side", 1, False)),  # under Side Deck, the nearest heading over it
        ((100, 250, 600, 40), ("main", 0, False)),  # under Main Deck
        ((1500, 500, 300, 40), ("main", None, False)),  # no heading over it: the lines before it (a second column)
    ],
)
def test_a_line_is_in_the_section_of_the_heading_over_it(
    box: tuple[int, int, int, int], expected: tuple[str, int | None, bool]
) -> None:
    headings: list[tuple[Box, Section]] = [((100, 200, 300, 40), "main"), ((100, 450, 300, 40), "side")]
    placed = place(box, headings, "main", None)
    assert (placed.section, placed.heading, placed.unclear) == expected


def test_a_table_row_takes_no_heading_over_another_table_and_two_near_headings_are_unclear() -> None:
    headings: list[tuple[Box, Section]] = [((100, 200, 300, 40), "main")]
    assert place((100, 900, 600, 40), headings, "main", 800).unclear  # its table begins far under the heading
    assert not place((100, 900, 600, 40), headings, "main", None).unclear  # a plain list's line
    rivals: list[tuple[Box, Section]] = [((100, 200, 300, 40), "extra"), ((500, 210, 300, 40), "side")]
    assert place((100, 300, 700, 40), rivals, None, None).unclear


@pytest.mark.parametrize(
    "text",
    [
        "https://www.example-deckbuilder.com/deck/12345",
        "2024年5月 (6)",
        "Printed on May 3, 2026",
        "Page 1 of 2",
        "- 2 -",
        "※カード名は正式名称で記入してください。",
        "Card Name",
        "枚数",
        "CARD GAME ID 0000000035",
        "FOR OFEICIAT USE ONLY Judge Initials:",
        "Penalty:",
        "今回は大会で使ったデッキを紹介します",
        "This deck did well at the last regional, and here is how I built it with the cards I had.",
        "© 2024 遊戯王デッキ構築ノート",
    ],
)
def test_furniture_is_no_card(text: str) -> None:
    assert furniture(text, 40.0, 1)


@pytest.mark.parametrize(("text", "count"), [("雑記 (13)", 13), ("カテゴリー", None), ("新しいパックの開封結果", None)])
def test_a_sidebar_line_with_no_count_a_deck_holds_is_furniture(text: str, count: int | None) -> None:
    assert furniture(text, 60.0, count)
    assert not furniture(text, 90.0, count)  # as like a card as a misread card: a line to review


@pytest.mark.parametrize("text", ["Judge Man", "Total Defense Shogun", "3 ブラック・マジシャン", "Pot of Greed x3"])
def test_a_card_misread_is_no_furniture(text: str) -> None:
    assert not furniture(text, 90.0, None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Total Monster Cards: 17", ("Monster Cards", 17)),
        ("Main Deck Total: 40", ("Main Deck", 40)),
        ("合計 17枚", ("", 17)),
        ("モンスター合計（17枚）", ("モンスター", 17)),
        ("Total Defense Shogun", None),
        ("3 Dark Magician", None),
    ],
)
def test_a_printed_total_says_what_it_counts(text: str, expected: tuple[str, int] | None) -> None:
    assert total_line(text) == expected


_PIECES = st.sampled_from(
    ["3", "x3", "×3", "3x", "-3x", "(③)", "③", "コメント(2)", "(2)", "枚", "3枚", "《クリボー》×2", "クリボー", "ー",
     "Dark", "Magician", "強欲な壺", "サイドデッキ", "Side Deck (15)", "【メインデッキ】", "Total", "2024年5月", "(6)",
     "http://x.jp", "。", "※", "", " ", "0", "999", "１", "Ｘ", "《", "》", "・", "Qty"]
)  # fmt: skip
_WORDS = st.lists(st.tuples(_PIECES, st.integers(0, 1900), st.integers(0, 2700), st.floats(0, 100)), max_size=6)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_WORDS, max_size=12), carried=st.sampled_from([None, *SECTIONS]))
def test_any_words_in_any_boxes_read_without_raising(
    data: Data, lines: list[list[tuple[str, int, int, float]]], carried: str | None
) -> None:
    prepared = Prepared(Image.new("L", PAGE, 255), 1.0, 0.0)
    made = []
    for words in lines:
        placed = [Word(text, x, y, x + 10 * max(1, len(text)), y + 40, c) for text, x, y, c in words if text.strip()]
        if placed:
            box = (min(w.left for w in placed), min(w.top for w in placed), 100, 40)
            made.append(TextLine(tuple(placed), box))
    tables = dict.fromkeys(range(0, len(made), 2), 0)
    page = read_lines(made, 1, data.cards, carried, Second(prepared, deadline=0.0), tables=tables)  # type: ignore[arg-type]
    for line in page.lines:  # only a card read for sure with a count a deck may hold goes in the deck
        assert line.section in SECTIONS
        if not line.needs_review:
            assert line.card is not None
            assert line.count is not None
            assert 1 <= line.count <= 3


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), density=st.floats(0.0, 0.6))
def test_any_page_of_ink_makes_a_grid_without_raising(seed: int, density: float) -> None:
    rng = np.random.default_rng(seed)
    pixels = np.where(rng.random((300, 400)) < density, 0, 255).astype(np.uint8)
    pixels[rng.integers(0, 300), :] = 0  # a rule across
    pixels[:, rng.integers(0, 400)] = 0  # a rule down
    grid, erased = find(pixels)
    assert erased.shape == pixels.shape
    for cell in grid.cells:
        assert cell.box[0] < cell.box[2]
        assert cell.box[1] < cell.box[3]


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (("8", "増殖するG」x1"), (1, 23434538)),  # 「 read as 8: Maxx "C" once
        (("7", "“罪宝狩りの悪魔”", "」x1"), (1, 80845034)),  # WANTED: Seeker of Sinful Spoils once
        (("3", "ブラック・マジシャン"), (3, 46986414)),  # a count, no bracket: as printed
    ],
)
def test_an_opening_bracket_read_as_a_digit_is_no_count(
    data: Data, words: tuple[str, ...], expected: tuple[int, int]
) -> None:
    line = TextLine(tuple(Word(w, 100 * n, 0, 100 * n + 90, 40, 90.0) for n, w in enumerate(words)), (0, 0, 400, 40))
    _text, said = said_of(line, data.cards)
    assert isinstance(said, tuple)
    found = data.cards.read_name(said[1])
    assert (said[0], None if found is None else found[0].passcode) == expected


@pytest.mark.skipif(not ppocr.available(), reason="rapidocr and onnxruntime are not installed")
@pytest.mark.parametrize(
    ("text", "font"),
    [
        ("3 「炸裂装甲」×2", MINCHO),  # Mincho kanji Tesseract reads as 姓像
        ("《増援》×1", MINCHO),  # 増, never the Chinese 增 its dictionary also holds
        ("1x Ash Blossom & Joyous Spring", SERIF),
    ],
)
def test_the_second_reader_reads_a_line_in_card_names_characters(data: Data, text: str, font: Path) -> None:
    line = Image.new("L", (1000, 80), 255)
    ImageDraw.Draw(line).text((10, 10), text, font=ImageFont.truetype(str(font), 42), fill=0)
    read, confidence = ppocr.read_line(line, data.cards)
    assert read == text
    assert confidence > 80


@pytest.mark.parametrize(
    ("text", "count"), [("《ンディライオン》メ1", None), ("8 増殖するG」x1", 8), ("3 ブラックマジツャン", 3)]
)
def test_a_card_line_misread_past_the_search_is_no_furniture(text: str, count: int | None) -> None:
    assert not furniture(text, 40.0, count)  # flagged for review, never passed over
