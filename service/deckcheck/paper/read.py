"""A deck read from paper: a photo, a scan or a PDF of a registration sheet or of any printed list.

A QR code of a ydke:// link, where one is on a page (zxing-cpp), is read first and is exact: the deck is the link's.
Else every page's printed lines are read by OCR (paper/ocr.py) and each is matched as paper/lines.py says; the deck
holds only the lines read for sure, and every other line waits for staff to confirm it. The whole read runs within
one deadline, its pages and pixels bounded (paper/pages.py).
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from dataclasses import dataclass
from typing import Literal

import numpy as np
from PIL import Image

from deckcheck.data import CardIndex
from deckcheck.errors import PaperTimedOut, PaperUnavailable, PaperUnreadable
from deckcheck.formats.common import DeckFormatError
from deckcheck.formats.ydke import YDKE_PREFIX, ydke_copies
from deckcheck.model import SECTIONS, Deck, Entry, Section
from deckcheck.paper import ocr
from deckcheck.paper.cells import assemble
from deckcheck.paper.grid import Grid, find
from deckcheck.paper.layer import text_words
from deckcheck.paper.lines import Ignored, ReadLine
from deckcheck.paper.ocr import Prepared, Word
from deckcheck.paper.page import read_lines
from deckcheck.paper.pages import read_pages
from deckcheck.paper.second import Second
from deckcheck.paper.totals import Heading, Total, printed_total, totals

Box = tuple[int, int, int, int]
# Lines of text one page may hold: a sheet of the largest deck a sheet prints has some 130 with its header, a dense
# list in small type a few hundred; a page of more is no deck list, and its second readings would outlast any budget.
MAX_LINES = 400


@dataclass(frozen=True, slots=True)
class Reading:
    """What was read: from a QR code, a PDF's text layer or by OCR, the size of each page read, how many pages the
    file has, every line of the deck, the lines passed over as no card, where the QR code was, the totals printed
    beside the headings or apart from them with the copies read under them, and the cells of a form's tables."""

    source: Literal["qr", "text", "ocr"]
    pages: tuple[tuple[int, int], ...]
    total_pages: int
    lines: tuple[ReadLine, ...]
    ignored: tuple[Ignored, ...] = ()
    qr: tuple[int, Box] | None = None
    link: str | None = None
    totals: tuple[Total, ...] = ()
    cells: tuple[tuple[int, Box], ...] = ()  # the ruled tables' cells: page, box in its pixels

    @property
    def complete(self) -> bool:
        """Whether the deck is the whole deck: some line was read, none needs review, and every total printed agrees
        (a page of noise or prose, with nothing read, is no deck read whole)."""
        return bool(self.lines) and self.needs_review == 0 and all(total.agrees for total in self.totals)

    @property
    def needs_review(self) -> int:
        """How many lines staff must confirm."""
        return sum(line.needs_review for line in self.lines)

    def deck(self) -> Deck:
        """The deck of the lines read for sure: copies added up per card in each section, in the order read."""
        sections: dict[Section, Counter[int]] = {section: Counter() for section in SECTIONS}
        for line in self.lines:
            if not line.needs_review and line.card is not None and line.count is not None:
                sections[line.section][line.passcode or line.card.passcode] += line.count
        return Deck(*(tuple(Entry(code, None, n) for code, n in sections[s].items()) for s in SECTIONS))


def read_paper(content: bytes, cards: CardIndex, seconds: float) -> Reading:
    """The deck on the pages of `content` (PNG, JPEG or PDF), read within `seconds`; PaperError when the file cannot
    be read, or the time runs out."""
    deadline = time.monotonic() + seconds
    pages = read_pages(content, deadline)
    sizes = tuple(image.size for image in pages.images)
    for number, image in enumerate(pages.images, 1):
        found = _link(image)
        if found is not None:
            link, box = found
            lines = _link_lines(link, cards, number)
            return Reading("qr", sizes, pages.total, lines, qr=(number, box), link=link)
    texts = text_words(content, deadline) if pages.kind == "pdf" else []
    read: list[ReadLine] = []
    ignored: list[Ignored] = []
    headings: list[Heading] = []
    section: Section | None = None
    sources = set()
    cells: list[tuple[int, Box]] = []
    for number, image in enumerate(pages.images, 1):
        words = texts[number - 1] if number <= len(texts) else []
        sources.add("text" if words else "ocr")
        prepared, grid, second, page_words = _words(image, words, deadline)
        assembled = assemble(page_words, grid, prepared, second)
        cells += [(number, prepared.to_page(*cell.box)) for cell in grid.cells]
        if len(assembled.lines) > MAX_LINES:
            message = f"page {number} holds {len(assembled.lines)} lines of text; a deck list has at most {MAX_LINES}"
            raise PaperUnreadable("too_many_lines", message)
        page = read_lines(assembled.lines, number, cards, section, second, tables=assembled.tables)
        headings += [
            Heading(number, box, text, printed_total(text) or apart, len(read) + n, opens)
            for box, text, opens, n, apart in page.headings
        ]
        read += page.lines
        ignored += page.ignored + [Ignored(number, line.box, line.text) for line in assembled.stray]
        section = page.section
    counted = totals(headings, read)
    source: Literal["text", "ocr"] = "text" if sources == {"text"} else "ocr"
    lines = _over(read, counted)
    return Reading(source, sizes, pages.total, lines, tuple(ignored), totals=counted, cells=tuple(cells))


