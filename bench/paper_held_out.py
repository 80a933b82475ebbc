"""The two kinds bench/paper_forms.py holds out, drawn here apart from the rest: a spreadsheet's print-out (`sheet`,
drawn with fpdf2 below) and a chat app's screenshot (`chat`, bench/paper_held_out_chat.py). The runner draws them
with every deck, so that the decks are the same whichever kinds are asked for, but reads and shows them only with
--held-out and never saves them: they stand for the pages nobody drew the reader for.

`sheet`: a deck kept in Excel or Google Sheets and printed fit to one page of A4, the sheet's gridlines light, its
rows shaded in turn. A header row in bold on a tinted ground (`No. | カード名 | 枚数 | 種類 | デッキ`, `No. | 区分 |
カード名 | 枚数 | 種類`, `# | Card Name | Qty | Type | Deck`, `# | Deck | Card Name | Qty | Type`), then a row a
card: the row's number counting up through the deck, the name, the count right-aligned as a spreadsheet sets
numbers, the card's type (モンスター, 魔法, 罠, 融合, シンクロ, エクシーズ, リンク; Monster, Spell, Trap, Fusion,
Synchro, Xyz, Link) and its section as a column's value (メイン, EX, サイド; Main, Extra, Side). Some sheets leave
a blank row between sections, some end in a row of the total. The application's page header and footer:
Excel's (the file's name above, `1 ページ` or `Page 1 of 1` below) or Google Sheets' (the workbook's title and
the sheet's name above, the date and the page's number below). Japanese sheets in IPAPGothic, IPAexGothic or
IPAGothic, English ones in Liberation Sans, Liberation Sans Narrow or DejaVu Sans.
"""

from __future__ import annotations

from pathlib import Path

from bench.paper_forms_draw import (
    JA_FONTS,
    Canvas,
    Drawn,
    Font,
    FormDeck,
    main_truth,
    truth,
)
from bench.paper_held_out_apps import chat_screen
from bench.paper_held_out_chat import CHAT_DEGRADATIONS, CHAT_FONTS
from bench.paper_screen import SCREEN_FONTS
from deckcheck.data import Card

_FONTS = Path("/usr/share/fonts/truetype")
SHEET_FONTS = {
    "ja": (SCREEN_FONTS["ja"][2], JA_FONTS[0], JA_FONTS[2]),
    "en": (
        SCREEN_FONTS["en"][0],
        Font(
            "Liberation Sans Narrow",
            _FONTS / "liberation/LiberationSansNarrow-Regular.ttf",
            "en",
            _FONTS / "liberation/LiberationSansNarrow-Bold.ttf",
        ),
        SCREEN_FONTS["en"][1],
    ),
}
SHEET_DEGRADATIONS = ("300dpi", "photo", "fax", "image-pdf", "text-pdf")
SECTION_WORDS = {
    "ja": {"main": "メイン", "extra": "EX", "side": "サイド"},
    "en": {"main": "Main", "extra": "Extra", "side": "Side"},
}
TYPE_WORDS = {
    "ja": {"none": "モンスター", "fusion": "融合", "synchro": "シンクロ", "xyz": "エクシーズ", "link": "リンク",
           "spell": "魔法", "trap": "罠"},
    "en": {"none": "Monster", "fusion": "Fusion", "synchro": "Synchro", "xyz": "Xyz", "link": "Link",
           "spell": "Spell", "trap": "Trap"},
}  # fmt: skip
COLUMNS = {
    "ja": (("No.", "カード名", "枚数", "種類", "デッキ"), ("No.", "区分", "カード名", "枚数", "種類")),
    "en": (("#", "Card Name", "Qty", "Type", "Deck"), ("#", "Deck", "Card Name", "Qty", "Type")),
}
WIDTHS = {"no": 11.0, "section": 17.0, "name": 84.0, "count": 14.0, "type": 25.0}  # at 100 %, in mm
ZEBRAS = ((243, 243, 243), (232, 240, 254), (242, 246, 240))
HEADERS = ((217, 217, 217), (201, 218, 248), (74, 134, 232))
Row = tuple[str, str, str, str, str] | None  # a card's cells (number, section, name, count, type); None a blank row


def _type(card: Card, lang: str) -> str:
    return TYPE_WORDS[lang][card.kind if card.kind != "monster" else card.extra_deck_type]


