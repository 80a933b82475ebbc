"""Deck lists written by hand, as players photograph or scan them: the `notebook` and `blank-form` kinds of
bench/paper_forms.py, drawn with fpdf2 as vector PDFs.

The writing is set in a handwriting face from Debian's archive (Japanese: Klee One, kiloji, AoyagiSoseki; Latin:
DkgHandwriting, Humor Sans, Comic Neue), every glyph drawn on its own as a hand forms it: a few per cent of its size
off its place, turned by up to ±3.5°, 8 % larger or smaller, on a baseline that wanders up and down along the line
and drifts; a pen's weight (a thin stroke round each glyph or none), in blue or black ink. A glyph the face lacks is
written in the next face of its language that has it. A line too long for its room is written smaller, as a hand
squeezes it in.

1. `notebook`: a ruled notebook page (a B5 Japanese notebook of 7 or 6 mm lines, or a US Letter one for a Latin
   hand; faint blue lines, a red margin, `No.` and `Date` printed at the top, a loose-leaf's punched holes on every
   other page). The player writes the deck's name, then each section under a heading of their own (`メイン (40)`,
   `EX 15枚`, `【サイド】15`, `Main 40`, `Side:`, underlined on some pages), on some pages the main deck's kinds under
   their own headings and its total (`計 40`, `Total 40`), one card a line in the page's style (`灰流うらら ×3`,
   `灰流うらら 3枚`, `3x Ash Blossom`, `Ash Blossom x3`, or the count in a column at the right), down the left half
   of the page and on into the right.
2. `blank-form`: a shop's printed blank deck list on A4 (a title, the shop's line, ruled name, date and event
   boxes; the main deck in two ruled tables of 20 rows, the extra and side decks in tables of 15 side by side, each
   under a printed heading with a blank for its count; `枚数 | カード名` or `Qty | Card Name` columns, the count left
   or right of the name by variant; a note at the foot), filled in by hand: the fields, the counts in the headings'
   blanks, a card a row, the writing never quite centred in its cell, the rows after the last card empty and, on
   some forms, a row skipped.
"""

from __future__ import annotations

import logging
import math
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from fpdf.enums import TextMode

from bench.paper_forms_draw import (
    FORM_FONTS,
    JA_FONTS,
    KINDS,
    POINT,
    RGB,
    Canvas,
    DoesNotFit,
    Drawn,
    Entries,
    Font,
    FormDeck,
    copies,
    main_truth,
    truth,
)
from bench.paper_screen import glyphs
from deckcheck.data import Card

logging.getLogger("fontTools").setLevel(logging.ERROR)  # kiloji's and AoyagiSoseki's dates of 1904 aside
_TRUETYPE = Path("/usr/share/fonts/truetype")
HAND_FONTS = {
    "ja": (
        Font("Klee One", _TRUETYPE / "klee/KleeOne-Regular.ttf", "ja"),
        Font("kiloji", _TRUETYPE / "kiloji/kiloji.ttf", "ja"),
        Font("AoyagiSoseki", _TRUETYPE / "aoyagi-soseki/aoyagi-soseki.ttf", "ja"),
    ),
    "en": (
        Font("DkgHandwriting", _TRUETYPE / "fifthhorseman/dkg.ttf", "en"),
        Font("Humor Sans", _TRUETYPE / "humor-sans/Humor-Sans.ttf", "en"),
        Font("Comic Neue", Path("/usr/share/fonts/opentype/comic-neue/ComicNeue-Regular.otf"), "en"),
    ),
}
INKS: tuple[RGB, ...] = ((28, 48, 140), (20, 36, 110), (32, 32, 38), (44, 62, 160))  # blue, navy, black, blue


@cache
def _embeddable(path: Path) -> Path:
    """The face at `path` as fpdf2 can embed it: kiloji's and AoyagiSoseki's files carry a `gasp` table longer than
    it says and a `mort` table, on which fontTools' subsetter fails, and dates before 1970 it warns of; a copy
    without those tables, its dates set, is kept in the system's temporary folder."""
    font = TTFont(path, lazy=True)
    if "mort" not in font:
        return path
    copy = Path(tempfile.gettempdir()) / "deckcheck-bench-fonts" / path.name
    if not copy.exists():
        for tag in ("gasp", "mort"):
            del font[tag]
        font["head"].created = font["head"].modified = 3_600_000_000  # 2018, in seconds from 1904
        copy.parent.mkdir(parents=True, exist_ok=True)
        font.save(str(copy) + ".part")
        Path(str(copy) + ".part").replace(copy)
    return copy


