"""Printed lines read by Tesseract (through tesserocr), with where each stands on the page and how sure it is.

A page is first made easy to read: scaled so that its longer side is about WORKING_PIXELS (a 150 dpi scan is
doubled, a large photo halved), its light evened out (divided by its own blurred background, so a shadow across a
photo thresholds like the rest), and turned upright by the angle at which its rows of ink line up best (a phone held
7° off). Tesseract then finds the words, and the lines its layout analysis passed over are read again one by one
(paper/second.py, paper/bands.py); the words are joined into lines here, by the rows they share and the gaps
between them, rather than by Tesseract's blocks, which split a column of counts from its names and join two
columns of cards into one line. Boxes are given back in the page's own pixels.

Tesseract's Japanese and English models come from Debian's tesseract-ocr-jpn and tesseract-ocr-eng (TESSDATA); one
engine is kept per thread, since one is slow to start.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageFilter

from deckcheck.errors import PaperTimedOut

TESSDATA = Path(os.environ.get("TESSDATA_PREFIX", "/usr/share/tesseract-ocr/5/tessdata"))
# Tesseract's Japanese model alone: it reads the Latin letters of English names as well as the English model does,
# where jpn+eng took some Japanese words for Latin ones (`1 BAEK` for 1 阿修羅) and cost more time
# (docs/benchmarks.md, Reading paper: the registration sheet).
LANGUAGES = "jpn"
DIGITS_LANGUAGE = "eng"  # a count read again, as digits alone
WORKING_PIXELS = 3150  # the longer side of a page as read: text of a sheet's smallest type stays about 28 px high
EVEN_ENOUGH = 24  # grey levels across a page's background below which its light is left as it is
MAX_SKEW = 8.0  # degrees a page may be turned and still be set upright
MIN_ROWS = 8  # rows of the small copy a page's skew is measured on, at least
LINE_GAP = 2.2  # a gap wider than this many line heights starts a new line: the gutter between two columns
LINE_BAND = 0.4  # a word whose middle is further than this many line heights from a line's is on another line
_engines = threading.local()


@dataclass(frozen=True, slots=True)
class Word:
    """One word as Tesseract read it, its box in the working image, and its confidence (0 to 100)."""

    text: str
    left: int
    top: int
    right: int
    bottom: int
    confidence: float


@dataclass(frozen=True, slots=True)
class TextLine:
    """One printed line: its words, and its box (left, top, width, height) in the page's own pixels."""

    words: tuple[Word, ...]
    box: tuple[int, int, int, int]

    @property
    def text(self) -> str:
        """The line's words, a space between each."""
        return " ".join(word.text for word in self.words)

    @property
    def confidence(self) -> float:
        """The least sure word's confidence: a line is as sure as its weakest word."""
        return min(word.confidence for word in self.words)


def available() -> bool:
    """Whether Tesseract's language data are installed."""
    return all((TESSDATA / f"{lang}.traineddata").is_file() for lang in (*LANGUAGES.split("+"), DIGITS_LANGUAGE))


def engine(kind: str) -> Any:
    """This thread's Tesseract for `kind`: "page" (layout found, the Japanese model), "jpn" or "eng" (one line),
    "digits" (one word, digits alone)."""
    import tesserocr  # noqa: PLC0415 - loads Tesseract itself: only a server that reads paper pays for it

    api = getattr(_engines, kind, None)
    if api is None:
        lang, psm = {
            "page": (LANGUAGES, tesserocr.PSM.AUTO),
            "jpn": ("jpn", tesserocr.PSM.SINGLE_LINE),
            "eng": ("eng", tesserocr.PSM.SINGLE_LINE),
            "digits": (DIGITS_LANGUAGE, tesserocr.PSM.SINGLE_LINE),  # as one word, a lone 1 is read as nothing
        }[kind]
        api = tesserocr.PyTessBaseAPI(path=str(TESSDATA), lang=lang, psm=psm, oem=tesserocr.OEM.LSTM_ONLY)
        if kind == "digits":
            api.SetVariable("tessedit_char_whitelist", "0123456789")
        setattr(_engines, kind, api)
    return api


