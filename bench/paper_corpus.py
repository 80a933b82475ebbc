"""The pages the paper benchmark (bench/paper.py) reads, made from the project's own code, in memory.

Corpus decks (bench/corpus.py) whose every passcode names a card: their registration sheets from the service
(paper/sheet.py), every other deck's names Japanese and every other's English, rasterised by poppler's pdftoppm at 300
and 150 dpi; the same pages as a phone photographs them (turned up to 7°, a mild perspective, blurred, lit unevenly,
saved as JPEG of quality 50), the same seed giving the same photo; the same pages again with the QR code painted out
(the top-right 60 mm square); and the decks printed as other lists print them, without a QR code (fpdf2, one or two
columns, `3 Name`, `《名前》×3` or `名前 ×3` lines under text-list headings, in IPAGothic or DejaVu Sans).
"""

from __future__ import annotations

import datetime as dt
import io
import math
import random
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count as numbers
from pathlib import Path
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageChops, ImageFilter

from bench.corpus import Corpus
from deckcheck import Data
from deckcheck.data import CardIndex
from deckcheck.formats.ydke import parse_ydke
from deckcheck.model import SECTIONS, Deck, Section
from deckcheck.paper.sheet import Paper, SheetFields, sheet_pdf
from deckcheck.versions import data_version

QR_CORNER_MM = 60.0  # the sheet's QR code stands inside the page's top-right square of this side
MM_PER_INCH = 25.4
DESK = 140  # the grey of the desk around a photographed page
LIST_FONT = Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")  # not the sheet's IPAexGothic
LATIN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
KIND_ORDER = ("monster", "spell", "trap")  # the sheet's order of the main deck's kinds
POINT = 25.4 / 72  # mm a typographic point


class TrueLine(NamedTuple):
    """One printed line of a deck as it truly is: its section, its card's canonical passcode and its copies."""

    section: Section
    passcode: int
    copies: int


@dataclass(frozen=True, slots=True)
class Printed:
    """A deck as it is printed: its corpus id, the deck, the language of its names, and its lines in print order."""

    id: str
    deck: Deck
    lang: str
    lines: tuple[TrueLine, ...]


def _canonical(passcode: int, cards: CardIndex) -> int:
    return cards.by_passcode[passcode].passcode


def _sheet_lines(deck: Deck, cards: CardIndex) -> tuple[TrueLine, ...]:
    """The deck's lines in the sheet's order: the main deck by kind (monsters, spells, traps), the extra deck, the
    side deck, each in the deck's order."""

    def kind(passcode: int) -> int:
        found = cards.by_passcode[passcode].kind
        return KIND_ORDER.index(found) if found in KIND_ORDER else len(KIND_ORDER)

    lines = []
    for section in SECTIONS:
        entries = deck.section(section)
        if section == "main":
            entries = tuple(sorted(entries, key=lambda e: kind(e.passcode or 0)))
        lines += [TrueLine(section, _canonical(e.passcode or 0, cards), e.count) for e in entries]
    return tuple(lines)


def _fields(number: int, lang: str, paper: Paper) -> SheetFields:
    """What a player fills in: nothing on every third sheet, else a name, an ID, the event and its date; and the
    paper."""
    if number % 3 == 0:
        return SheetFields(paper=paper)
    ja = lang == "ja"
    return SheetFields(
        player_name="山田 太郎" if ja else "John Smith",
        player_furigana="ヤマダ タロウ" if ja else None,
        player_id=f"{number:010d}",
        event="第3回 地区予選" if ja else "Regional Qualifier",
        date=dt.date(2008, 6, 1),
        format="ocg",
        paper=paper,
    )


def sheet_decks(data: Data, count: int, skipped: list[str]) -> Iterator[tuple[Printed, bytes]]:
    """`count` corpus decks, each with its registration sheet as a PDF: every other one's names Japanese, the rest
    English, one English sheet in two on Letter paper. A deck holding a passcode no card has (the corpus's
    deliberately unknown one) is passed over, and so is one whose sheet raises, added to `skipped` with why."""
    corpus = Corpus(data)
    version = data_version(data)
    made = 0
    for number in numbers(1):
        if made == count:
            return
        deck = parse_ydke(corpus.deck(number).ydke())
        passcodes = [e.passcode for section in SECTIONS for e in deck.section(section)]
        if any(p is None or p not in data.cards.by_passcode for p in passcodes):
            continue
        lang = "ja" if made % 2 == 0 else "en"
        paper: Paper = "letter" if made % 4 == 3 else "a4"
        try:
            pdf = sheet_pdf(deck, data.cards, lang, _fields(made + 1, lang, paper), version)
        except Exception as error:  # any deck the sheet cannot print is no deck of this corpus
            skipped.append(f"deck-{number:07d}: {type(error).__name__}: {error}")
            continue
        made += 1
        yield Printed(f"deck-{number:07d}", deck, lang, _sheet_lines(deck, data.cards)), pdf