class Hand:
    """A player writing on `canvas` in `font` (falling back on the other hand faces, then on print), in `ink`, with
    a pen of `weight` mm, every glyph jittered by `rng`."""

    def __init__(self, canvas: Canvas, font: Font, ink: RGB, weight: float, rng: random.Random) -> None:
        self.pdf = canvas.pdf
        self.ink, self.weight, self.rng = ink, weight, rng
        self.faces = list(dict.fromkeys([font, *HAND_FONTS[font.lang], *HAND_FONTS["ja"], JA_FONTS[0]]))
        self.added: set[int] = set()

    def _family(self, char: str) -> str:
        """The family of the first face that has `char` (the player's own where none has it), added to the PDF
        when first used."""
        k = next((k for k, face in enumerate(self.faces) if ord(char) in glyphs(face)), 0)
        if k not in self.added:
            self.pdf.add_font(f"hand{k}", fname=str(_embeddable(self.faces[k].path)))
            self.added.add(k)
        return f"hand{k}"

    def width(self, text: str, size: float) -> float:
        """How wide `text` writes at `size` points, jitter aside, in mm."""
        wide = 0.0
        for char in text:
            self.pdf.set_font(self._family(char), size=size)
            wide += self.pdf.get_string_width(char)
        return wide

    def write(self, at: tuple[float, float], text: str, size: float, *, width: float | None = None) -> float:
        """Write `text` from `at` (its baseline) at about `size` points, squeezed into `width` mm where given; where
        it ends."""
        rng = self.rng
        x0, y0 = at
        natural = self.width(text, size)
        squeeze = 1.0
        if width is not None and natural > width:
            size *= max(0.62, width / natural)
            squeeze = min(1.0, width / max(self.width(text, size), 0.01))
        em = size * POINT
        swing, period, phase = em * rng.uniform(0.03, 0.07), rng.uniform(25, 60), rng.uniform(0, 2 * math.pi)
        drift = rng.uniform(-0.012, 0.012)
        x = x0
        for char in text:
            family = self._family(char)
            if char.isspace():
                self.pdf.set_font(family, size=size)
                x += self.pdf.get_string_width(char) * rng.uniform(0.8, 1.3) * squeeze
                continue
            glyph = size * (1 + rng.uniform(-0.08, 0.08))
            self.pdf.set_font(family, size=glyph)
            wide = self.pdf.get_string_width(char)
            base = y0 + swing * math.sin(2 * math.pi * (x - x0) / period + phase) + drift * (x - x0)
            dx, dy = rng.gauss(0, 0.03) * em, rng.gauss(0, 0.03) * em
            with self.pdf.local_context():
                self.pdf.set_text_color(*self.ink)
                if self.weight:
                    self.pdf.set_draw_color(*self.ink)
                    self.pdf.set_line_width(self.weight)
                    self.pdf.text_mode = TextMode.FILL_STROKE
                with self.pdf.rotation(rng.uniform(-3.5, 3.5), x + wide / 2, base - em * 0.35):
                    self.pdf.text(x + dx, base + dy, char)
            x += (wide * rng.uniform(0.94, 1.04) + em * 0.02) * squeeze
        return x

    def underline(self, x0: float, x1: float, y: float) -> None:
        """A line drawn by hand under a heading, wavering a little."""
        points = [(x0 + (x1 - x0) * k / 12, y + self.rng.gauss(0, 0.18)) for k in range(13)]
        with self.pdf.local_context():
            self.pdf.set_draw_color(*self.ink)
            self.pdf.set_line_width(0.3)
            self.pdf.polyline(points)


Line = tuple[str, str, str]  # what a written line is (title, head, kind, card, total, gap), its text, its count's