def read_words(api: Any, offset: tuple[int, int] = (0, 0)) -> list[Word]:
    """The words Tesseract read on its image, their boxes moved by `offset` (where a crop stood on the page)."""
    import tesserocr  # noqa: PLC0415

    found: list[Word] = []
    level = tesserocr.RIL.WORD
    iterator = api.GetIterator()  # None on a page with no text
    for word in tesserocr.iterate_level(iterator, level) if iterator is not None else ():
        try:
            text = (word.GetUTF8Text(level) or "").strip()
        except RuntimeError:  # "No text returned": an empty page's one empty element
            continue
        box = word.BoundingBox(level)
        if text and box is not None:
            left, top, right, bottom = box
            x, y = offset
            found.append(Word(text, left + x, top + y, right + x, bottom + y, float(word.Confidence(level))))
    api.Clear()
    return found


@dataclass(frozen=True, slots=True)
class Prepared:
    """A page made ready for Tesseract, and how to map its pixels back: scaled by `scale`, then turned by `angle`
    degrees about its centre."""

    image: Image.Image
    scale: float
    angle: float

    def to_page(self, left: int, top: int, right: int, bottom: int) -> tuple[int, int, int, int]:
        """A box of the prepared image as (left, top, width, height) in the page's own pixels."""
        cx, cy = self.image.width / 2, self.image.height / 2
        turn = math.radians(self.angle)
        cos, sin = math.cos(turn), math.sin(turn)
        xs, ys = [], []
        for x, y in ((left, top), (right, top), (left, bottom), (right, bottom)):
            dx, dy = x - cx, y - cy  # Pillow turns counter-clockwise; undo it
            xs.append((cx + dx * cos - dy * sin) / self.scale)
            ys.append((cy + dx * sin + dy * cos) / self.scale)
        x0, y0 = round(min(xs)), round(min(ys))
        return x0, y0, round(max(xs)) - x0, round(max(ys)) - y0


def prepare(page: Image.Image) -> Prepared:
    """The page scaled, evened out and set upright."""
    # Always resampled, even a scan of about the working size: Tesseract reads a page smoothed by resampling both
    # better and faster than a sharp 300 dpi raster. Larger working sizes read a few more lines of 300 dpi sheets
    # right, more slowly, but at 4200 px a 200 dpi sheet's side-deck heading went unread: 3150 px stays until both
    # hold (docs/benchmarks.md, Reading paper: the registration sheet).
    scale = WORKING_PIXELS / max(page.size)
    size = (max(1, round(page.width * scale)), max(1, round(page.height * scale)))  # a strip 6300:1 keeps a row
    scaled = page.resize(size, Image.Resampling.BICUBIC)
    even = _even_light(scaled)
    angle = _skew(even)
    upright = even.rotate(angle, Image.Resampling.BICUBIC, fillcolor=255) if angle else even
    return Prepared(upright, scale, angle)


