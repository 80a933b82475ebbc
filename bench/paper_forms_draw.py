"""The four printed layouts of bench/paper_forms.py, drawn with fpdf2 as vector PDFs whose ruled lines are real lines.

1. `ocg_form`: the OCG デッキレシピ (A4): header fields in ruled boxes, then ruled `カード名 | 枚数` tables (the
   count in its own column right of the name) for モンスターカード, 魔法カード and 罠カード, in two columns
   (monsters left, spells over traps right, each heading carrying its count `モンスターカード（ 17 枚）`) or three
   (each table's foot a `合計 17 枚` row); エクストラデッキ and サイドデッキ side by side below; the main deck's
   total in a box, a ※ note at the foot. Japanese names.
2. `tcg_form`: the TCG Deck Registration Sheet (Letter or A4): name, CARD GAME ID, event and country in ruled
   boxes; Monster | Spell | Trap Cards tables side by side, each `Qty | Card Name` (the count in its own left
   column) over a `Total … Cards` box; Side Deck | Extra Deck tables below beside the totals and a judges' box.
   English names.
3. `site_print`: a deck-builder site's page as a browser prints it: the browser's date and title, the site's name
   and menu, the deck's name and player, two columns of `3x Name` under `Main Deck (40)`, `Monster (17)`, …
   headings (English, or Japanese names under Japanese headings), the page's address, print date and `Page 1 of 1`.
4. `blog_page`: a Japanese blog post: the blog's name and menu, the post's date and title, prose before and after
   a list under `【メインデッキ】40枚` headings (`「名前」×3`, `名前 ×3` or `・名前 3枚` lines), a sidebar of
   profile, recent posts, archive months `2024年5月 (6)` and categories, page numbers at the foot.

Each layout also comes with its section and kind headings set white (or light grey) on a solid dark bar of a
colour given, as many printed forms set them (the real TCG sheet's headings are white on black): the OCG and TCG
tables' heading bars and the official-use box, the site's and the blog's headings. What the player typed (field
values, counts and card names) is set in the page's font, which paper_forms.py turns over the decks; what the form
prints is set in the form's own face. Each layout gives back its PDF and the true
lines in print order. A deck too long for a layout's tables or page raises DoesNotFit.
"""

from __future__ import annotations

import datetime as dt
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import TextMode
from fpdf.fonts import TTFFont

from bench.paper_corpus import TrueLine
from deckcheck.data import Card
from deckcheck.model import Section
from deckcheck.paper.sheet import FONT as IPAEX_GOTHIC

POINT = 25.4 / 72  # mm a typographic point
KINDS = ("monster", "spell", "trap")
Entries = tuple[tuple[Card, int], ...]
Drawn = tuple[bytes, tuple[TrueLine, ...]]
RGB = tuple[int, int, int]
Colour = int | RGB  # a grey from 0 (black) to 255, or red, green and blue


@dataclass(frozen=True, slots=True)
class Font:
    """A face to set text in: its name, its file, the language it serves, and a bold file where it has one."""

    name: str
    path: Path
    lang: str
    bold: Path | None = None
    index: int = 0  # the face's place in a font collection (.ttc)


_FONTS = Path("/usr/share/fonts")
_LIBERATION = _FONTS / "truetype/liberation"
JA_FONTS = (
    Font("IPAexGothic", IPAEX_GOTHIC, "ja"),
    Font("IPAMincho", _FONTS / "opentype/ipafont-mincho/ipam.ttf", "ja"),
    Font("IPAGothic", _FONTS / "opentype/ipafont-gothic/ipag.ttf", "ja"),
    Font("IPAexMincho", _FONTS / "opentype/ipaexfont-mincho/ipaexm.ttf", "ja"),
)
EN_FONTS = (
    Font("Liberation Sans", _LIBERATION / "LiberationSans-Regular.ttf", "en", _LIBERATION / "LiberationSans-Bold.ttf"),
    Font(
        "Liberation Serif", _LIBERATION / "LiberationSerif-Regular.ttf", "en", _LIBERATION / "LiberationSerif-Bold.ttf"
    ),
    Font(
        "DejaVu Serif",
        _FONTS / "truetype/dejavu/DejaVuSerif.ttf",
        "en",
        _FONTS / "truetype/dejavu/DejaVuSerif-Bold.ttf",
    ),
)
FORM_FONTS = {"ja": JA_FONTS[0], "en": EN_FONTS[0]}  # the face a form prints its own words in
# The Debian package that installs each folder of faces the bench draws with (scripts/bench-deps installs them).
PACKAGES = {
    "opentype/ipafont-gothic": "fonts-ipafont-gothic",
    "opentype/ipafont-mincho": "fonts-ipafont-mincho",
    "opentype/ipaexfont-mincho": "fonts-ipaexfont-mincho",
    "opentype/noto": "fonts-noto-cjk",
    "opentype/comic-neue": "fonts-comic-neue",
    "truetype/liberation": "fonts-liberation",
    "truetype/dejavu": "fonts-dejavu-core",
    "truetype/klee": "fonts-klee",
    "truetype/kiloji": "fonts-kiloji",
    "truetype/aoyagi-soseki": "fonts-aoyagi-soseki",
    "truetype/fifthhorseman": "fonts-dkg-handwriting",
    "truetype/humor-sans": "fonts-humor-sans",
}


