"""The parts of the paper reader that decide what a run of text is, alone: a run's text read around the card name it
holds (paper/parse.py), runs put in rows and columns (paper/rows.py), rows read as cards, counts, headings and
furniture (paper/entries.py), the section over a line (paper/sections.py), the page's furniture
(paper/furniture.py), the glyphs the detector passes over (paper/glyphs.py), and a run cut from the page dark on
light (paper/crop.py); and the whole over any runs, which never raises."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from deckcheck import Data
from deckcheck.model import SECTIONS, Section
from deckcheck.paper import parse, skew
from deckcheck.paper.crop import cut
from deckcheck.paper.detect import Quad, upright
from deckcheck.paper.entries import read_rows
from deckcheck.paper.furniture import furniture, total_line
from deckcheck.paper.glyphs import lone
from deckcheck.paper.matching import exact_card
from deckcheck.paper.placing import Shape, place_page
from deckcheck.paper.read import read_page
from deckcheck.paper.recognise import Read
from deckcheck.paper.rows import Run, rows
from deckcheck.paper.sections import Box, place
from deckcheck.paper.sheet import FONT
from tests.profiles import examples

HIGH = 40  # pixels a run of text is high on the pages drawn here


def _run(text: str, left: float, top: float, width: float | None = None, sure: float = 99.0) -> Run:
    """A run of `text` read with `sure` sureness, its box `width` wide (else as long as its text) and HIGH high."""
    wide = width if width is not None else 0.6 * HIGH * max(1, len(text))
    return Run(1, upright(left, top, left + wide, top + HIGH), Read(text, (sure,) * len(text), "ppocr"))


def _read(data: Data, runs: list[Run], flow: Section | None = None) -> list[tuple[str, int | None, int | None, bool]]:
    """The lines the runs make: section, card, count and whether they need review, in the answer's order."""
    page = place_page(read_rows(rows(runs), data.cards), 1, Shape([], [], 2000), flow)
    return [
        (line.section, None if line.card is None else line.card.passcode, line.count, line.needs_review)
        for line in page.lines
    ]


@pytest.mark.parametrize(
    ("text", "section", "count"),
    [
        ("【EX13】", "extra", 13),
        ("✨EX 13✨", "extra", 13),
        ("■EXデッキ 14枚", "extra", 14),
        ("Main (40):", "main", 40),
        ("MAIN DECK - 40", "main", 40),
        ("メイン 40", "main", 40),
        ("サイドデッキ（15枚）", "side", 15),
        ("【メインデッキ】40枚", "main", 40),
        ("Extra Deck (15)", "extra", 15),
        ("サノドデッキ(14)", "side", 14),  # a letter misread
        ("罠力ード（8枚）", "main", 8),  # カ read as the kanji 力
        ("昆カード（8枚）", "main", 8),  # 罠 read as 昆
        ("サイドデッキ（15枚）・", "side", 15),  # a speck after it read as a middle dot
    ],
)
def test_a_heading_in_any_form_players_write_it_is_one(text: str, section: str, count: int) -> None:
    found = parse.heading(text)
    assert found is not None
    assert (found.section, found.count) == (section, count)


@pytest.mark.parametrize(
    "text", ["効果モンスター", "Total Monster Cards: 17", "3 Extra Bock", "Extra Deco Lord", "ブラック・マジシャン 3枚"]
)
def test_a_run_that_is_no_heading_is_none(text: str) -> None:
    assert parse.heading(text) is None