def _rows(deck: FormDeck, lang: str, variant: int) -> list[Row]:
    """The sheet's rows after its header: a card each, numbered through the deck, a blank row between sections
    on some sheets, a total's row at the end of others."""
    rows: list[Row] = []
    number = 0
    for section, entries in (("main", deck.by_kind()), ("extra", deck.extra), ("side", deck.side)):
        if rows and entries and variant % 3 == 1:
            rows.append(None)
        for card, n in entries:
            number += 1
            rows.append((str(number), SECTION_WORDS[lang][section], card.name(lang), str(n), _type(card, lang)))
    if variant % 3 == 2:
        total = sum(n for _, n in (*deck.main, *deck.extra, *deck.side))
        rows.append(("", "", "合計" if lang == "ja" else "Total", str(total), ""))
    return rows


def sheet_print(deck: FormDeck, font: Font, variant: int) -> Drawn:
    """The deck kept in a spreadsheet, printed fit to one page of A4."""
    lang = font.lang
    title = deck.title_ja if lang == "ja" else deck.title_en
    canvas = Canvas((210.0, 297.0), font, font, deck.player.date, title)
    header = COLUMNS[lang][variant % 2]
    keys = (
        ("no", "name", "count", "type", "section") if variant % 2 == 0 else ("no", "section", "name", "count", "type")
    )
    rows = _rows(deck, lang, variant)
    google = variant // 2 % 2 == 1
    top, room = 20.0, 297.0 - 20.0 - 18.0
    height = 5.3  # Excel's row of 15 points
    scale = min(1.0, room / ((len(rows) + 1) * height))  # fit to one page
    row, size = height * scale, 10.0 * scale if lang == "ja" else 10.5 * scale
    widths = [WIDTHS[key] * scale for key in keys]
    left = 15.0 if google else 18.0
    right = left + sum(widths)
    zebra, tint = ZEBRAS[variant % 3], HEADERS[variant // 3 % 3]
    _page_furniture(canvas, deck, lang, google, title)
    _fill(canvas, (left, top, right - left, row), tint)
    ink = 255 if tint == HEADERS[2] else 0
    x = left
    for word, width in zip(header, widths, strict=True):
        canvas.text(x + 1.2 * scale, top + row * 0.72, word, size, bold=True, grey=ink, width=width - 2 * scale)
        x += width
    for r, cells in enumerate(rows):
        y = top + (r + 1) * row
        if r % 2 == 1:
            _fill(canvas, (left, y, right - left, row), zebra)
        if cells is None:
            continue
        values = dict(zip(("no", "section", "name", "count", "type"), cells, strict=True))
        x = left
        for key, width in zip(keys, widths, strict=True):
            text = values[key]
            numeric = key in ("no", "count")
            at = x + width - 1.2 * scale if numeric else x + 1.2 * scale
            if text:
                canvas.text(at, y + row * 0.72, text, size, align="R" if numeric else "L", width=width - 2 * scale)
            x += width
    bottom = top + (len(rows) + 1) * row
    for k in range(len(rows) + 2):
        canvas.rule(left, top + k * row, right, top + k * row, weight=0.1, grey=200)
    x = left
    for width in [0.0, *widths]:
        x += width
        canvas.rule(x, top, x, bottom, weight=0.1, grey=200)
    return canvas.output(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))


def _fill(canvas: Canvas, box: tuple[float, float, float, float], colour: tuple[int, int, int]) -> None:
    """A cell's or a row's ground, with no border: the gridlines are drawn over it."""
    canvas.pdf.set_fill_color(*colour)
    canvas.pdf.rect(*box, style="F")


def _page_furniture(canvas: Canvas, deck: FormDeck, lang: str, google: bool, title: str) -> None:
    """The application's page header and footer: Excel's file name and page, or Google Sheets' title, sheet,
    date and page."""
    when = deck.player.date
    if google:
        canvas.text(15, 11, f"{title} デッキリスト" if lang == "ja" else f"{title} decklist", 9)
        canvas.text(195, 11, "シート1" if lang == "ja" else "Sheet1", 9, align="R")
        canvas.text(15, 290, f"{when:%Y/%m/%d} 21:04", 8, grey=60)
        canvas.text(195, 290, "1", 8, align="R", grey=60)
        return
    name = f"{title} デッキ.xlsx" if lang == "ja" else f"{title} deck.xlsx"
    canvas.text(105, 11, name, 9, align="C")
    canvas.text(105, 290, "1 ページ" if lang == "ja" else "Page 1 of 1", 8.5, align="C")


__all__ = ["CHAT_DEGRADATIONS", "CHAT_FONTS", "SHEET_DEGRADATIONS", "SHEET_FONTS", "chat_screen", "sheet_print"]
