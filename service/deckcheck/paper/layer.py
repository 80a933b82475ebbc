"""The text layer of a PDF: a list typed and saved as a PDF, or a form filled in on a computer, holds its words as
text with where each stands, which poppler's pdftotext gives (`-bbox`). Such a page is read from its words, exactly,
with no OCR; a page without text (a scan saved as a PDF) is rasterised and read by OCR as any picture."""

from __future__ import annotations

import html
import re
import time

from deckcheck.paper.ocr import Word
from deckcheck.paper.pages import MAX_PAGES, PAGE_PIXELS, PaperError
from deckcheck.paper.pages import _run as run

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.DOTALL)
_WORD = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>', re.DOTALL)
EXACT = 100.0  # a word of the text layer is what was typed: read with full confidence


def text_words(content: bytes, deadline: float) -> list[list[Word]]:
    """The words of the text layer of each page read (at most MAX_PAGES), in the pixels of the page as
    pages.read_pages rasterises it (its longer side PAGE_PIXELS); a page with no text has no words."""
    if deadline - time.monotonic() <= 0:
        raise PaperError("read_timeout", "the time to read this file ran out", 504)
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
    return pages
