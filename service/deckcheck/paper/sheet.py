"""The deck registration sheet (デッキ登録用紙 / Deck Registration Sheet) as a PDF: who plays, where and when, then
the deck by section and kind with counts and names, the totals, and a QR code of the deck's ydke:// link that a
phone or the desk reads back exactly. Handed in at an event, it is the Deck Roster Sheet of the penalty
regulations (PR 3.B: the deck fielded must match it exactly), and its player ID the ユーザーID every player
registers (TR 必要なもの); the rules prescribe no layout, so this one follows the sheets Japanese events take.

The layout is made for both readers of paper: a person, who fills by hand what the request left out, and the
service's own reader (paper/read.py), which finds the QR code in the top right corner, or, without it, reads each
printed line as a text list reads it (`3 ブラック・マジシャン` under a `■モンスター (15)` heading, formats/text.py).
fpdf2 draws it: it embeds a subset of a TrueType font with its Unicode map, so Chromium's viewer shows the names
and poppler's pdftotext gives each one back, and it draws the QR code's modules as filled squares that print
sharp at any size. The font is IPAexGothic (IPAexゴシック), bundled under the IPA Font License v1.0
(fonts/IPA_Font_License_Agreement_v1.0.txt), which allows embedding it in documents.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from deckcheck.data import Card, CardIndex
from deckcheck.errors import InvalidInput
from deckcheck.formats.common import card_of
from deckcheck.formats.qr import QR_ERROR, DeckTooLargeForQr
from deckcheck.formats.ydke import write_ydke
from deckcheck.model import Deck, Entry
from deckcheck.paper import PRINTING, require
from deckcheck.paper.words import SHEET_WORDS, SheetWords

if TYPE_CHECKING:
    from fpdf import FPDF

Paper = Literal["a4", "letter"]
FONT = Path(__file__).parent / "fonts" / "ipaexg.ttf"
FONT_NAME = "IPAexGothic"
PAPER_MM: dict[Paper, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 12.0  # mm
QR_SIDE = 44.0  # mm: a 90-card deck's code (version 13, 69 modules with its quiet zone) at 0.64 mm a module
FIELD_ROW = 8.0  # mm a row of the fields
COLUMN_GAP = 14.0  # mm between the two columns of cards: a gutter a reader of the lines never bridges
MAX_ROW, MIN_ROW = 6.5, 3.6  # mm a card line takes, at most and at least (then 11 and 6 pt type)
POINT = 25.4 / 72  # mm a typographic point
# The most lines one column holds at the smallest type on the shorter paper: the main deck's cards of 500 entries
# would need more, and no tournament deck does (60 main, 15 extra, 15 side).
MAX_COLUMN_LINES = 60


class DeckTooLargeForSheet(InvalidInput):
    """The deck has more lines than a column of the sheet holds."""

    def __init__(self, lines: int) -> None:
        super().__init__(
            f"the deck needs {lines} lines in one column of the sheet; a sheet holds at most {MAX_COLUMN_LINES}"
        )


@dataclass(frozen=True, slots=True)
class SheetFields:
    """What the sheet says about the player and the event; what is None is printed blank, to fill by hand."""

    player_name: str | None = None
    player_furigana: str | None = None
    player_id: str | None = None
    event: str | None = None
    date: dt.date | None = None
    format: str | None = None
    paper: Paper = "a4"


@dataclass(frozen=True, slots=True)
class Line:
    """One printed line of a column: a heading with its count, or a card with its copies."""

    text: str
    count: int | None = None  # the copies of a card line; None for a heading
    heading: bool = False


def _kind_lines(entries: tuple[Entry, ...], cards: CardIndex, lang: str, words: SheetWords) -> list[Line]:
    """The main deck's lines: monsters, spells and traps, each under a heading with its count."""
    kinds: dict[str, list[tuple[Entry, Card]]] = {"monster": [], "spell": [], "trap": []}
    for entry in entries:
        card = card_of(entry, cards)
        kinds.setdefault(card.kind, []).append((entry, card))
    lines = [Line(words.heading(words.main, sum(e.count for e in entries)), heading=True)]
    for kind, held in kinds.items():
        lines.append(Line(words.heading(words.kinds[kind], sum(e.count for e, _ in held)), heading=True))
        lines += [Line(card.name(lang), entry.count) for entry, card in held]
    return lines


def _section_lines(title: str, entries: tuple[Entry, ...], cards: CardIndex, lang: str) -> list[Line]:
    lines = [Line(SHEET_WORDS[lang].heading(title, sum(e.count for e in entries)), heading=True)]
    return lines + [Line(card_of(entry, cards).name(lang), entry.count) for entry in entries]


def columns(deck: Deck, cards: CardIndex, lang: str) -> tuple[list[Line], list[Line]]:
    """The sheet's two columns: the main deck by kind; the extra deck, then the side deck."""
    words = SHEET_WORDS[lang]
    left = _kind_lines(deck.main, cards, lang, words)
    right = [*_section_lines(words.extra, deck.extra, cards, lang), Line("")]
    right += _section_lines(words.side, deck.side, cards, lang)
    longest = max(len(left), len(right))
    if longest > MAX_COLUMN_LINES:
        raise DeckTooLargeForSheet(longest)
    return left, right