def missing_fonts(fonts: Iterable[Font]) -> list[str]:
    """What to install for each file of `fonts` that is missing, a sentence each."""
    out = []
    for path in sorted({p for font in fonts for p in (font.path, font.bold) if p is not None and not p.exists()}):
        folder = path.parent.relative_to(_FONTS).as_posix() if path.is_relative_to(_FONTS) else ""
        package = PACKAGES.get(folder)
        how = f"install Debian's {package} (as root: bash scripts/bench-deps)" if package else "install its package"
        out.append(f"{path} is missing: {how}")
    return out


@dataclass(frozen=True, slots=True)
class Player:
    """Who hands the list in, and where and when: names in both languages, IDs and the event."""

    name_ja: str
    furigana: str
    first: str
    last: str
    game_id: str
    country: str
    event_ja: str
    event_en: str
    date: dt.date


@dataclass(frozen=True, slots=True)
class FormDeck:
    """A deck to draw: its id, its name in each language, its sections as (card, copies) in the deck's order, and
    its player."""

    id: str
    title_ja: str
    title_en: str
    main: Entries
    extra: Entries
    side: Entries
    player: Player

    def kind(self, kind: str) -> Entries:
        """The main deck's cards of `kind` (monster, spell or trap)."""
        return tuple((card, n) for card, n in self.main if card.kind == kind)

    def by_kind(self) -> Entries:
        """The main deck's cards in the order every layout prints them: monsters, spells, traps."""
        return tuple(entry for kind in KINDS for entry in self.kind(kind))


def copies(entries: Entries) -> int:
    """The copies of the entries."""
    return sum(n for _, n in entries)


def truth(section: Section, entries: Entries) -> list[TrueLine]:
    """The entries as true lines of `section`."""
    return [TrueLine(section, card.passcode, n) for card, n in entries]


def main_truth(deck: FormDeck) -> list[TrueLine]:
    """The main deck's true lines as every layout prints them: monsters, spells, traps."""
    return truth("main", deck.by_kind())


class DoesNotFit(Exception):
    """The deck has more lines than the layout's tables or page hold, or a name its face cannot set."""


def rgb(colour: Colour) -> RGB:
    """A colour as red, green and blue."""
    return (colour, colour, colour) if isinstance(colour, int) else colour