@pytest.mark.parametrize(
    ("text", "count", "passcode", "numbered"),
    [
        ("3 Snake-Eye Ash", 3, 9674034, None),
        ('3x Maxx "C"', 3, 23434538, None),
        ('Maxx "C" 3x', 3, 23434538, None),
        ("Ash Blossom & Joyous Spring ×3", 3, 14558127, None),
        ("「スネークアイ・エクセル」×3", 3, 9674034, None),
        ("《灰流うらら》3", 3, 14558127, None),
        ("灰流うらら 3枚", 3, 14558127, None),
        ("灰流うらら　３", 3, 14558127, None),
        ("灰流うらら③", 3, 14558127, None),
        ("Snake-Eye Ash (3)", 3, 9674034, None),
        ("灰流うらら ............ 3枚", 3, 14558127, None),  # dot leaders
        ("Ash Blossom & Joyous Spring        3", 3, 14558127, None),  # a tab stop
        ("1. Ash Blossom & Joyous Spring ×3", 3, 14558127, 1),  # a list number is no count
        ("12. 増殖するG x3", 3, 23434538, 12),
        ("No.3 灰流うらら", None, 14558127, 3),
        ("8 増殖するG」x1", 1, 23434538, 8),  # 「 read as 8: the count is the one marked
        ("・灰流うらら×3", 3, 14558127, None),
        ("Number 41: Bagooska the Terribly Tired Tapir", None, 90590303, None),  # the number is its name's
    ],
)
def test_a_card_run_is_read_around_its_name(
    data: Data, text: str, count: int | None, passcode: int, numbered: int | None
) -> None:
    said = parse.card_text(text, data.cards)
    assert said is not None
    found = exact_card(said.name, data.cards)
    assert found is not None
    assert (said.count, found.passcode, said.numbered) == (count, passcode, numbered)


# The last three: the end of dot leaders, as the recognizer reads them, before a count.
_COUNTS = [("3", 3), ("×3", 3), ("x3", 3), ("3x", 3), ("3枚", 3), ("(3)", 3), ("③", 3), ("３", 3), ("12.", None),
           ("No.12", None), ("Qty", None), ("..3", 3), ("OO  OO● 3", 3),
           ("DOOOOCOOOOOOOOCOOOOOOOOO .1", 1)]  # fmt: skip


@pytest.mark.parametrize(("text", "count"), _COUNTS)
def test_a_count_alone_is_one_in_any_form_and_a_list_number_is_none(text: str, count: int | None) -> None:
    assert parse.count_alone(text) == count


def test_dot_leaders_read_apart_from_their_name_and_count_are_no_card(data: Data) -> None:
    runs = [_run("Main Deck (5)", 60, 100), _run('Maxx "C" ...', 60, 200), _run("OOOOOOOO●OOOO", 500, 205)]
    runs += [_run("..3", 1500, 200), _run("Pot of Greed", 60, 260), _run("●  OO O   OO  ● 2", 500, 262)]
    assert _read(data, runs) == [("main", 23434538, 3, False), ("main", 55144522, 2, False)]


def test_runs_on_one_row_join_across_a_slope_and_a_speck_between_rows_joins_none() -> None:
    turn = 0.05  # radians, a phone held 3° off
    runs = []
    for line in range(4):
        for left, text in ((100, "Name"), (1500, "3")):
            top = 200 + 60 * line + left * turn
            runs.append(Run(1, Quad(((left, top), (left + 300, top + 300 * turn), (left + 300, top + 300 * turn + HIGH),
                                     (left, top + HIGH))), Read(text, (99.0,) * len(text), "ppocr")))  # fmt: skip
    speck = upright(900, 200 + 90 + 900 * turn, 910, 200 + 130 + 900 * turn)
    runs.append(Run(1, speck, Read("・", (50.0,), "ppocr")))
    made = rows(runs)
    assert [[run.text for run in row] for row in made if len(row) > 1] == [["Name", "3"]] * 4


def test_a_count_goes_to_the_row_it_stands_on_though_a_row_read_before_could_take_it() -> None:
    # A TCG form's `Side Deck Total | 0` box stands a little above the Extra Deck table's first row.
    runs = [_run("Side Deck Total", 1661, 2141), _run("0", 2257, 2139), _run("2", 922, 2167)]
    runs.append(_run("Fusionist", 998, 2167))
    assert [[run.text for run in row] for row in rows(runs)] == [["Side Deck Total", "0"], ["2", "Fusionist"]]


def test_a_count_in_a_cell_far_from_its_name_is_its_count_on_the_side_the_page_prints_them(data: Data) -> None:
    runs = [_run("モンスターカード（3枚）", 100, 100)]
    for line, (name, count) in enumerate((("ブラック・マジシャン", "2"), ("強欲な壺", "1"))):
        runs += [_run(name, 100, 200 + 60 * line), _run(count, 1200, 200 + 60 * line)]
    assert _read(data, runs) == [("main", 46986414, 2, False), ("main", 55144522, 1, False)]