def sheet_pdf(deck: Deck, cards: CardIndex, lang: str, fields: SheetFields, data_version: str) -> bytes:
    """The registration sheet of `deck` as a one-page PDF, with words and card names in `lang` (ja or en); every
    entry must name an official card (DeckFormatError), and the deck must fit (DeckTooLargeForSheet,
    DeckTooLargeForQr); PaperUnavailable when the paper extra is not installed."""
    require("printing a registration sheet", PRINTING)
    from fpdf import FPDF  # noqa: PLC0415 - fpdf2 and fontTools are slow to import: the first sheet alone pays

    words = SHEET_WORDS[lang]
    left, right = columns(deck, cards, lang)
    link = write_ydke(deck, cards)
    width, height = PAPER_MM[fields.paper]
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_margins(MARGIN, MARGIN)
    pdf.set_auto_page_break(auto=False)
    pdf.set_creation_date(dt.datetime.combine(fields.date or dt.date(2008, 1, 1), dt.time(), dt.UTC))
    pdf.set_title(words.title)
    pdf.set_lang(lang)
    pdf.set_subject(f"deckcheck data {data_version}")
    pdf.set_creator("deckcheck")
    pdf.add_font(FONT_NAME, fname=str(FONT))
    pdf.add_page()
    top = _header(pdf, words, fields, width)
    _qr(pdf, link, width - MARGIN - QR_SIDE, MARGIN, data_version)
    bottom = height - MARGIN - 10
    column = (width - 2 * MARGIN - COLUMN_GAP) / 2
    row = max(MIN_ROW, min(MAX_ROW, (bottom - top) / max(len(left), len(right))))
    _column(pdf, left, (MARGIN, top), column, row)
    _column(pdf, right, (MARGIN + column + COLUMN_GAP, top), column, row)
    counts = deck.counts()
    pdf.set_font(FONT_NAME, size=8)
    totals = words.totals.format(main=counts["main"], extra=counts["extra"], side=counts["side"], data=data_version)
    pdf.text(MARGIN, height - MARGIN - 2, totals)
    return bytes(pdf.output())


def _header(pdf: FPDF, words: SheetWords, fields: SheetFields, width: float) -> float:
    """The title and the fields, each value on a rule (blank where the request gave none); where the cards begin."""
    pdf.set_font(FONT_NAME, size=15)
    pdf.text(MARGIN, MARGIN + 5, words.title)
    values = [
        (words.furigana, fields.player_furigana),
        (words.player_name, fields.player_name),
        (words.player_id, fields.player_id),
        (words.event, fields.event),
        (words.date, None if fields.date is None else fields.date.isoformat()),
        (words.format, None if fields.format is None else fields.format.upper()),
    ]
    right = width - MARGIN - QR_SIDE - 6
    y = MARGIN + 10
    for label, value in values:
        pdf.set_font(FONT_NAME, size=8)
        pdf.text(MARGIN, y + 5.5, label)
        pdf.line(MARGIN + 38, y + FIELD_ROW - 1, right, y + FIELD_ROW - 1)
        if value:
            pdf.set_font(FONT_NAME, size=11)
            pdf.text(MARGIN + 40, y + 5.8, _fit(pdf, value, right - MARGIN - 42))
        y += FIELD_ROW
    return max(y, MARGIN + QR_SIDE + 6) + 4


def _fit(pdf: FPDF, text: str, room: float) -> str:
    """`text` cut with an ellipsis where it is wider than `room` mm at the current type."""
    if pdf.get_string_width(text) <= room:
        return text
    while text and pdf.get_string_width(text + "…") > room:
        text = text[:-1]
    return text + "…"


def _qr(pdf: FPDF, link: str, x: float, y: float, data_version: str) -> None:
    """The ydke link as a QR code, `QR_SIDE` mm square with its quiet zone, the data version beneath."""
    import segno  # noqa: PLC0415 - as in formats/qr.py

    try:
        code = segno.make_qr(link, error=QR_ERROR, boost_error=True)
    except segno.DataOverflowError:
        raise DeckTooLargeForQr(len(link.encode())) from None
    matrix = [list(row) for row in code.matrix_iter(border=4)]
    module = QR_SIDE / len(matrix)
    pdf.set_fill_color(0, 0, 0)
    for r, modules in enumerate(matrix):
        c = 0
        while c < len(modules):  # a run of dark modules as one rectangle: fewer, cleaner shapes to print
            if not modules[c]:
                c += 1
                continue
            start = c
            while c < len(modules) and modules[c]:
                c += 1
            pdf.rect(x + start * module, y + r * module, (c - start) * module, module, style="F")
    pdf.set_font(FONT_NAME, size=6)
    pdf.text(x + 4 * module, y + QR_SIDE + 2.5, f"ydke · data {data_version}")


def _column(pdf: FPDF, lines: list[Line], at: tuple[float, float], width: float, row: float) -> None:
    """One column of lines: headings in larger type, card lines a little indented, a count then the name."""
    x, y = at
    size = row / POINT * 0.62
    for line in lines:
        y += row
        if line.heading:
            pdf.set_font(FONT_NAME, size=size * 1.05)
            pdf.text(x, y - row * 0.25, _fit(pdf, line.text, width))  # no rule beneath: OCR reads one as strokes
            continue
        pdf.set_font(FONT_NAME, size=size)
        # The count one space before the name, as a text list writes it (`3 ブラック・マジシャン`): a reader takes the
        # two for one line, where a column of counts apart from the names reads as a block of its own.
        text = line.text if line.count is None else f"{line.count} {line.text}"
        pdf.text(x + 2, y - row * 0.25, _fit(pdf, text, width - 2))