class Canvas:
    """One page of fpdf2 with the page's face (`value`, what was typed) and the form's face (`form`); its headings
    set white on a bar of the colour `bar` where given, as many printed forms set them."""

    def __init__(
        self, size: tuple[float, float], value: Font, form: Font, when: dt.date, title: str, *, bar: RGB | None = None
    ) -> None:
        self.width, self.height = size
        self.bar = bar
        self.pdf = FPDF(unit="mm", format=size)
        self.pdf.set_auto_page_break(auto=False)
        self.pdf.set_creation_date(dt.datetime.combine(when, dt.time(9), dt.UTC))
        self.pdf.set_title(title)
        self.fonts = {"value": value, "form": form}
        for role, font in self.fonts.items():
            self.pdf.add_font(role, fname=str(font.path))
            if font.bold is not None:
                self.pdf.add_font(role, style="B", fname=str(font.bold))
        self.pdf.add_page()

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        *,
        role: str = "value",
        bold: bool = False,
        align: str = "L",
        width: float | None = None,
        grey: Colour = 0,
    ) -> float:
        """Set `text` with its baseline at `y`, from `x` (or centred on or ending at it, by `align` C or R), shrunk
        to `width` where given; bold from a bold face, or stroked where the face has none. The size it took."""
        font = self.fonts[role]
        style = "B" if bold and font.bold is not None else ""
        self.pdf.set_font(role, style=style, size=size)
        wide = self.pdf.get_string_width(text)
        if width is not None and wide > width:
            size *= width / wide
            self.pdf.set_font(role, style=style, size=size)
            wide = self.pdf.get_string_width(text)
        start = {"L": x, "C": x - wide / 2, "R": x - wide}[align]
        self.pdf.set_text_color(*rgb(grey))
        if bold and not style:
            # Stroked as well as filled, within q/Q: fpdf2 sets the text mode (Tr) inside the text object, where it
            # outlasts ET, and the stroke's width it gives as the line width's figure taken in points.
            with self.pdf.local_context():
                self.pdf.set_draw_color(*rgb(grey))
                self.pdf.set_line_width(size * 0.03)
                self.pdf.text_mode = TextMode.FILL_STROKE
                self.pdf.text(start, y, text)
        else:
            self.pdf.text(start, y, text)
        self.pdf.set_text_color(0)
        return size

    def width_of(self, text: str, size: float, role: str = "value") -> float:
        """How wide `text` sets, in mm."""
        self.pdf.set_font(role, size=size)
        return float(self.pdf.get_string_width(text))

    def rule(self, x1: float, y1: float, x2: float, y2: float, *, weight: float = 0.2, grey: Colour = 0) -> None:
        """A straight line."""
        self.pdf.set_line_width(weight)
        self.pdf.set_draw_color(*rgb(grey))
        self.pdf.line(x1, y1, x2, y2)
        self.pdf.set_draw_color(0)

    def box(self, x: float, y: float, w: float, h: float, *, fill: Colour | None = None, weight: float = 0.25) -> None:
        """A ruled rectangle, filled where `fill` is given."""
        self.pdf.set_line_width(weight)
        if fill is not None:
            self.pdf.set_fill_color(*rgb(fill))
        self.pdf.rect(x, y, w, h, style="DF" if fill is not None else "D")

    def on_bar(self, x: float, y: float, width: float, height: float) -> Colour:
        """A heading's bar where the canvas sets headings on bars: the bar filled in, and the colour to set the
        heading in (white, or a light grey on a grey bar); black where it sets them plain."""
        if self.bar is None:
            return 0
        self.pdf.set_fill_color(*self.bar)
        self.pdf.rect(x, y, width, height, style="F")
        return 225 if len(set(self.bar)) == 1 and self.bar[0] > 0 else 255

    def output(self) -> bytes:
        """The PDF; DoesNotFit where a face lacks a character set in it."""
        pdf = bytes(self.pdf.output())
        for font in self.pdf.fonts.values():
            if isinstance(font, TTFFont) and font.missing_glyphs:
                missing = "".join(chr(code) for code in font.missing_glyphs)
                raise DoesNotFit(f"{font.name} lacks {missing!r}")
        return pdf


def wrap(canvas: Canvas, text: str, width: float, size: float) -> list[str]:
    """`text` broken into lines no wider than `width` at `size`: between any two characters of Japanese, at spaces
    of English."""
    lines: list[str] = []
    line = ""
    for part in text.split(" ") if text.isascii() else list(text):
        joined = f"{line} {part}" if line and text.isascii() else line + part
        if line and canvas.width_of(joined, size) > width:
            lines.append(line)
            line = part
        else:
            line = joined
    return [*lines, line] if line else lines


@dataclass(frozen=True, slots=True)
class Columns:
    """A ruled card table's words: the name column's header, the count column's, and the count column's width and
    side."""

    name: str
    count: str
    count_width: float
    count_left: bool


OCG_COLUMNS = Columns("カード名", "枚数", 12.0, count_left=False)
TCG_COLUMNS = Columns("Card Name", "Qty", 9.0, count_left=True)
HEADER_ROW = 5.0  # mm of a table's column headers


def table(
    canvas: Canvas,
    at: tuple[float, float],
    width: float,
    entries: Entries,
    *,
    rows: int,
    row: float,
    lang: str,
    columns: Columns,
) -> float:
    """A ruled table at `at`: column headers, then `rows` rows of `row` mm, the first filled with the entries'
    names and counts, the rest blank; where it ends. DoesNotFit when the entries are more than its rows."""
    if len(entries) > rows:
        raise DoesNotFit(f"{len(entries)} lines in a table of {rows} rows")
    x, y = at
    count_x = x if columns.count_left else x + width - columns.count_width
    name_x = x + columns.count_width if columns.count_left else x
    name_width = width - columns.count_width
    canvas.box(x, y, width, HEADER_ROW, fill=235, weight=0.2)
    canvas.text(name_x + name_width / 2, y + 3.6, columns.name, 7, role="form", align="C")
    canvas.text(count_x + columns.count_width / 2, y + 3.6, columns.count, 7, role="form", align="C")
    top = y + HEADER_ROW
    size = min(9.0, row / POINT * 0.62)
    for r in range(rows):
        canvas.rule(x, top + (r + 1) * row, x + width, top + (r + 1) * row, weight=0.12)
        if r < len(entries):
            card, n = entries[r]
            baseline = top + r * row + row * 0.74
            canvas.text(name_x + 1.2, baseline, card.name(lang), size, width=name_width - 2.4)
            canvas.text(count_x + columns.count_width / 2, baseline, str(n), size, align="C")
    bottom = top + rows * row
    divider = x + columns.count_width if columns.count_left else x + name_width
    canvas.rule(divider, y, divider, bottom, weight=0.2)
    canvas.box(x, y, width, bottom - y, weight=0.35)
    return bottom


