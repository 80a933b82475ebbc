"""A page's runs of text, found and read: on a picture by the text detector (paper/detect.py) and the glyphs it
passes over (paper/glyphs.py), each read by the PP-OCR recognizer (paper/recognise.py) in 8 bits, and again by the
full model where the first reading was unsure of a character (the two read alike most runs, and the 8-bit one in
about half the time); a count read unsurely is read again by Tesseract (paper/ocr.py). On a PDF page with a text
layer, its words are joined into runs as the detector would find them (a gap wider than a word space, a tab
stop's, parts two runs), exact.
"""

from __future__ import annotations

import dataclasses
import re
import statistics
import time
import unicodedata
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from deckcheck.data import CardIndex
from deckcheck.errors import PaperTimedOut
from deckcheck.paper import crop, detect, glyphs, models, ocr, parse, recognise
from deckcheck.paper.detect import upright
from deckcheck.paper.matching import exact_card
from deckcheck.paper.ocr import Word
from deckcheck.paper.recognise import COUNT_SURE, Read
from deckcheck.paper.rows import Run

_NUMBER = re.compile(r"(?<!\d)\d{1,2}(?!\d)")  # a number a count may be
LONG = 32  # heights of a run's crop, at least, in which no card's line is written: a sentence
SETTLED = 90.0  # a run whose every character the 8-bit recognizer read at least this sure is not read again
GLYPH = 0.45  # of a crop's height: how far past where the recognizer saw a digit its glyph may reach
SEEN = 50.0  # sureness, at least, of a digit the full recognizer reads in a number's glyphs alone
AGREES = 60.0  # Tesseract's confidence, at least, in the digits it reads alike
WORD_GAP = 1.0  # heights of a text layer's line: a gap wider than this parts two runs
EXACT = 100.0  # a text layer's character is what was typed


def ocr_runs(image: Image.Image, page: int, cards: CardIndex, deadline: float) -> list[Run]:
    """The runs of text on a picture of a page, each read; PaperTimedOut once `deadline` passes."""
    grey = np.asarray(image.convert("L"))
    pixels = detect.even(grey)
    found = detect.find(pixels, deadline)
    found += glyphs.lone(pixels, found, grey)
    crops = [crop.cut(pixels, quad) for quad in found]
    reads = recognise.ppocr(crops, cards, deadline)
    unsure = [at for at, read in enumerate(reads) if not _settled(read, crops[at], cards)]
    again = recognise.ppocr([crops[at] for at in unsure], cards, deadline, models.RECOGNIZER)
    for at, read in zip(unsure, again, strict=True):
        reads[at] = read
    reads = _counts_confirmed(reads, crops, cards, deadline)
    if time.monotonic() > deadline:
        raise PaperTimedOut("read_timeout", "the time to read this page ran out")
    return [
        Run(page, quad, read, detect.bar(pixels, quad) if parse.heading(read.text) is not None else None)
        for quad, read in zip(found, reads, strict=True)
        if read.text
    ]


def _settled(read: Read, crop: NDArray[np.uint8], cards: CardIndex) -> bool:
    """Whether the 8-bit recognizer's reading of a run needs no second: every character read SETTLED sure, or what it
    says settled without it (a card named exactly, a heading, a count, which Tesseract reads again), or the run too
    long for any card's line (prose, LONG heights and more); never while a number in it has a rival digit."""
    if any(read.rivalled(*found.span()) for found in _NUMBER.finditer(read.text)):
        return False
    if read.confidence >= SETTLED or crop.shape[1] >= LONG * crop.shape[0]:
        return True
    if parse.heading(read.text) is not None or parse.count_alone(read.text) is not None:
        return True
    said = parse.card_text(read.text, cards)
    return said is not None and exact_card(said.name, cards) is not None