JA_HEADS = (
    ("メイン ({n})", "EX ({n})", "サイド ({n})"),
    ("メイン {n}枚", "EX {n}枚", "サイド {n}枚"),
    ("【メイン】{n}", "【EX】{n}", "【サイド】{n}"),
    ("メインデッキ {n}", "エクストラ {n}", "サイド {n}"),
)
EN_HEADS = (
    ("Main ({n})", "Extra ({n})", "Side ({n})"),
    ("Main {n}", "Extra {n}", "Side {n}"),
    ("MAIN DECK - {n}", "EXTRA - {n}", "SIDE - {n}"),
    ("Main:", "Extra:", "Side:"),
)
KIND_WORDS = {"ja": ("モンスター", "魔法", "罠"), "en": ("Monsters", "Spells", "Traps")}
JA_CARDS = ("{name} ×{n}", "{name} {n}枚", "{name}|{n}", "{name} x{n}")
EN_CARDS = ("{n}x {name}", "{name} x{n}", "{n} {name}", "{name}|{n}")


def _written(deck: FormDeck, lang: str, variant: int) -> list[Line]:
    """The lines the player writes, in order: the deck's name, then each section's heading and cards."""
    heads = (JA_HEADS if lang == "ja" else EN_HEADS)[variant % 4]
    style = (JA_CARDS if lang == "ja" else EN_CARDS)[(3 * variant + 1) % 4]
    title = deck.title_ja if lang == "ja" else deck.title_en
    lines: list[Line] = [("title", title, "")]

    def cards(entries: Entries) -> None:
        for card, n in entries:
            name, _, count = style.format(name=card.name(lang), n=n).partition("|")
            lines.append(("card", name, count))

    for k, (section, entries) in enumerate((("main", deck.by_kind()), ("extra", deck.extra), ("side", deck.side))):
        if not entries:
            continue
        lines += [("gap", "", ""), ("head", heads[k].format(n=copies(entries)), "")]
        if section == "main" and variant % 3 == 0:
            for word, kind in zip(KIND_WORDS[lang], KINDS, strict=True):
                held = deck.kind(kind)
                if held:
                    lines.append(("kind", f"{word} {copies(held)}" if lang == "ja" else f"{word} ({copies(held)})", ""))
                    cards(held)
        else:
            cards(entries)
        if section == "main" and variant % 4 == 1:
            lines.append(("total", f"計 {copies(entries)}" if lang == "ja" else f"Total {copies(entries)}", ""))
    return lines


def _ink(rng: random.Random) -> tuple[RGB, float]:
    """A pen: its ink and its weight in mm (a fine pen adds none to the face's strokes)."""
    return rng.choice(INKS), rng.choice((0.0, 0.05, 0.1, 0.15))


def notebook(deck: FormDeck, font: Font, variant: int) -> Drawn:
    """The deck written on a ruled notebook page."""
    rng = random.Random(f"notebook {deck.id} {variant}")
    lang = font.lang
    size = (182.0, 257.0) if lang == "ja" else (215.9, 279.4)
    margin = 24.0 if lang == "ja" else 31.75
    canvas = Canvas(size, FORM_FONTS["en"], FORM_FONTS["en"], deck.player.date, "notebook")
    hand = Hand(canvas, font, *_ink(rng), rng)
    lines = _written(deck, lang, variant)
    top, bottom = 22.0, 8.0
    for pitch in ((7.0 if variant % 2 == 0 else 6.0) if lang == "ja" else 7.1, 6.0, 5.5, 5.0):
        rows = int((size[1] - top - bottom) // pitch)
        if _columns(lines, rows) is not None:
            break
    else:
        raise DoesNotFit(f"{len(lines)} lines are more than a notebook page holds")
    _ruled(canvas, size, margin, top=top, pitch=pitch, rows=rows, holes=variant % 2 == 1)
    date = deck.player.date
    for slot, part in zip((52.0, 36.0, 23.0), (f"{date:%y}", date.month, date.day), strict=True):
        hand.write((size[0] - slot + rng.uniform(0, 3), 14.2), str(part), 10)
    mid = margin + (size[0] - margin) / 2
    columns = _columns(lines, rows) or []
    text = pitch * 0.6 / POINT
    for column, chunk in enumerate(columns):
        left = margin + 2.5 if column == 0 else mid + 2
        right = mid - 3 if column == 0 else size[0] - 6
        for row, (what, words, count) in enumerate(chunk):
            y = top + (row + 1) * pitch - pitch * 0.22
            x = left + rng.uniform(-0.6, 1.2) + (3.0 if what == "card" and variant % 3 == 0 else 0.0)
            if what == "gap":
                continue
            if what == "title":
                hand.write((x, y), words, text * 1.15, width=right - x)
                continue
            room = right - x - (9 if count else 0)
            end = hand.write((x, y), words, text * (1.05 if what == "head" else 1.0), width=room)
            if what == "head" and variant // 2 % 2 == 0:
                hand.underline(x - 0.5, end + 1, y + 1.2)
            if count:
                hand.write((right - 6 + rng.uniform(-0.8, 0.8), y), count, text)
    return canvas.output(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))