def heading_bar(canvas: Canvas, x: float, y: float, width: float, parts: Sequence[tuple[str, str]]) -> float:
    """A shaded heading 6 mm high (or white on the canvas's bar): its parts in turn, each (role, text), the form's
    words bold, what was typed plain; where it ends."""
    canvas.box(x, y, width, 6.0, fill=canvas.bar or 215, weight=0.35)
    ink = canvas.on_bar(x, y, width, 6.0)
    at = x + 2
    for role, text in parts:
        size = 9.0 if role == "form" else 9.5
        canvas.text(at, y + 4.4, text, size, role=role, bold=role == "form", grey=ink)
        at += canvas.width_of(text, size, role) + (0.6 if role == "form" else 1.0)
    return y + 6.0


Field = tuple[str, str, float]  # a header field's label, its value, and the width of the two


def fields(
    canvas: Canvas, at: tuple[float, float], rows: Sequence[Sequence[Field]], height: float, label_width: float
) -> float:
    """Header fields in ruled boxes: each row a run of cells, the label shaded left of the value; where they end."""
    x0, y = at
    x = x0
    for cells in rows:
        x = x0
        for label, value, width in cells:
            canvas.box(x, y, label_width, height, fill=235, weight=0.2)
            canvas.text(x + 2, y + height * 0.65, label, 7.5, role="form")
            canvas.box(x + label_width, y, width - label_width, height, weight=0.2)
            if value:
                canvas.text(x + label_width + 2, y + height * 0.7, value, 10, width=width - label_width - 4)
            x += width
        y += height
    canvas.box(x0, at[1], x - x0, y - at[1], weight=0.45)
    return y


def foot_row(canvas: Canvas, at: tuple[float, float], width: float, label: str, count: int) -> float:
    """An OCG table's foot: `label` (the form's) right of the name column, the count typed in the count column."""
    x, y = at
    columns = OCG_COLUMNS
    canvas.box(x, y, width, 5.0, weight=0.35)
    divider = x + width - columns.count_width
    canvas.rule(divider, y, divider, y + 5.0, weight=0.2)
    canvas.text(divider - 2, y + 3.6, label, 8, role="form", bold=True, align="R")
    canvas.text(divider + columns.count_width / 2 - 1, y + 3.7, str(count), 9, align="C")
    canvas.text(x + width - 1, y + 3.6, "枚", 6.5, role="form", align="R")
    return y + 5.0


def total_box(canvas: Canvas, at: tuple[float, float], width: float, label: str, count: int) -> float:
    """A ruled box of an OCG total: the form's `label`, the count typed after it in a box, then 枚."""
    x, y = at
    unit = "枚）" if label.endswith("（") else "枚"
    canvas.box(x, y, width, 8.0, weight=0.45)
    canvas.text(x + 2, y + 5.5, label, 9, role="form", bold=True)
    slot = x + 4 + canvas.width_of(label, 9, "form")
    canvas.box(slot, y + 1.2, 14, 5.6, weight=0.2)
    canvas.text(slot + 7, y + 5.6, str(count), 10.5, align="C")
    canvas.text(slot + 16, y + 5.5, unit, 9, role="form")
    return y + 8.0


OCG_TITLES = {
    "monster": "モンスターカード",
    "spell": "魔法カード",
    "trap": "罠カード",
    "extra": "エクストラデッキ",
    "side": "サイドデッキ",
}
OCG_NOTE = (
    "※ カード名は省略せず正式名称で記入し、枚数は算用数字で記入してください。記入漏れのあるレシピは受け付けられません。"
)