def test_row_numbers_that_count_up_are_never_counts_and_a_type_column_never_a_card(data: Data) -> None:
    runs = [_run("No.", 100, 100), _run("カード名", 300, 100), _run("枚数", 1200, 100), _run("種類", 1500, 100)]
    table = [("灰流うらら", "3", "モンスター"), ("融合", "1", "魔法"), ("召喚獣メルカバー", "1", "融合"),
             ("増殖するG", "2", "モンスター"), ("強欲な壺", "1", "魔法")]  # fmt: skip
    for line, (name, count, kind) in enumerate(table):
        top = 160 + 60 * line
        runs += [_run(str(line + 1), 100, top), _run(name, 300, top), _run(count, 1200, top), _run(kind, 1500, top)]
    read = _read(data, runs)
    assert [(card, count) for _section, card, count, _review in read] == [
        (14558127, 3), (24094653, 1), (75286621, 1), (23434538, 2), (55144522, 1)
    ]  # fmt: skip
    # No heading and no section column over a list with a Fusion Monster in it: no line's section is sure.
    assert all(review for *_rest, review in read)


def test_a_section_column_says_each_rows_section(data: Data) -> None:
    runs = [_run("カード名", 300, 100), _run("枚数", 1200, 100), _run("デッキ", 1500, 100)]
    for line, (name, count, section) in enumerate((("灰流うらら", "3", "メイン"), ("召喚獣メルカバー", "1", "EX"),
                                                    ("増殖するG", "2", "サイド"))):  # fmt: skip
        runs += [_run(name, 300, 160 + 60 * line), _run(count, 1200, 160 + 60 * line)]
        runs += [_run(section, 1500, 160 + 60 * line)]
    assert _read(data, runs) == [
        ("main", 14558127, 3, False), ("extra", 75286621, 1, False), ("side", 23434538, 2, False)
    ]  # fmt: skip


def test_an_apps_row_takes_the_badge_centred_on_it_and_the_line_under_its_name_is_no_heading(data: Data) -> None:
    runs = [_run("魔法 2枚", 60, 100)]
    for line, name in enumerate(("強欲な壺", "天使の施し")):
        top = 200 + 150 * line
        runs += [_run(name, 200, top), _run("魔法カード", 200, top + 55), _run("×1", 950, top + 28)]
    assert _read(data, runs) == [("main", 55144522, 1, False), ("main", 79571449, 1, False)]


def test_a_name_an_app_wraps_onto_two_lines_is_one_card(data: Data) -> None:
    runs = [_run("Spells (1)", 60, 100), _run("Original Sinful Spoils -", 200, 200), _run("Snake-Eye", 200, 255)]
    runs += [_run("×3", 950, 228), _run("Spell Card", 200, 310)]
    assert _read(data, runs) == [("main", 89023486, 3, False)]


def test_a_wrapped_name_whose_first_line_names_a_card_of_its_own_is_the_longer_card(data: Data) -> None:
    runs = [_run("Extra Deck (1)", 60, 100), _run("Hot Red Dragon Archfiend", 200, 200)]
    runs += [_run("King Calamity", 200, 255), _run("1", 950, 228)]
    assert _read(data, runs) == [("extra", 62242678, 1, False)]
    two = [_run("Main Deck (6)", 60, 100), _run("Dark Magician", 200, 200), _run("3", 950, 200)]
    two += [_run("Pot of Greed", 200, 255), _run("3", 950, 255)]  # two cards' lines, the second one of its own
    assert _read(data, two) == [("main", 46986414, 3, False), ("main", 55144522, 3, False)]


def test_a_count_after_dot_leaders_is_as_sure_as_its_digits(data: Data) -> None:
    runs = [_run("Main Deck (3)", 60, 100), _run('Maxx "C" ' + "." * 80 + " 3", 60, 200)]
    assert _read(data, runs) == [("main", 23434538, 3, False)]


def test_what_stands_over_the_first_heading_with_no_count_is_the_pages_header(data: Data) -> None:
    runs = [_run("山", 800, 20), _run("Tenpai Dragon", 200, 20), _run("Main Deck (3)", 60, 100)]
    runs += [_run('Maxx "C"', 200, 200), _run("×3", 950, 200)]
    assert _read(data, runs) == [("main", 23434538, 3, False)]