def _columns(lines: Sequence[Line], rows: int) -> list[list[Line]] | None:
    """The lines down two columns of `rows` each, a gap at the head of a column dropped; None where they do not
    fit."""
    columns: list[list[Line]] = [[]]
    for line in lines:
        if len(columns[-1]) == rows:
            columns.append([])
        if line[0] == "gap" and not columns[-1]:
            continue
        columns[-1].append(line)
    return columns if len(columns) <= 2 else None


def _ruled(
    canvas: Canvas, size: tuple[float, float], margin: float, *, top: float, pitch: float, rows: int, holes: bool
) -> None:
    """A notebook page's printing: `No.` and `Date` at the top, faint blue lines `pitch` apart, a red margin and,
    on a loose leaf, punched holes down the left edge."""
    width, height = size
    blue, red = (150, 185, 222), (226, 120, 120)
    canvas.text(width - 88, 14, "No.", 8, role="form", grey=blue)
    canvas.rule(width - 81, 14.8, width - 62, 14.8, weight=0.2, grey=blue)
    canvas.text(width - 60, 14, "Date", 8, role="form", grey=blue)
    canvas.text(width - 38, 14, ".", 8, role="form", grey=blue)
    canvas.text(width - 26, 14, ".", 8, role="form", grey=blue)
    canvas.rule(width - 52, 14.8, width - 8, 14.8, weight=0.2, grey=blue)
    canvas.rule(0, top, width, top, weight=0.35, grey=blue)
    for row in range(1, rows + 1):
        canvas.rule(0, top + row * pitch, width, top + row * pitch, weight=0.15, grey=blue)
    canvas.rule(margin, 0, margin, height, weight=0.25, grey=red)
    if holes:  # a Japanese B5 leaf's 26 holes 9.5 mm apart, a US leaf's three 108 mm apart
        canvas.pdf.set_fill_color(235)
        canvas.pdf.set_draw_color(200)
        centres = [10 + k * 9.5 for k in range(26)] if width < 200 else [height / 2 + k * 108 for k in (-1, 0, 1)]
        for y in centres:
            canvas.pdf.ellipse(4.5, y - 2.75, 5.5, 5.5, style="DF")


@dataclass(frozen=True, slots=True)
class FormWords:
    """What a blank form prints, in one language."""

    title: str
    shop: str
    fields: tuple[str, str, str]
    sections: tuple[str, str, str]
    columns: tuple[str, str]
    blank: tuple[str, str]
    note: str


FORM_WORDS = {
    "ja": FormWords(
        "デッキリスト",
        "カードショップ ドローゲート　公認大会",
        ("氏名", "日付", "大会名"),
        ("メインデッキ", "エクストラデッキ", "サイドデッキ"),
        ("枚数", "カード名"),
        ("（", "枚）"),
        "※ カード名は正式名称で、枚数は算用数字で記入してください。",
    ),
    "en": FormWords(
        "DECK LIST",
        "Draw Gate Games · Locals Tournament",
        ("Name", "Date", "Event"),
        ("Main Deck", "Extra Deck", "Side Deck"),
        ("Qty", "Card Name"),
        ("(", "cards)"),
        "Please print clearly and use full card names. Main Deck 40-60 cards, Extra and Side up to 15.",
    ),
}


