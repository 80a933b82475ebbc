"""A deck read from paper: a photo, a scan, a screenshot or a PDF of a registration sheet or of any list.

A QR code of a ydke:// link, where one is on a page (zxing-cpp), is read first and is exact: the deck is the link's.
Else every page's runs of text are found and read wherever they stand (paper/runs.py: a PDF's text layer, exactly,
or the text detector and recognizer), put in rows (paper/rows.py), read as cards, counts, headings and furniture
(paper/entries.py) and placed in their sections (paper/placing.py), a section carrying on from one page to the next;
the deck holds only the lines read for sure, card, count and section, and every other line waits for staff to
confirm it. The whole read runs within one deadline, its pages and pixels bounded (paper/decoding.py).
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
from deckcheck.errors import PaperUnreadable
from deckcheck.formats.common import DeckFormatError
from deckcheck.formats.ydke import YDKE_PREFIX, ydke_copies
from deckcheck.model import SECTIONS, Deck, Entry, Section
from deckcheck.paper import grid, skew
from deckcheck.paper.decoding import read_pages
from deckcheck.paper.entries import read_rows
from deckcheck.paper.layer import text_words
from deckcheck.paper.lines import Ignored, ReadLine
from deckcheck.paper.placing import PageRead, Shape, place_page
from deckcheck.paper.rows import Run, column_starts, rows
from deckcheck.paper.runs import ocr_runs, text_runs
from deckcheck.paper.totals import Heading, Total, totals

Box = tuple[int, int, int, int]
# Runs of text one page may hold: a form of the largest deck has some 250 with its labels and counts' cells, a dense
# list in small type a few hundred; a page of more is no deck list, and reading it would outlast any budget.
MAX_RUNS = 500


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
        """Whether the deck is the whole deck: nothing makes it `incomplete`."""
        return not self.incomplete

    @property
    def incomplete(self) -> tuple[str, ...]:
        """Why the deck may not be the whole deck: nothing_read (a page of noise or prose), lines_to_review,
        totals_disagree (a line lost altogether, or a heading missed), pages_not_read (a PDF's past MAX_PAGES)."""
        why = {
            "nothing_read": not self.lines,
            "lines_to_review": self.needs_review > 0,
            "totals_disagree": not all(total.agrees for total in self.totals),
            "pages_not_read": self.source != "qr" and self.total_pages > len(self.pages),
        }
        return tuple(reason for reason, holds in why.items() if holds)

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
        runs = text_runs(words, number) if words else ocr_runs(image, number, cards, deadline)
        if len(runs) > MAX_RUNS:
            message = f"page {number} holds {len(runs)} runs of text; a deck list has at most {MAX_RUNS}"
            raise PaperUnreadable("too_many_lines", message)
        page, ruled = read_page(image, number, runs, cards, section)
        cells += [(number, box) for box in ruled]
        headings += [
            Heading(number, box, text, count, len(read) + n, opens) for box, text, opens, n, count in page.headings
        ]
        read += page.lines
        ignored += page.ignored
        section = page.section
    counted = totals(headings, read)
    source: Literal["text", "ocr"] = "text" if sources == {"text"} else "ocr"
    lines = _over(read, counted)
    return Reading(source, sizes, pages.total, lines, tuple(ignored), totals=counted, cells=tuple(cells))


def read_page(
    image: Image.Image, number: int, runs: list[Run], cards: CardIndex, section: Section | None
) -> tuple[PageRead, list[Box]]:
    """A page's runs read into its lines, in its sections, and the cells of its ruled tables: laid out upright
    (paper/skew.py), the boxes then back where they stand in the picture."""
    grey = np.asarray(image.convert("L"))
    turn = skew.turn_for(runs, image.size)
    if turn is not None:
        runs, grey = [turn.run(run) for run in runs], turn.picture(grey)
    found = [run.quad.box for run in runs if run.read.engine != "text"]
    ruled = grid.between(grid.cells(grey), found, [run.quad.box for run in runs if run.read.engine == "text"])
    shape = Shape(column_starts(runs, image.width), grid.tables(ruled), image.width)
    page = place_page(read_rows(rows(runs), cards), number, shape, section)
    if turn is None:
        return page, ruled
    lines = [dataclasses.replace(line, box=line.box and turn.back(line.box)) for line in page.lines]
    ignored = [dataclasses.replace(line, box=turn.back(line.box)) for line in page.ignored]
    headings = [(turn.back(box), text, opens, before, count) for box, text, opens, before, count in page.headings]
    return PageRead(lines, ignored, headings, page.section), [turn.back(box) for box in ruled]


def _sure(lines: list[ReadLine], total: Total) -> int:
    """The copies of the lines under a heading read for sure."""
    return sum(line.count or 0 for line in lines[slice(*total.lines)] if not line.needs_review)


def _over(lines: list[ReadLine], counted: tuple[Total, ...]) -> tuple[ReadLine, ...]:
    """The lines, those under a heading whose count the lines read for sure pass marked for review: lines of
    another section read under it where its own heading was lost (`【サイドデッキ】` misread, the side deck counted as
    extra). A line to review already, such as a count misread (13 for 1), passes no count for the others. A kind's
    heading passed (`罠 8` misread, the traps counted as spells) casts no doubt where its section's total agrees:
    no line of another section is among them."""
    whole = {total.heading.section for total in counted if not total.heading.of_kind and total.agrees}
    over = {
        i
        for total in counted
        if _sure(lines, total) > (total.heading.printed or 0)
        and not (total.heading.of_kind and total.heading.section in whole)  # its section's own total holds
        for i in range(*total.lines)
    }
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