def rasterise(pdf: bytes, dpi: int) -> Image.Image:
    """The first page of `pdf` as a grey image at `dpi`, by `pdftoppm -r DPI -gray -png`."""
    command = ["pdftoppm", "-r", str(dpi), "-gray", "-png", "-singlefile", "-"]
    png = subprocess.run(command, input=pdf, capture_output=True, check=True, timeout=120).stdout
    return Image.open(io.BytesIO(png)).convert("L")


def png(image: Image.Image) -> bytes:
    """The image as PNG."""
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def blank_qr(page: Image.Image, dpi: int) -> Image.Image:
    """The page with its top-right QR_CORNER_MM square painted white."""
    side = round(QR_CORNER_MM / MM_PER_INCH * dpi)
    blanked = page.copy()
    blanked.paste(255, (page.width - side, 0, page.width, side))
    return blanked


def _perspective(output: list[tuple[float, float]], source: list[tuple[float, float]]) -> list[float]:
    """The 8 coefficients of Pillow's PERSPECTIVE transform that take each point of `output` to `source`."""
    rows, values = [], []
    for (x, y), (u, v) in zip(output, source, strict=True):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        values += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows), np.array(values))]


def _light(size: tuple[int, int], rng: random.Random) -> Image.Image:
    """A field of light to multiply a page by, 255 for full light: a gradient across it from a random side (its
    darkest end 25–45% dimmer), a vignette (the corners 10–25% dimmer) and an overall level of 85–100%. Made at an
    eighth of the size and scaled up, as smooth as it is."""
    width, height = max(2, size[0] // 8), max(2, size[1] // 8)
    xs = np.linspace(-1.0, 1.0, width, dtype=np.float32)[None, :]
    ys = np.linspace(-1.0, 1.0, height, dtype=np.float32)[:, None]
    turn = rng.uniform(0, 2 * math.pi)
    along = (xs * math.cos(turn) + ys * math.sin(turn)) / math.sqrt(2)  # -1 to 1 across the page
    gradient = 1 - rng.uniform(0.25, 0.45) * (0.5 + 0.5 * along)
    vignette = 1 - rng.uniform(0.10, 0.25) * (xs**2 + ys**2) / 2
    field = np.clip(255 * gradient * vignette * rng.uniform(0.85, 1.0), 0, 255).astype(np.uint8)
    return Image.fromarray(field, "L").resize(size, Image.Resampling.BILINEAR)


def _photographed(size: tuple[int, int], rng: random.Random) -> tuple[tuple[int, int], list[tuple[float, float]]]:
    """Where a page of `size` stands in a photo: the photo's size, and the page's corners in it (top left, top
    right, bottom right, bottom left), turned by up to 7° either way and each drawn in by up to 3% of the side."""
    width, height = size
    turn = math.radians(rng.uniform(-7.0, 7.0))
    cos, sin = math.cos(turn), math.sin(turn)
    turned = [(x * cos - y * sin, x * sin + y * cos) for x, y in ((0, 0), (width, 0), (width, height), (0, height))]
    left, top = min(x for x, _ in turned), min(y for _, y in turned)
    photo = (math.ceil(max(x for x, _ in turned) - left), math.ceil(max(y for _, y in turned) - top))
    inward = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
    corners = [
        (x - left + dx * rng.uniform(0, 0.03) * photo[0], y - top + dy * rng.uniform(0, 0.03) * photo[1])
        for (x, y), (dx, dy) in zip(turned, inward, strict=True)
    ]
    return photo, corners


def phone_photo(page: Image.Image, seed: int) -> bytes:
    """The page as a phone photographs it, as JPEG of quality 50: on a desk, turned by up to 7° either way, seen
    from a little off square (one perspective transform does both), lit unevenly, and blurred by a Gaussian of
    radius 0.8–1.2 px (at 300 dpi). The same seed gives the same photo."""
    rng = random.Random(seed)
    size, corners = _photographed(page.size, rng)
    width, height = page.size
    source = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    seen = page.transform(
        size, Image.Transform.PERSPECTIVE, _perspective(corners, source), Image.Resampling.BICUBIC, fillcolor=DESK
    )
    photo = ImageChops.multiply(seen, _light(size, rng)).filter(ImageFilter.GaussianBlur(rng.uniform(0.8, 1.2)))
    out = io.BytesIO()
    photo.save(out, "JPEG", quality=50)
    return out.getvalue()


# Other printed lists: how a card line is written, and how a heading (its title and the section's card count).
LineStyle = Callable[[int, str], str]
LINE_STYLES: dict[str, LineStyle] = {
    "3 Name": lambda n, name: f"{n} {name}",
    "《Name》×3": lambda n, name: f"《{name}》×{n}",
    "Name ×3": lambda n, name: f"{name} ×{n}",
    "Name x3": lambda n, name: f"{name} x{n}",
}
HeadingStyle = Callable[[str, int], str]
HEADING_STYLES: dict[str, HeadingStyle] = {
    "Title (40)": lambda title, n: f"{title} ({n})",
    "Title": lambda title, n: title,
    "【Title】（40枚）": lambda title, n: f"【{title}】（{n}枚）",
}
TITLES = {
    "ja": ("デッキリスト", {"main": "メインデッキ", "extra": "エクストラデッキ", "side": "サイドデッキ"}),
    "en": ("Deck List", {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """How another list is printed: in one or two columns, names in `lang`, its line and heading styles."""

    columns: int
    lang: str
    line: str
    heading: str

    @property
    def font(self) -> Path:
        """IPAGothic for Japanese; DejaVu Sans (where installed) for English."""
        return LATIN_FONT if self.lang == "en" and LATIN_FONT.is_file() else LIST_FONT

    def __str__(self) -> str:
        return f"{self.columns} col, {self.lang}, `{self.line}`, `{self.heading}`"


_STYLES = [("ja", "3 Name"), ("ja", "《Name》×3"), ("ja", "Name ×3"), ("en", "3 Name"), ("en", "Name x3")]
_HEADINGS = {"ja": ("Title (40)", "Title", "【Title】（40枚）"), "en": ("Title (40)", "Title")}


def layout(number: int) -> Layout:
    """The layout of the `number`th other list (from 0): one and two columns in turn, the languages and line
    styles in turn, and each language's heading styles in turn over those."""
    lang, line = _STYLES[number % len(_STYLES)]
    headings = _HEADINGS[lang]
    return Layout(1 + number % 2, lang, line, headings[(number // len(_STYLES)) % len(headings)])


def list_pdf(deck: Deck, cards: CardIndex, how: Layout) -> tuple[bytes, tuple[TrueLine, ...]]:
    """The deck printed as a list of `how`'s layout on A4, without a QR code: a title, then each section that has
    cards under its heading, in the deck's order, a blank line between sections, filled down the first column and
    on into the second; the type as large as fits (at most 11 pt). With the true lines in print order."""
    from fpdf import FPDF  # noqa: PLC0415 - as in paper/sheet.py

    title, headings = TITLES[how.lang]
    printed: list[str] = []
    lines: list[TrueLine] = []
    for section in SECTIONS:
        entries = deck.section(section)
        if not entries:
            continue
        if printed:
            printed.append("")
        printed.append(HEADING_STYLES[how.heading](headings[section], sum(e.count for e in entries)))
        for entry in entries:
            card = cards.by_passcode[entry.passcode or 0]
            printed.append(LINE_STYLES[how.line](entry.count, card.name(how.lang)))
            lines.append(TrueLine(section, card.passcode, entry.count))
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(auto=False)
    pdf.add_font("List", fname=str(how.font))
    pdf.add_page()
    margin, gap, top = 15.0, 10.0, 32.0
    pdf.set_font("List", size=16)
    pdf.text(margin, margin + 6, title)
    rows = math.ceil(len(printed) / how.columns)
    width = (210 - 2 * margin - gap * (how.columns - 1)) / how.columns
    pdf.set_font("List", size=10)
    widest = max(pdf.get_string_width(text) for text in printed)
    size = min(11.0, (297 - margin - top) / rows / 1.45 / POINT, 10 * width / widest)
    pdf.set_font("List", size=size)
    for at, text in enumerate(printed):
        column, row = divmod(at, rows)
        pdf.text(margin + column * (width + gap), top + (row + 1) * size * POINT * 1.45, text)
    return bytes(pdf.output()), tuple(lines)