def blank_form(deck: FormDeck, font: Font, variant: int) -> Drawn:
    """A shop's blank deck list filled in by hand."""
    rng = random.Random(f"blank form {deck.id} {variant}")
    lang = font.lang
    words = FORM_WORDS[lang]
    form = FORM_FONTS[lang]
    canvas = Canvas((210.0, 297.0), form, form, deck.player.date, words.title)
    hand = Hand(canvas, font, *_ink(rng), rng)
    canvas.text(105, 17, words.title, 18, role="form", bold=True, align="C")
    canvas.text(105, 23, words.shop, 8, role="form", align="C", grey=70)
    player = deck.player
    values = (
        player.name_ja if lang == "ja" else f"{player.first} {player.last}",
        f"{player.date:%Y/%m/%d}" if lang == "ja" else f"{player.date:%m/%d/%y}",
        player.event_ja if lang == "ja" else player.event_en,
    )
    x = 10.0
    for label, value, wide in zip(words.fields, values, (62.0, 42.0, 86.0), strict=True):
        canvas.box(x, 27, wide, 9, weight=0.3)
        canvas.text(x + 1.5, 30, label, 6.5, role="form", grey=60)
        hand.write((x + rng.uniform(2, 6), 34.6), value, 10.5, width=wide - 8)
        x += wide
    count_left = variant % 2 == 0
    y = 40.0
    main = deck.by_kind()
    if len(main) > 40:
        raise DoesNotFit(f"{len(main)} main deck lines in a form of 40 rows")
    skip = rng.randrange(3, max(4, len(main))) if variant % 3 == 1 else -1
    rows = [*main[:skip], None, *main[skip:]] if skip >= 0 else list(main)
    y = _heading(canvas, hand, (10, y), 190, words=words, k=0, count=copies(main))
    for column in range(2):
        chunk = rows[column * 20 : column * 20 + 20]
        _table(canvas, hand, (10 + column * 96, y), 94, chunk, rows=20, count_left=count_left, lang=lang)
    y += 5 + 20 * 5.8 + 4
    for column, entries in enumerate((deck.extra, deck.side)):
        if len(entries) > 15:
            raise DoesNotFit(f"{len(entries)} lines in a table of 15 rows")
        top = _heading(canvas, hand, (10 + column * 96, y), 94, words=words, k=column + 1, count=copies(entries))
        _table(canvas, hand, (10 + column * 96, top), 94, list(entries), rows=15, count_left=count_left, lang=lang)
    canvas.text(10, 289, words.note, 7, role="form", width=190)
    return canvas.output(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))


def _heading(
    canvas: Canvas, hand: Hand, at: tuple[float, float], width: float, *, words: FormWords, k: int, count: int
) -> float:
    """A section's printed heading with a blank for its count, the count written in; where it ends."""
    x, y = at
    sections, (opening, closing) = words.sections, words.blank
    canvas.box(x, y, width, 7, fill=225, weight=0.3)
    title = f"{sections[k]} {opening}"
    canvas.text(x + 2, y + 5, title, 9.5, role="form", bold=True)
    slot = x + 2 + canvas.width_of(title, 9.5, "form") + 1
    canvas.text(slot + 10, y + 5, closing, 9.5, role="form", bold=True)
    hand.write((slot + hand.rng.uniform(1, 3.5), y + 5.6), str(count), 11)
    return y + 7


def _table(
    canvas: Canvas,
    hand: Hand,
    at: tuple[float, float],
    width: float,
    entries: Sequence[tuple[Card, int] | None],
    *,
    rows: int,
    count_left: bool,
    lang: str,
) -> None:
    """A printed ruled table of `rows` rows with `枚数 | カード名` headers, the entries written in by hand (None a
    row left blank)."""
    x, y = at
    rng = hand.rng
    row, count_width = 5.8, 11.0
    count_x = x if count_left else x + width - count_width
    name_x = x + count_width if count_left else x
    count_words, name_words = FORM_WORDS[lang].columns
    canvas.box(x, y, width, 5, fill=240, weight=0.2)
    canvas.text(count_x + count_width / 2, y + 3.6, count_words, 7, role="form", align="C")
    canvas.text(name_x + (width - count_width) / 2, y + 3.6, name_words, 7, role="form", align="C")
    top = y + 5
    for r in range(rows):
        canvas.rule(x, top + (r + 1) * row, x + width, top + (r + 1) * row, weight=0.12)
        entry = entries[r] if r < len(entries) else None
        if entry is None:
            continue
        card, n = entry
        base = top + (r + 1) * row - rng.uniform(0.9, 1.7)
        hand.write((count_x + count_width / 2 - 1.3 + rng.uniform(-1.6, 1.6), base), str(n), 11)
        start = name_x + rng.uniform(0.8, 4.0)
        hand.write((start, base), card.name(lang), 10.5, width=name_x + width - count_width - start - 1)
    divider = x + count_width if count_left else x + width - count_width
    canvas.rule(divider, y, divider, top + rows * row, weight=0.2)
    canvas.box(x, y, width, 5 + rows * row, weight=0.35)