def ocg_form(deck: FormDeck, font: Font, variant: int, bar: RGB | None = None) -> Drawn:
    """The OCG デッキレシピ on A4: every other pair of variants in two columns of tables, each heading with its
    count (`モンスターカード（ 17 枚）`), the others in three, each table's foot with its count (`合計 17 枚`)."""
    player, form = deck.player, FORM_FONTS["ja"]
    canvas = Canvas((210.0, 297.0), font, form, player.date, "デッキレシピ", bar=bar)
    canvas.text(105, 14, "遊戯王オフィシャルカードゲーム　デュエルモンスターズ", 8, role="form", align="C")
    canvas.text(105, 23, "デッキレシピ", 20, role="form", bold=True, align="C")
    canvas.box(166, 10, 34, 10, weight=0.3)
    canvas.text(168, 13.5, "受付番号", 6, role="form")
    when = f"{player.date.year}年{player.date.month}月{player.date.day}日"
    rows: list[list[Field]] = [
        [("フリガナ", player.furigana, 110.0), ("CARD GAME ID", player.game_id, 80.0)],
        [("氏名", player.name_ja, 110.0), ("日付", when, 80.0)],
        [("大会名", player.event_ja, 190.0)],
    ]
    top = fields(canvas, (10, 27), rows, 7.5, 24) + 3.5
    two_columns = variant % 2 == 0

    def block(at: tuple[float, float], width: float, kind: str, rows: int, entries: Entries) -> float:
        x, y = at
        title, count = OCG_TITLES[kind], copies(entries)
        heading = (
            [("form", f"{title}（"), ("value", f"{count}"), ("form", "枚）")] if two_columns else [("form", title)]
        )
        y = heading_bar(canvas, x, y, width, heading)
        y = table(canvas, (x, y), width, entries, rows=rows, row=4.7, lang="ja", columns=OCG_COLUMNS)
        return y if two_columns else foot_row(canvas, (x, y), width, "合計", count)

    half = (190 - 4) / 2
    if two_columns:
        left = block((10, top), half, "monster", 25, deck.kind("monster"))
        total_box(canvas, (10, left + 3), half, "メインデッキ合計（", copies(deck.main))
        right = block((10 + half + 4, top), half, "spell", 14, deck.kind("spell"))
        right = block((10 + half + 4, right + 3), half, "trap", 12, deck.kind("trap"))
        bottom = max(left + 11, right) + 3
    else:
        third = (190 - 6) / 3
        ends = [block((10 + k * (third + 3), top), third, kind, 22, deck.kind(kind)) for k, kind in enumerate(KINDS)]
        total_box(canvas, (10 + 2 * (third + 3), max(ends) + 2), third, "メイン合計", copies(deck.main))
        bottom = max(ends) + 13
    block((10, bottom), half, "extra", 15, deck.extra)
    block((10 + half + 4, bottom), half, "side", 15, deck.side)
    canvas.text(10, 291, OCG_NOTE, 7, role="form", width=190)
    return canvas.output(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))


def tcg_form(deck: FormDeck, font: Font, variant: int, bar: RGB | None = None) -> Drawn:
    """The TCG Deck Registration Sheet, on Letter (an even `variant`) or A4 (an odd one)."""
    player, form = deck.player, FORM_FONTS["en"]
    size = (215.9, 279.4) if variant % 2 == 0 else (210.0, 297.0)
    row = 4.6 if variant % 2 == 0 else 5.0  # the taller A4 sheet's rows the taller
    canvas = Canvas(size, font, form, player.date, "Deck Registration Sheet", bar=bar)
    width = size[0] - 20
    middle = size[0] / 2
    canvas.text(middle, 14, "Yu-Gi-Oh! TRADING CARD GAME", 8, role="form", align="C")
    canvas.text(middle, 21.5, "DECK REGISTRATION SHEET", 16, role="form", bold=True, align="C")
    half = width / 2
    rows: list[list[Field]] = [
        [("First Name", player.first, half), ("Last Name", player.last, half)],
        [("CARD GAME ID", player.game_id, half), ("Event Date", f"{player.date:%m/%d/%Y}", half)],
        [("Event Name", player.event_en, half), ("Country of Residence", player.country, half)],
    ]
    top = fields(canvas, (10, 25), rows, 7.0, 31) + 4
    third = (width - 6) / 3
    ends = []
    for k, kind in enumerate(KINDS):
        x = 10 + k * (third + 3)
        title = f"{kind.capitalize()} Cards"
        y = heading_bar(canvas, x, top, third, [("form", title)])
        y = table(canvas, (x, y), third, deck.kind(kind), rows=20, row=row, lang="en", columns=TCG_COLUMNS)
        canvas.box(x, y, third, 6.5, weight=0.35)
        canvas.text(x + 2, y + 4.5, f"Total {title}:", 8, role="form", bold=True)
        canvas.text(x + third - 6, y + 4.7, str(copies(deck.kind(kind))), 10, align="C")
        ends.append(y + 6.5)
    bottom = max(ends) + 4
    for k, (title, entries) in enumerate((("Side Deck", deck.side), ("Extra Deck", deck.extra))):
        x = 10 + k * (third + 3)
        y = heading_bar(canvas, x, bottom, third, [("form", title)])
        table(canvas, (x, y), third, entries, rows=15, row=row, lang="en", columns=TCG_COLUMNS)
    x = 10 + 2 * (third + 3)
    y = bottom
    for label, count in (
        ("Main Deck Total", deck.main),
        ("Side Deck Total", deck.side),
        ("Extra Deck Total", deck.extra),
    ):
        canvas.box(x, y, third, 7.5, weight=0.35)
        canvas.text(x + 2, y + 5, label, 8.5, role="form", bold=True)
        canvas.box(x + third - 14, y + 1, 12, 5.5, weight=0.2)
        canvas.text(x + third - 8, y + 5.2, str(copies(count)), 10, align="C")
        y += 7.5
    y += 5
    official = bottom + 6 + HEADER_ROW + 15 * row - y
    canvas.box(x, y, third, official, weight=0.45)
    canvas.box(x, y, third, 6, fill=bar or 215, weight=0.35)
    ink = canvas.on_bar(x, y, third, 6)
    canvas.text(x + third / 2, y + 4.3, "FOR OFFICIAL USE ONLY", 8.5, role="form", bold=True, align="C", grey=ink)
    for n, label in enumerate(("Deck Check Round:", "Judge Initials:", "Penalty:", "Notes:")):
        canvas.text(x + 2, y + 13 + n * 9, label, 7.5, role="form")
        canvas.rule(
            x + 2 + canvas.width_of(label, 7.5, "form") + 1,
            y + 13.5 + n * 9,
            x + third - 2,
            y + 13.5 + n * 9,
            weight=0.15,
        )
    y = bottom + 6 + HEADER_ROW + 15 * row + 6
    notes = (
        "Type or print clearly. List each card by its full English name, with the number of copies in the Qty column.",
        "The Main Deck holds 40 to 60 cards; the Extra Deck and the Side Deck hold no more than 15 cards each.",
    )
    for n, text in enumerate(notes):
        canvas.text(10, y + n * 3.6, text, 7, role="form", width=width)
    canvas.text(size[0] - 10, size[1] - 8, "Deck Registration Sheet · rev. 2024", 6, role="form", align="R", grey=90)
    truths = (*main_truth(deck), *truth("side", deck.side), *truth("extra", deck.extra))
    return canvas.output(), truths


