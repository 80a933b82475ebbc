"""The text layer of a PDF: a list typed and saved as a PDF, or a form filled in on a computer, holds its words as
text with where each stands, which poppler's pdftotext gives (`-bbox`). Such a page is read from its words, exactly,
with no OCR; a page without text (a scan saved as a PDF) is rasterised and read by OCR as any picture. A form filled
in on a computer keeps what was typed into its fields apart from the page's text, which pdftotext gives only as far
as poppler can draw it (a Japanese value saved with no appearance, not at all): those values (paper/fields.py) are
words of the page's text layer too, each where its field stands, in place of whatever text poppler gives there."""

from __future__ import annotations

import html
import re
import time

import numpy as np

from deckcheck.errors import PaperTimedOut
from deckcheck.paper import MAX_PAGES
from deckcheck.paper.decoding import PAGE_PIXELS, run
from deckcheck.paper.fields import Field, field_words
from deckcheck.paper.ocr import Word

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.DOTALL)
_WORD = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>', re.DOTALL)
EXACT = 100.0  # a word of the text layer is what was typed: read with full confidence


def text_words(content: bytes, deadline: float) -> list[list[Word]]:
    """The words of the text layer of each page read (at most MAX_PAGES), and of its filled-in form fields, in the
    pixels of the page as decoding.read_pages rasterises it (its longer side PAGE_PIXELS); a page with no text has no
    words."""
    if deadline - time.monotonic() <= 0:
        raise PaperTimedOut("read_timeout", "the time to read this file ran out")
    argv = ["pdftotext", "-bbox", "-enc", "UTF-8", "-f", "1", "-l", str(MAX_PAGES), "-", "-"]
    out = run(argv, content, deadline).decode("utf-8", "replace")
    pages = []
    for width, height, body in _PAGE.findall(out):
        scale = PAGE_PIXELS / max(float(width), float(height), 1.0)
        words = []
        for x0, y0, x1, y1, text in _WORD.findall(body):
            said = html.unescape(text).strip()
            if said:
                box = [round(float(v) * scale) for v in (x0, y0, x1, y1)]
                words.append(Word(said, box[0], box[1], box[2], box[3], EXACT))
        pages.append(words)
    for number, fields in enumerate(field_words(content, deadline)):
        if number < len(pages) and fields:
            pages[number] = [*_outside(pages[number], fields), *(word for field in fields for word in field.words)]
    return pages


def _outside(words: list[Word], fields: list[Field]) -> list[Word]:
    """The words of the text layer but those of a filled field's value as its appearance shows it, which poppler
    gives as text where it can: the words whose middle the field's box holds, and those right of it on its row that
    go on with its value (a value too long for its field, which poppler writes on past its edge). The field's own
    word, read from its value, stands for them. Each field is one pass over the words."""
    if not words:
        return words
    at = np.array([((w.left + w.right) / 2, (w.top + w.bottom) / 2) for w in words])
    middles, rows = at[:, 0], at[:, 1]
    under = np.zeros(len(words), dtype=bool)
    for field in fields:
        left, top, right, bottom = field.box
        row = (rows >= top) & (rows <= bottom)
        inside = row & (middles >= left) & (middles <= right)
        under |= inside
        if len(field.words) == 1:
            under[_overflow(words, field.words[0].text.split(), np.flatnonzero(inside), row & (middles > right))] = True
    return [word for word, hidden in zip(words, under.tolist(), strict=True) if not hidden]


def _overflow(words: list[Word], value: list[str], shown: np.ndarray, past: np.ndarray) -> list[int]:
    """Of the words `past` a field's right edge (a mask), those that go on with its `value` where the words `shown`
    in it (their numbers) begin it."""
    begun = [words[n].text for n in sorted(shown.tolist(), key=lambda n: words[n].left)]
    if not begun or value[: len(begun)] != begun or len(begun) == len(value):
        return []
    tail, taken = value[len(begun) :], list[int]()
    for n in sorted(np.flatnonzero(past).tolist(), key=lambda n: words[n].left):
        if len(taken) == len(tail) or words[n].text != tail[len(taken)]:
            break
        taken.append(n)
    return taken