def test_a_bar_of_words_is_furniture_though_one_word_is_a_heading(data: Data) -> None:
    runs = [_run("Main Deck (1)", 60, 100), _run("3 Pot of Greed", 60, 200)]
    runs += [_run(word, 100 + 250 * n, 2000) for n, word in enumerate(("Home", "Decks", "Search", "Settings"))]
    page = place_page(read_rows(rows(runs), data.cards), 1, Shape([], [], 2000), None)
    assert [line.text for line in page.lines] == ["3 Pot of Greed"]
    assert [h[1] for h in page.headings] == ["Main Deck (1)"]


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
    headings: list[tuple[Box, Section]] = [((100, 200, 600, 40), "main"), ((100, 450, 600, 40), "side")]
    placed = place(box, headings, "main", None)
    assert (placed.section, placed.heading, placed.unclear) == expected


def test_two_headings_as_near_over_a_line_leave_it_unclear() -> None:
    rivals: list[tuple[Box, Section]] = [((100, 200, 350, 40), "extra"), ((450, 210, 350, 40), "side")]
    assert place((100, 300, 700, 40), rivals, None, None).unclear


def test_a_table_after_a_total_with_its_heading_lost_is_unclear(data: Data) -> None:
    runs = [_run("Monster Cards", 100, 100), _run("Qty", 100, 160), _run("Card Name", 300, 160)]
    runs += [_run("3", 100, 220), _run("Dark Magician", 300, 220), _run("Total Monster Cards: 3", 100, 300)]
    runs += [_run("Qty", 100, 400), _run("Card Name", 300, 400), _run("2", 100, 460), _run("Pot of Greed", 300, 460)]
    assert _read(data, runs) == [("main", 46986414, 3, False), ("main", 55144522, 2, True)]


def _in_tables(data: Data, runs: list[Run], tables: list[Box]) -> dict[str, tuple[str, bool]]:
    """The section of each card's line the runs make on a page with these ruled tables, and whether it is unclear."""
    page = place_page(read_rows(rows(runs), data.cards), 1, Shape([], tables, 2000), None)
    return {line.card.name_en: (line.section, "section_unclear" in line.reasons) for line in page.lines if line.card}


def test_a_tables_lines_take_its_heading_however_far_over_it_but_never_one_over_another_table(data: Data) -> None:
    side = [_run("Side Deck", 100, 100), _run("Qty", 100, 160), _run("2", 100, 220), _run("Mystic Tomato", 200, 220)]
    side += [_run("1", 100, 400), _run("Giant Rat", 200, 400), _run("1", 100, 460), _run("Pot of Greed", 200, 460)]
    # The table's first rules were lost (a fax): it is found from the row at 380 down, five lines under its heading;
    # below a rule lost again, its last row is a piece of its own.
    found = _in_tables(data, side, [(80, 380, 800, 60), (80, 452, 800, 60)])
    assert found == dict.fromkeys(("Mystic Tomato", "Giant Rat", "Pot of Greed"), ("side", False))
    # A table whose heading was lost, under another table: never the heading over that one.
    lost = [_run("Spell Cards", 100, 100), _run("1", 100, 160), _run("Pot of Greed", 200, 160)]
    lost += [_run("2", 100, 400), _run("Mystic Tomato", 200, 400)]
    found = _in_tables(data, lost, [(80, 150, 800, 60), (80, 390, 800, 60)])
    assert found == {"Pot of Greed": ("main", False), "Mystic Tomato": ("main", True)}