SITE_WORDS = {
    "en": {
        "main": "Main Deck",
        "monster": "Monster",
        "spell": "Spell",
        "trap": "Trap",
        "extra": "Extra Deck",
        "side": "Side Deck",
        "menu": "Decks     Cards     Events     Sign in",
    },
    "ja": {
        "main": "メインデッキ",
        "monster": "モンスター",
        "spell": "魔法",
        "trap": "罠",
        "extra": "エクストラデッキ",
        "side": "サイドデッキ",
        "menu": "デッキ　カード　大会　ログイン",
    },
}
Item = tuple[str, str]  # what a line of a column is (h1, h2, card or gap) and its text


def flow(
    canvas: Canvas, at: tuple[float, float], items: Sequence[Item], size: float, spacing: float, *, width: float
) -> float:
    """Lines down a column `width` wide from `at`: headings larger and bold (on the canvas's bars where it has
    them), cards plain, gaps half a line; where they end."""
    x, y = at
    line = size * POINT * spacing
    for what, text in items:
        if what == "gap":
            y += line * 0.5
            continue
        scale = {"h1": 1.3, "h2": 1.08, "card": 1.0}[what]
        y += line * (1.25 if what == "h1" else 1.0) * scale
        ink: Colour = 0
        if what != "card" and canvas.bar is not None:
            high = size * scale * POINT
            wide = width if what == "h1" else min(width, canvas.width_of(text, size * scale) + 3 * high)
            ink = canvas.on_bar(x - 1.2, y - high * 1.0, wide + 1.2, high * 1.32)
        canvas.text(x, y, text, size * scale, bold=what != "card", grey=ink)
    return y


def height_of(items: Sequence[Item], size: float, spacing: float) -> float:
    """How tall `flow` sets the items."""
    line = size * POINT * spacing
    units = {"gap": 0.5, "h1": 1.3 * 1.25, "h2": 1.08, "card": 1.0}
    return line * sum(units[what] for what, _ in items)