def _even_light(image: Image.Image) -> Image.Image:
    """The image divided by its background (a heavy blur of a small copy, in which text vanishes)."""
    small = image.resize((max(1, image.width // 16), max(1, image.height // 16)), Image.Resampling.BOX)
    background = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(4))
    levels = np.asarray(background)
    if int(levels.max()) - int(levels.min()) < EVEN_ENOUGH:  # a scan or a rendered page: nothing to even out
        return image
    light = np.asarray(background.resize(image.size, Image.Resampling.BILINEAR), dtype=np.uint16)
    pixels = np.asarray(image, dtype=np.uint16)
    return Image.fromarray(np.minimum(pixels * 255 // np.maximum(light, 1), 255).astype(np.uint8))


def _skew(image: Image.Image) -> float:
    """The angle (degrees) that sets the page's rows of ink level: the one whose row sums vary the most, searched
    by whole degrees, then tenths, on a small copy."""
    small = image.resize((max(1, image.width // 4), max(1, image.height // 4)), Image.Resampling.BOX)
    if small.height < MIN_ROWS:  # a strip: no rows to line up
        return 0.0
    ink = small.point(lambda v: 255 if v < 160 else 0)

    def sharpness(angle: float) -> tuple[float, float]:
        rows = np.asarray(ink.rotate(angle, Image.Resampling.NEAREST), dtype=np.float32).sum(axis=1)
        return float(np.var(np.diff(rows))), -abs(angle)  # on a tie (a blank page) the angle nearest upright

    best = max(range(-int(MAX_SKEW), int(MAX_SKEW) + 1), key=sharpness)
    fine = max((best + tenth / 10 for tenth in range(-9, 10)), key=sharpness)
    return round(fine, 1) if abs(fine) >= 0.2 else 0.0


def words(prepared: Prepared, timeout_ms: int) -> list[Word]:
    """Every word Tesseract reads on the prepared page; PaperTimedOut when it took longer."""
    api = engine("page")
    api.SetImage(prepared.image)
    if not api.Recognize(timeout=max(1, timeout_ms)):
        api.Clear()
        raise PaperTimedOut("read_timeout", "the time to read this page ran out")
    return read_words(api)


def lines(found: list[Word], prepared: Prepared) -> list[TextLine]:
    """The words joined into lines, left to right: a word joins the line that ends at most LINE_GAP of its height
    before it and whose middle its own middle is nearest to, within LINE_BAND of the line's height, so two columns
    side by side stay two lines and lines set close stay apart. In reading order: column by column (`reading_order`),
    top to bottom in each."""
    open_lines: list[list[Word]] = []
    for word in sorted(found, key=lambda w: w.left):
        middle = (word.top + word.bottom) / 2
        best, best_offset = None, 0.0
        for line in open_lines:
            # The line's height is its tallest word's: ー and ・ are words a few pixels high, centred on the line.
            tall = max(w.bottom - w.top for w in line)
            centre = sorted((w.top + w.bottom) / 2 for w in line)[len(line) // 2]
            gap = word.left - max(w.right for w in line)  # below 0 where Tesseract's boxes overlap
            offset = abs(middle - centre)
            near = gap <= LINE_GAP * max(tall, word.bottom - word.top) and offset <= LINE_BAND * tall
            if near and (best is None or offset < best_offset):
                best, best_offset = line, offset
        if best is None:
            open_lines.append([word])
        else:
            best.append(word)
    made = [TextLine(tuple(ws), box_of(ws, prepared)) for ws in open_lines]
    return reading_order(made, prepared.image.width / prepared.scale)


def box_of(ws: Sequence[Word], prepared: Prepared) -> tuple[int, int, int, int]:
    """The box of words of the prepared page, in the page's own pixels."""
    return prepared.to_page(
        min(w.left for w in ws), min(w.top for w in ws), max(w.right for w in ws), max(w.bottom for w in ws)
    )


def reading_order(made: list[TextLine], width: float) -> list[TextLine]:
    """Lines column by column, then top to bottom. A column starts at a left edge that at least three lines start
    at (within a fortieth of the page's width), at least a fifth of the page right of the column before, and that
    fewer lines cross than start there: the gutter of a two-column list, which a title or a footer may cross."""
    if not made:
        return made
    near = width / 40
    starts: list[float] = []
    for left in sorted(line.box[0] for line in made):
        starting = sum(abs(line.box[0] - left) <= near for line in made)
        crossing = sum(line.box[0] < left - near < left + near < line.box[0] + line.box[2] for line in made)
        if starting >= 3 and crossing < starting and (not starts or left - starts[-1] > width / 5):
            starts.append(left)

    def column(line: TextLine) -> int:
        return sum(1 for start in starts[1:] if line.box[0] >= start - near)

    return sorted(made, key=lambda line: (column(line), line.box[1]))