def _counts_confirmed(
    reads: list[Read], crops: list[NDArray[np.uint8]], cards: CardIndex, deadline: float
) -> list[Read]:
    """The reads with each number of one or two digits in them (a count, alone or beside a name) sure only where
    two readers read it alike: the full recognizer, reading its glyphs alone (from where the first reading saw
    them; the digits it reads there SEEN sure, a mark such as `枚` glued to them, or half an `x`, apart), and
    either the first reading itself, COUNT_SURE sure with no rival digit, or Tesseract, reading the same glyphs as
    digits with AGREES or more. The 8-bit recognizer takes a handwritten `3` for a `2` now and then, surely; the
    full one, or Tesseract, which shares nothing with either, seldom agrees with it then. A number not so
    confirmed is to confirm (its sureness taken below COUNT_SURE)."""
    found = [
        (at, number.span(), part)
        for at, read in enumerate(reads)
        for number in _NUMBER.finditer(read.text)
        if number.end() <= len(read.places)
        and (part := _glyphs(crops[at], read.places[number.start()], read.places[number.end() - 1])) is not None
    ]
    again = recognise.ppocr([part for _at, _span, part in found], cards, deadline, models.RECOGNIZER)
    sureness = [list(read.sureness) for read in reads]
    numbers = {(at, span) for at, span, _part in found}
    for (at, (start, end), part), second in zip(found, again, strict=True):
        read, digits = reads[at], unicodedata.normalize("NFKC", reads[at].text[start:end])
        first = min(read.sureness[start:end]) >= COUNT_SURE and not read.rivalled(start, end)
        seen = "".join(
            unicodedata.normalize("NFKC", char)
            for char, sure in zip(second.text, second.sureness, strict=False)
            if char.isdigit() and sure >= SEEN
        )
        if seen == digits and (first or _tesseract(part, digits)):
            sureness[at][start:end] = [max(s, COUNT_SURE) for s in sureness[at][start:end]]
        else:
            sureness[at][start:end] = [min(s, COUNT_SURE - 1) for s in sureness[at][start:end]]
    for at, read in enumerate(reads):  # a number whose glyphs could not be told apart is not confirmed
        for number in _NUMBER.finditer(read.text):
            if (at, number.span()) not in numbers:
                sureness[at][number.start() : number.end()] = [
                    min(s, COUNT_SURE - 1) for s in sureness[at][number.start() : number.end()]
                ]
    return [dataclasses.replace(read, sureness=tuple(sure)) for read, sure in zip(reads, sureness, strict=True)]


def _tesseract(part: NDArray[np.uint8], digits: str) -> bool:
    """Whether Tesseract reads `digits` in the glyphs `part` with AGREES or more."""
    again, confidence = ocr.digits(part)
    return again == digits and confidence >= AGREES


def _glyphs(crop: NDArray[np.uint8], first: float, last: float) -> NDArray[np.uint8] | None:
    """The glyphs of a crop that stand from `first` to `last` along it (0 to 1, where the recognizer saw them),
    alone: the runs of inked columns nearest those places, within GLYPH of the crop's height of them (a name's first
    letter set against a count is left out where a blank column parts it), framed in white."""
    height, width = crop.shape
    reach = round(GLYPH * height)
    left, right = round(first * (width - 1)), round(last * (width - 1))
    low, high = max(0, left - reach), min(width, right + reach + 1)
    inked = np.flatnonzero((crop[:, low:high] < 128).any(axis=0)) + low
    if not len(inked):
        return None
    parts = np.split(inked, np.flatnonzero(np.diff(inked) > 1) + 1)
    near = [part for part in parts if part[-1] >= left - reach // 2 and part[0] <= right + reach // 2]
    if not near:
        return None
    pad = height // 3
    return np.pad(crop[:, near[0][0] : near[-1][-1] + 1], ((0, 0), (pad, pad)), constant_values=255)


def text_runs(words: Sequence[Word], page: int) -> list[Run]:
    """The words of a page's text layer joined into runs: a word joins the run on its line that ends at most
    WORD_GAP of its height before it."""
    if not words:
        return []
    height = statistics.median(w.bottom - w.top for w in words)
    runs: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.left, w.top)):
        middle = (word.top + word.bottom) / 2
        run = next(
            (
                r
                for r in runs
                if abs((r[-1].top + r[-1].bottom) / 2 - middle) <= 0.4 * height
                and 0 <= word.left - r[-1].right <= WORD_GAP * max(height, word.bottom - word.top)
            ),
            None,
        )
        if run is None:
            runs.append([word])
        else:
            run.append(word)
    out = []
    for run in runs:
        text = " ".join(w.text for w in run)
        left, top = min(w.left for w in run), min(w.top for w in run)
        quad = upright(left, top, max(w.right for w in run), max(w.bottom for w in run))
        out.append(Run(page, quad, Read(text, (EXACT,) * len(text), "text")))
    return out