def site_print(deck: FormDeck, font: Font, variant: int, bar: RGB | None = None) -> Drawn:
    """A deck-builder site's page as a browser prints it on A4 (an even `variant`) or Letter (an odd one), in the
    font's language."""
    lang, player = font.lang, deck.player
    words = SITE_WORDS[lang]
    size = (210.0, 297.0) if variant % 2 == 0 else (215.9, 279.4)
    title = deck.title_ja if lang == "ja" else deck.title_en
    canvas = Canvas(size, font, font, player.date, title, bar=bar)
    width, height = size
    printed = player.date + dt.timedelta(days=2)
    page_title = f"{title} | DeckBuilder"
    canvas.text(8, 7, f"{printed.month}/{printed.day}/{printed:%y}, 10:31 PM", 7, grey=60)
    canvas.text(width / 2, 7, page_title, 7, align="C", grey=60)
    canvas.text(14, 17.5, "DeckBuilder", 14, bold=True)
    canvas.text(width - 14, 17, words["menu"], 8, align="R")
    canvas.rule(14, 20.5, width - 14, 20.5, weight=0.3, grey=120)
    canvas.text(14, 33, title, 18, bold=True, width=width - 28)
    if lang == "ja":
        meta = f"作成者: {player.name_ja}　·　更新日 {player.date:%Y/%m/%d}　·　OCG"
    else:
        updated = f"{player.date:%B} {player.date.day}, {player.date.year}"
        meta = f"by {player.first} {player.last}  ·  Updated {updated}  ·  TCG"
    canvas.text(14, 40, meta, 8.5, grey=80)
    canvas.rule(14, 44, width - 14, 44, weight=0.2, grey=150)

    def card(entries: Entries) -> list[Item]:
        return [("card", f"{n}x {c.name(lang)}") for c, n in entries]

    left: list[Item] = [("h1", f"{words['main']} ({copies(deck.main)})")]
    for kind in KINDS:
        entries = deck.kind(kind)
        if entries:
            left += [("gap", ""), ("h2", f"{words[kind]} ({copies(entries)})"), *card(entries)]
    right: list[Item] = []
    for section, entries in (("extra", deck.extra), ("side", deck.side)):
        if entries:
            right += [("gap", "")] * bool(right) + [("h1", f"{words[section]} ({copies(entries)})"), *card(entries)]
    room = height - 22 - 48
    tallest = max(height_of(left, 1, 1.5), height_of(right, 1, 1.5))
    text_size = min(10.0, room / tallest)
    column = (width - 28 - 10) / 2
    for items, x in ((left, 14.0), (right, 14 + column + 10)):
        for what, text in items:
            if what == "card" and canvas.width_of(text, text_size) > column:
                raise DoesNotFit(f"{text!r} is wider than the column")
        flow(canvas, (x, 48), items, text_size, 1.5, width=column)
    canvas.rule(14, height - 16, width - 14, height - 16, weight=0.2, grey=150)
    address = f"https://www.example-deckbuilder.com/deck/{zlib.crc32(deck.id.encode()) % 900_000 + 100_000}"
    canvas.text(8, height - 8, address, 7, grey=60)
    canvas.text(width / 2, height - 8, f"Printed {printed:%Y-%m-%d}", 7, align="C", grey=60)
    canvas.text(width - 8, height - 8, "Page 1 of 1", 7, align="R", grey=60)
    return canvas.output(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))


BLOG_LINES: tuple[Callable[[str, int], str], ...] = (
    lambda name, n: f"「{name}」×{n}",
    lambda name, n: f"{name} ×{n}",
    lambda name, n: f"・{name} {n}枚",
)
BLOG_KINDS = {"monster": "モンスター", "spell": "魔法", "trap": "罠"}
PROSE_BEFORE = (
    "今回は先日の{event}で使った{title}のデッキレシピを紹介します。構築にあたっては、序盤の安定感と終盤の粘り強さの"
    "バランスを意識しました。",
    "メインデッキはできるだけ初動になるカードを優先して採用しています。サイドデッキは当日多そうなデッキを想定して"
    "組みました。",
)
PROSE_AFTER = (
    "大会では思ったよりも後攻になる場面が多く、サイドデッキからの入れ替えがうまく働きました。細かい調整はまた別の"
    "記事でまとめる予定です。",
    "質問があればコメント欄までお気軽にどうぞ。最後まで読んでいただきありがとうございました。",
)
SIDEBAR_POSTS = (
    "地区予選に参加してきました",
    "新しいパックの開封結果",
    "ショップ大会の参加レポート",
    "デッキケースを新調しました",
)
SIDEBAR_CATEGORIES = ("デッキレシピ", "大会レポート", "開封記録", "雑記")


def _blog_items(deck: FormDeck, variant: int) -> list[Item]:
    """A blog post's list in the `variant`th style of line, every other variant with the main deck's kinds under
    their own headings."""
    line = BLOG_LINES[variant % len(BLOG_LINES)]
    items: list[Item] = []
    for title, entries in (("メインデッキ", deck.main), ("エクストラデッキ", deck.extra), ("サイドデッキ", deck.side)):
        if not entries:
            continue
        items += [("gap", ""), ("h1", f"【{title}】{copies(entries)}枚")]
        if title == "メインデッキ" and variant % 2 == 1:
            for kind in KINDS:
                held = deck.kind(kind)
                if held:
                    items += [("h2", f"▼{BLOG_KINDS[kind]}（{copies(held)}枚）")]
                    items += [("card", line(card.name("ja"), n)) for card, n in held]
            continue
        listed = deck.by_kind() if title == "メインデッキ" else entries
        items += [("card", line(card.name("ja"), n)) for card, n in listed]
    return items