def _words(image: Image.Image, words: list[Word], deadline: float) -> tuple[Prepared, Grid, Second, list[Word]]:
    """A page made ready, its grid, its second readings and its words: those of its text layer where it has one
    (exact: no second reading is made), else those OCR reads on it with its rules painted out."""
    if words:
        scale = ocr.WORKING_PIXELS / max(image.size)
        size = (round(image.width * scale), round(image.height * scale))
        prepared = ocr.Prepared(image.resize(size, Image.Resampling.BOX), scale, 0.0)
        grid, _erased = find(np.asarray(prepared.image))
        moved = [Word(w.text, *_scaled((w.left, w.top, w.right, w.bottom), scale), w.confidence) for w in words]
        return prepared, grid, Second(prepared, deadline=0.0), moved
    if not ocr.available():
        raise PaperUnavailable("ocr_unavailable", f"Tesseract's language data ({ocr.LANGUAGES}) are not installed")
    prepared = ocr.prepare(image)
    grid, erased = find(np.asarray(prepared.image))
    prepared = dataclasses.replace(prepared, image=Image.fromarray(erased))
    left = deadline - time.monotonic()
    if left <= 0:
        raise PaperTimedOut("read_timeout", "the time to read this file ran out")
    second = Second(prepared, deadline)
    found = ocr.words(prepared, int(left * 1000))
    return prepared, grid, second, found + second.dropped(found)


def _scaled(box: tuple[int, int, int, int], scale: float) -> tuple[int, int, int, int]:
    left, top, right, bottom = (round(v * scale) for v in box)
    return left, top, right, bottom


def _sure(lines: list[ReadLine], total: Total) -> int:
    """The copies of the lines under a heading read for sure."""
    return sum(line.count or 0 for line in lines[slice(*total.lines)] if not line.needs_review)


def _over(lines: list[ReadLine], counted: tuple[Total, ...]) -> tuple[ReadLine, ...]:
    """The lines, those under a heading whose count the lines read for sure pass marked for review: lines of
    another section read under it where its own heading was lost (`【サイドデッキ】` misread, the side deck counted as
    extra). A line to review already, such as a count misread (13 for 1), passes no count for the others."""
    over = {i for total in counted if _sure(lines, total) > (total.heading.printed or 0) for i in range(*total.lines)}
    return tuple(
        dataclasses.replace(line, reasons=(*line.reasons, "over_total")) if i in over else line
        for i, line in enumerate(lines)
    )


def _link(image: Image.Image) -> tuple[str, Box] | None:
    """The first QR code on the page that holds a ydke link which reads, and its box."""
    import zxingcpp  # noqa: PLC0415 - its native library loads with the first page read

    for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormats([zxingcpp.BarcodeFormat.QRCode])):
        text = code.text.strip()
        if not text.startswith(YDKE_PREFIX):
            continue
        try:
            ydke_copies(text)
        except DeckFormatError:
            continue
        corners = code.position
        xs = [corners.top_left.x, corners.top_right.x, corners.bottom_left.x, corners.bottom_right.x]
        ys = [corners.top_left.y, corners.top_right.y, corners.bottom_left.y, corners.bottom_right.y]
        return text, (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    return None


def _link_lines(link: str, cards: CardIndex, page: int) -> tuple[ReadLine, ...]:
    """The deck of a ydke link as lines, exact: a passcode no card has is a line to review."""
    lines = []
    for section, copies in zip(SECTIONS, ydke_copies(link), strict=True):
        for passcode, count in copies.items():
            card = cards.by_passcode.get(passcode)
            reasons = () if card is not None else ("unknown_card",)
            lines.append(ReadLine(page, None, str(passcode), 100.0, section, count, card, reasons, passcode=passcode))
    return tuple(lines)