def test_a_page_photographed_turned_is_laid_out_upright_and_its_boxes_given_where_they_stand(data: Data) -> None:
    turn = -0.09  # radians: the page's right side 5° higher, as a phone held so
    placed = [("Side Deck", 100, 100), ("2", 100, 160), ("Mystic Tomato", 180, 160), ("Extra Deck", 1000, 100)]
    extra = ("Stardust Dragon", "Goyo Guardian", "Black Rose Dragon", "Ancient Fairy Dragon", "Dark Strike Fighter",
             "Red Dragon Archfiend", "Thought Ruler Archfiend", "Colossal Fighter", "Arcanite Magician",
             "Brionac, Dragon of the Ice Barrier", "Black-Winged Dragon")  # fmt: skip
    placed += [("1", 1000, 160 + 60 * n) for n in range(len(extra))]
    placed += [(name, 1080, 160 + 60 * n) for n, name in enumerate(extra)]
    cos, sin = math.cos(turn), math.sin(turn)
    runs = []
    for text, left, top in placed:
        right = left + 30 * len(text)
        corners = ((left, top), (right, top), (right, top + HIGH), (left, top + HIGH))
        turned = tuple((1000 + (x - 1000) * cos - (y - 1000) * sin, 1000 + (x - 1000) * sin + (y - 1000) * cos)
                       for x, y in corners)  # fmt: skip
        runs.append(Run(1, Quad(turned), Read(text, (99.0,) * len(text), "ppocr")))
    turned_up = skew.turn_for(runs, (2000, 2000))
    assert turned_up is not None
    assert all(abs(turned_up.run(run).quad.angle) < 1e-9 for run in runs)  # level once turned
    page, _cells = read_page(Image.new("RGB", (2000, 2000), "white"), 1, runs, data.cards, None)
    sections = {line.card.name_en: line.section for line in page.lines if line.card}
    assert sections == {"Mystic Tomato": "side"} | dict.fromkeys(extra, "extra")
    # The line's box is where it stands in the picture: it holds its runs as they were found there.
    tomato = next(line for line in page.lines if line.card and line.card.name_en == "Mystic Tomato")
    assert tomato.box is not None
    left, top, width, high = tomato.box
    for run in runs[1:3]:
        x, y = run.quad.centre
        assert left <= x <= left + width
        assert top <= y <= top + high


def test_a_page_with_no_heading_read_and_an_extra_deck_monster_in_it_is_unclear_throughout(data: Data) -> None:
    runs = [_run("3 Pot of Greed", 100, 100), _run("1 Stardust Dragon", 100, 160), _run("2 Mystic Tomato", 100, 220)]
    assert [review for *_rest, review in _read(data, runs)] == [True, True, True]
    assert [review for *_rest, review in _read(data, runs[:1] + runs[2:])] == [False, False]