def blog_page(deck: FormDeck, font: Font, variant: int, bar: RGB | None = None) -> Drawn:
    """A Japanese blog post printed on A4: its list's lines in the `variant`th style, every other variant with the
    main deck's kinds under their own headings."""
    player = deck.player
    canvas = Canvas((210.0, 297.0), font, font, player.date, deck.title_ja, bar=bar)
    date = player.date
    canvas.text(12, 19, "遊戯王 デッキ構築ノート", 16, bold=True)
    canvas.text(12, 25.5, "〜 地元のショップ大会で使ったデッキを記録しています 〜", 7.5, grey=80)
    canvas.rule(12, 29, 198, 29, weight=0.4, grey=90)
    canvas.text(12, 34.5, "ホーム　　デッキレシピ　　大会レポート　　プロフィール　　お問い合わせ", 8)
    canvas.rule(12, 37.5, 198, 37.5, weight=0.2, grey=150)
    main_width = 130.0
    canvas.text(12, 45, f"{date.year}年{date.month}月{date.day}日", 8, grey=80)
    canvas.text(12, 53, f"【{player.event_ja}】{deck.title_ja} デッキレシピ", 12.5, bold=True, width=main_width)
    canvas.text(12, 59, f"カテゴリ：デッキレシピ　タグ：{deck.title_ja}", 7.5, grey=80)
    canvas.rule(12, 62, 12 + main_width, 62, weight=0.2, grey=150)
    items = _blog_items(deck, variant)
    before = [p.format(event=player.event_ja, title=deck.title_ja) for p in PROSE_BEFORE]
    # The type as large as lets the post fit (at most 9.5 pt), with all its prose down to 7.5 pt, then with a
    # paragraph before the list and one after it down to 6.5 pt.
    tries = [((*before, *PROSE_AFTER), 9.5 - 0.25 * k) for k in range(9)]
    tries += [((before[0], PROSE_AFTER[0]), 7.5 - 0.25 * k) for k in range(5)]
    for paragraphs, text_size in tries:
        prose = [wrap(canvas, p, main_width, text_size) for p in paragraphs]
        paragraph = text_size * POINT * 1.7
        needed = height_of(items, text_size, 1.35) + sum(len(p) * paragraph + 2 for p in prose) + 4
        if needed <= 297 - 27 - 65:
            break
    else:
        raise DoesNotFit("the list is longer than the post's column")
    y = 65.0
    for n, lines in enumerate(prose):
        if n == len(paragraphs) // 2:
            y = flow(canvas, (12, y), items, text_size, 1.35, width=main_width) + 4
        for text in lines:
            y += paragraph
            canvas.text(12, y, text, text_size)
        y += 2
    _sidebar(canvas, deck, variant)
    canvas.rule(12, 297 - 24, 198, 297 - 24, weight=0.2, grey=150)
    canvas.text(12, 297 - 19, "« 前の記事：地区予選に参加してきました　｜　次の記事：新しいパックの開封結果 »", 7.5)
    canvas.text(105, 297 - 13, "＜ 前へ　 1　2　3　4　5　…　12 　次へ ＞", 8, align="C")
    canvas.text(105, 297 - 8, f"© {date.year} 遊戯王 デッキ構築ノート", 7, align="C", grey=80)
    return canvas.output(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))


def _sidebar(canvas: Canvas, deck: FormDeck, variant: int) -> None:
    """The blog's sidebar: the writer, recent posts, archive months with their posts, categories with theirs."""
    x, width = 150.0, 48.0
    canvas.rule(x - 4, 40, x - 4, 297 - 28, weight=0.15, grey=170)
    date = deck.player.date
    months = [(date.year * 12 + date.month - 1 - k) for k in range(6)]
    sections: list[tuple[str, list[str]]] = [
        ("プロフィール", ["管理人：タロウ", "関東在住のデュエリスト。", "週末はショップ大会に出ています。"]),
        ("最新記事", list(SIDEBAR_POSTS)),
        ("アーカイブ", [f"{m // 12}年{m % 12 + 1}月 ({(variant * 7 + m) % 9 + 2})" for m in months]),
        ("カテゴリー", [f"{name} ({(variant * 5 + 3 * k) % 30 + 4})" for k, name in enumerate(SIDEBAR_CATEGORIES)]),
    ]
    y = 42.0
    for title, lines in sections:
        canvas.box(x, y, width, 6, fill=225, weight=0.1)
        canvas.text(x + 2, y + 4.3, title, 8.5, bold=True)
        y += 6
        for text in lines:
            y += 4.8
            canvas.text(x + 2, y, text, 7.5, width=width - 3)
        y += 7
