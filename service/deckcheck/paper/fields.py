"""The values typed into a fillable PDF's form fields: Konami's TCG deck registration sheet is such a form, each
card's name and quantity typed into a text field (an AcroForm widget with its /V). pdftotext gives a field's value
only as the field's appearance shows it, and poppler draws a field saved with no appearance in Helvetica: a Japanese
name so drawn, or an appearance whose text cannot be told from its glyphs, leaves the text layer the form's printed
labels and no card.

pypdf reads the values (paper/pypdf_fields.py) in a process of its own, as pdftotext runs: limited in memory and CPU
time as decoding.run limits poppler, at most MAX_ANNOTATIONS annotations looked at, a value's line cut at
MAX_CHARACTERS, and ended once it has taken its SHARE of the time left to read the file (the page is then read
without its fields; never past the request's deadline). Each value is one word over its widget's rectangle (a
multi-line field's one a line, stacked from its top), in the pixels of the page as pdftoppm rasterises it: the PDF's
points from the top left corner of the media box (which need not stand at 0, 0; pdftoppm and pdftotext -bbox take
the media box, not the crop box), turned as the page's /Rotate turns it, scaled so that the page's longer side is
PAGE_PIXELS. A file whose fields cannot be read gives no fields, and its page is read from its text layer or by OCR
as any other.
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass
from typing import Any

from deckcheck.errors import PaperError, PaperTimedOut
from deckcheck.paper import MAX_PAGES
from deckcheck.paper.decoding import PAGE_PIXELS, run
from deckcheck.paper.ocr import Word

MAX_ANNOTATIONS = 2_000  # annotations looked at, all pages together: a TCG sheet has some 180 fields
MAX_CHARACTERS = 200  # of a value's line: the longest card name has some 60
SHARE = 0.5  # of the time left to read the file that the fields may take: the page is read without them after it
EXACT = 100.0  # a value is what was typed: read with full confidence
# What a PDF that has a form or an annotation holds somewhere: its catalog's /AcroForm, a widget's /Subtype, or an
# object stream, in which either may be compressed. A PDF with none of them (fpdf2's, a scanner's) has no field to
# read, and no Python process is started for it.
_MARKS = (b"/AcroForm", b"/Widget", b"/ObjStm")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")  # and lone surrogates, which no JSON answer holds
_FAR = 1e7  # points from the origin past which a number is no coordinate (nor infinite, nor NaN)
Rect = tuple[float, float, float, float]
Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Field:
    """A filled field's widget: its box (left, top, right, bottom in the page's pixels) and its value's words."""

    box: Box
    words: tuple[Word, ...]


def field_words(content: bytes, deadline: float) -> list[list[Field]]:
    """The filled text and choice fields of each page read (at most MAX_PAGES), in the pixels of the page as
    decoding.read_pages rasterises it; no pages where the PDF has no form or its fields cannot be read in time.
    PaperTimedOut when `deadline` passes."""
    if not any(mark in content for mark in _MARKS):
        return []
    argv = [sys.executable, "-m", "deckcheck.paper.pypdf_fields", str(MAX_PAGES), str(MAX_ANNOTATIONS)]
    now = time.monotonic()
    try:
        out = run([*argv, str(MAX_CHARACTERS)], content, now + (deadline - now) * SHARE)
    except PaperError as error:
        if isinstance(error, PaperTimedOut) and time.monotonic() >= deadline:
            raise
        return []  # the reader failed (out of memory, of CPU time or of its share of the time): no fields
    try:
        answer = json.loads(out)
    except (ValueError, RecursionError):
        return []
    pages = answer.get("pages") if isinstance(answer, dict) else None
    return [_page(page) for page in pages[:MAX_PAGES]] if isinstance(pages, list) else []


def _page(page: Any) -> list[Field]:
    """One page's fields as the reader wrote them, anything not as it should be passed over."""
    if not isinstance(page, dict):
        return []
    box, rotate, found = _rect(page.get("box")), page.get("rotate"), page.get("fields")
    if box is None or not isinstance(rotate, int) or not isinstance(found, list):
        return []
    fields: list[Field] = []
    room = MAX_ANNOTATIONS  # words in all, as the reader writes at most
    for field in found[:MAX_ANNOTATIONS]:
        rect = _rect(field.get("rect")) if isinstance(field, dict) else None
        lines = field.get("words") if isinstance(field, dict) else None
        if rect is None or not isinstance(lines, list) or room <= 0:
            continue
        words = []
        for line in lines[:room]:
            if not isinstance(line, list) or len(line) != 5 or not isinstance(line[0], str):
                continue
            text, at = " ".join(_CONTROL.sub(" ", line[0]).split())[:MAX_CHARACTERS], _rect(line[1:])
            if text and at is not None:
                words.append(Word(text, *place(at, box, rotate), EXACT))
        room -= len(lines)
        if words:
            fields.append(Field(place(rect, box, rotate), tuple(words)))
    return fields


def place(rect: Rect, box: Rect, rotate: int) -> Box:
    """`rect` (left, bottom, right, top in the PDF's points) in the pixels of the page of media box `box` and
    /Rotate `rotate` as pdftoppm rasterises it (its longer side PAGE_PIXELS): left, top, right, bottom from the
    page's top left corner as it shows. A /Rotate that is no multiple of 90 is none, as poppler takes it."""
    width, height = box[2] - box[0], box[3] - box[1]
    scale = PAGE_PIXELS / max(width, height, 1.0)
    turn = rotate % 360 if rotate % 90 == 0 else 0
    xs, ys = [], []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[3])):
        u, v = x - box[0], box[3] - y  # from the unturned page's top left corner, down
        shown = {0: (u, v), 90: (height - v, u), 180: (width - u, height - v), 270: (v, width - u)}[turn]
        xs.append(shown[0] * scale)
        ys.append(shown[1] * scale)
    return round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys))


def _rect(value: Any) -> Rect | None:
    """Four numbers within _FAR, None for anything else."""
    if not isinstance(value, list) or len(value) != 4:
        return None
    numbers = [float(v) for v in value if isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < _FAR]
    if len(numbers) != 4:
        return None
    return numbers[0], numbers[1], numbers[2], numbers[3]