@pytest.mark.parametrize(
    "text",
    [
        "https://www.example-deckbuilder.com/deck/12345",
        "2024年5月 (6)",
        "< 前へ 1 2 3 4 5 … 12 次へ >",
        "« Prev 1 2 3 Next »",
        "2024 遊戯王デッキ構築ノート",  # a copyright whose © was lost
        "Printed on May 3, 2026",
        "5/14/24, 10:31 PM",
        "9:41",
        "午後9:41",
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


@pytest.mark.parametrize(
    ("text", "count"),
    [("Judge Man", None), ("Total Defense Shogun", None), ("《ンディライオン》メ1", None), ("3 ブラックマジツャン", 3)],
)
def test_a_card_misread_is_no_furniture(text: str, count: int | None) -> None:
    assert not furniture(text, 90.0 if count is None and text[0].isalpha() else 40.0, count)


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


def _cell_page(dark: bool) -> np.ndarray:
    """A ruled table of two rows, a name in each and a lone `1` in a count's cell, dark on light or light on dark."""
    page = Image.new("L", (1600, 400), 0 if dark else 255)
    draw = ImageDraw.Draw(page)
    ink, font = 255 if dark else 0, ImageFont.truetype(str(FONT), 36)
    for row in range(3):
        draw.line((100, 100 + 80 * row, 1500, 100 + 80 * row), fill=ink, width=3)
    for x in (100, 220, 1500):
        draw.line((x, 100, x, 260), fill=ink, width=3)
    for row, name in enumerate(("ブラック・マジシャン", "強欲な壺")):
        draw.text((150, 118 + 80 * row), "1", fill=ink, font=font)
        draw.text((260, 118 + 80 * row), name, fill=ink, font=font)
    return np.asarray(page)


@pytest.mark.parametrize("dark", [False, True])
def test_a_lone_digit_the_detector_passes_over_is_found_in_its_cell_and_no_rule_is(dark: bool) -> None:
    page = _cell_page(dark)
    names = [upright(250, 108 + 80 * row, 700, 162 + 80 * row) for row in range(2)]
    found = lone(page, names)
    assert len(found) == 2
    for row, quad in enumerate(found):
        left, top, width, high = quad.box
        assert left < 168 < left + width  # the `1`'s middle
        assert top < 140 + 80 * row < top + high


@pytest.mark.parametrize("dark", [False, True])
def test_a_circled_digit_is_one_glyph_cut_without_its_ring(dark: bool) -> None:
    paper, ink = (20, 230) if dark else (255, 0)
    page = Image.new("L", (1600, 300), paper)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(FONT, 36)
    draw.text((100, 110), "強欲で金満な壺", fill=ink, font=font)
    draw.ellipse((1400, 95, 1470, 165), outline=ink, width=4)
    draw.text((1424, 110), "1", fill=ink, font=font)
    pixels = np.asarray(page)
    found = lone(pixels, [upright(95, 105, 360, 155)])
    assert len(found) == 1  # the digit, not the ring's two halves
    left, top, width, high = found[0].box
    assert left < 1435 < left + width
    assert top < 130 < top + high
    assert lone(pixels, [upright(95, 105, 360, 155), found[0]]) == []  # found, the ring is no glyph of its own
    crop = cut(pixels, found[0])
    ink_columns = np.flatnonzero((crop < 128).any(axis=0))
    assert ink_columns[-1] - ink_columns[0] < 0.5 * crop.shape[0]  # the `1` alone: the ring painted out


@pytest.mark.parametrize("dark", [False, True])
def test_a_run_is_cut_dark_on_light_and_its_cells_rules_taken_out(dark: bool) -> None:
    crop = cut(_cell_page(dark), upright(240, 100, 1500, 180))
    assert crop.shape[0] < 80  # cut to its line of text
    assert float(np.median(crop)) > 200  # the paper light
    assert int(crop.min()) < 60  # the text dark


_TEXTS = st.sampled_from(
    ["3", "x3", "×3", "3x", "-3x", "(③)", "③", "コメント(2)", "(2)", "枚", "3枚", "《クリボー》×2", "クリボー", "ー",
     "Dark Magician", "強欲な壺", "サイドデッキ", "Side Deck (15)", "【メインデッキ】", "Total", "2024年5月", "(6)",
     "http://x.jp", "。", "※", " ", "0", "999", "１", "Ｘ", "《", "》", "・", "Qty", "No.", "1.", "融合", "EX",
     "メイン", "Spell Card", "Total Monster Cards: 3", "Main Deck Total", "ホーム", "Home"]
)  # fmt: skip
_RUNS = st.lists(st.tuples(_TEXTS, st.integers(0, 1900), st.integers(0, 2700), st.floats(0, 100)), max_size=40)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(made=_RUNS, carried=st.sampled_from([None, *SECTIONS]))
def test_any_runs_anywhere_read_without_raising(
    data: Data, made: list[tuple[str, int, int, float]], carried: Section | None
) -> None:
    runs = [_run(text, x, y, sure=sure) for text, x, y, sure in made if text.strip()]
    page = place_page(read_rows(rows(runs), data.cards), 1, Shape([(800.0, (0.0, 1000.0, 2000.0))], [], 2000), carried)
    for line in page.lines:  # only a card read for sure with a count a deck may hold goes in the deck
        assert line.section in SECTIONS
        if not line.needs_review:
            assert line.card is not None
            assert line.count is not None
            assert 1 <= line.count <= 3


def test_a_row_number_read_with_its_name_is_never_a_count_and_a_column_of_kinds_read_as_lines_is_no_card(
    data: Data,
) -> None:
    """A spreadsheet whose `No.` cell the detector joined to the name (`1 ブラック・マジシャン`) and whose `枚数`
    cell it joined to the type (`1 融合`): the numbers counting up are flagged, never counts, and `融合` is no card."""
    names = ("ブラック・マジシャン", "強欲な壺", "死者蘇生", "ブラック・マジシャン・ガール", "ハーピィ・レディ")
    kinds = ("モンスター", "魔法", "魔法", "モンスター", "融合")
    runs: list[Run] = []
    for row, (name, kind) in enumerate(zip(names, kinds, strict=True)):
        runs += [_run(f"{row + 1} {name}", 100, 100 + 60 * row, 700), _run(f"1 {kind}", 900, 100 + 60 * row, 300)]
    runs.append(_run("1 融合", 900, 100 + 60 * len(names), 300))
    lines = _read(data, runs)
    assert [(count, review) for _section, _card, count, review in lines] == [(n, True) for n in range(1, 6)]
    assert 24094653 not in [card for _section, card, _count, _review in lines]  # 融合, Polymerization
