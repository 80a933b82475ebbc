"""A page's lines read together: headings, card lines (paper/lines.py), each in the section of the heading over it
(paper/sections.py), the page's furniture passed over (paper/furniture.py), and the totals it prints apart from its
headings given to the heading, or the section, they count.

The card lines are given heading by heading, the headings in the order of the deck's sections (main, extra, side)
and in reading order within one, so that a heading's lines, and a section's, follow one another (paper/totals.py
counts them so)."""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass

from deckcheck.data import MAX_COPIES, CardIndex
from deckcheck.data.names import loose_key
from deckcheck.formats.text import HEADINGS
from deckcheck.model import SECTIONS, Section
from deckcheck.paper.furniture import furniture, total_line
from deckcheck.paper.lines import (
    COUNT_NOISE,
    SHEET_KEYS,
    Ignored,
    ReadLine,
    card_line,
    count_word,
    recounted,
    said_of,
    second_reading,
)
from deckcheck.paper.ocr import TextLine
from deckcheck.paper.second import Second
from deckcheck.paper.sections import place
from deckcheck.paper.totals import of_kind

Box = tuple[int, int, int, int]
COUNT_SURE = 93.0  # a count read with less confidence is read again by the second reader


@dataclass(frozen=True, slots=True)
class PageRead:
    """What a page says: its card lines, the lines that name none, its headings, and the section it ends in."""

    lines: list[ReadLine]
    ignored: list[Ignored]
    # Box, text, section, card lines read before it on the page, and the count a total printed apart gives it.
    headings: list[tuple[Box, str, Section, int, int | None]]
    section: Section | None


def read_lines(
    lines: list[TextLine],
    page: int,
    cards: CardIndex,
    section: Section | None,
    second: Second,
    *,
    tables: dict[int, int] | None = None,
) -> PageRead:
    """The page's lines read; `section` is the section the page begins in (None before any heading), and the one it
    ends in is the next page's to begin in; `tables` gives, for the lines that are a ruled table's rows (by index),
    where their table begins. Lines above the page's highest heading are its header, whatever the order they are
    read in (a sheet's fields beside its title). An uncertain card line is read a second time."""
    said_lines = []
    for line in lines:
        again = recounted(line, cards, second)
        said_lines.append((again, *said_of(again, cards)))
    heads = [(line.box, said) for line, _text, said in said_lines if isinstance(said, str)]
    header = min((box[1] for box, _said in heads), default=0)
    named = [loose_key(text.rstrip(COUNT_NOISE)) for _line, text, said in said_lines if isinstance(said, str)]
    under: dict[int | None, list[ReadLine]] = {}
    ignored: list[Ignored] = []
    heading_lines: list[tuple[Box, str, Section]] = []
    printed: dict[int, int] = {}
    whole: dict[Section, tuple[Box, str, int]] = {}  # a section's total printed with no heading of its name
    for number, (line, text, said) in enumerate(said_lines):
        if isinstance(said, str):
            section = said
            heading_lines.append((line.box, text, said))
            continue
        placed = place(line.box, heads, section, (tables or {}).get(number))
        total = total_line(text)
        if total is not None:  # `Total Monster Cards: 17`: the count of the heading it names, or of the one over it
            key, of_section = loose_key(total[0]), _section_named(total[0])
            at = next((at for at, name in enumerate(named) if key and key in name), None)
            if at is None and of_section is not None:
                whole.setdefault(of_section, (line.box, text, total[1]))
            elif (at := placed.heading if at is None else at) is not None:
                printed.setdefault(at, total[1])
            ignored.append(Ignored(page, line.box, text))
            continue
        key = loose_key(text)
        card = len(line.words) > 1 and said is not None and cards.find_name(said[1]) is not None  # `3 ７`
        digits = key.isdigit() and not card  # a page's number, `7` among them
        if said is None or not key or digits or key.startswith(SHEET_KEYS):
            ignored.append(Ignored(page, line.box, text))
            continue
        read, score = card_line(line, said, text, cards)
        above = line.box[1] < header or (placed.heading is None and section is None)
        counted = read.count is not None and 1 <= read.count <= MAX_COPIES  # a card's line, its heading misread
        if above and score < 100 and not counted:  # the header: title, fields, player's name
            ignored.append(Ignored(page, line.box, text))
            continue
        if "unknown_card" in read.reasons and furniture(text, score, read.count):
            ignored.append(Ignored(page, line.box, text))
            continue
        if read.needs_review:
            read = second_reading(line, read, cards, second)
        elif not _count_holds(line, read, cards, second):
            read = dataclasses.replace(read, reasons=("count_unclear",))
        unclear = placed.unclear or _elsewhere(read, placed.section)
        reasons = (*read.reasons, "section_unclear") if unclear else read.reasons
        under.setdefault(placed.heading, []).append(
            dataclasses.replace(read, page=page, section=placed.section, reasons=reasons)
        )
    ordered, headings = _by_heading(under, heading_lines, printed, whole)
    return PageRead(ordered, ignored, headings, section)


def _count_holds(line: TextLine, read: ReadLine, cards: CardIndex, second: Second) -> bool:
    """Whether a sure line's count stands: read with confidence COUNT_SURE or more, or read alike by the second
    reader (a faxed `1x` read as `3x` with confidence 84)."""
    if read.count is None:
        return True
    word = count_word(line, read.count)
    return word is None or word.confidence >= COUNT_SURE or second.count_agrees(word, read.count, cards)


def _elsewhere(read: ReadLine, section: Section) -> bool:
    """Whether the card read belongs in another section than the one the heading over it opens: an Extra Deck
    monster under a main deck's heading or a main deck's card under the Extra Deck's (TR 1 エクストラデッキ): most
    often a heading misread, whose lines then stand under the heading before it."""
    if read.card is None or section == "side":
        return False
    return (section == "extra") == (read.card.extra_deck_type == "none")


def _section_named(label: str) -> Section | None:
    """The section a total's label names (`Main Deck`, `メインデッキ`), None for a kind or nothing."""
    section = HEADINGS.get(" ".join(unicodedata.normalize("NFKC", label).split()).casefold())
    return None if section is None or of_kind(label) else section


def _by_heading(
    under: dict[int | None, list[ReadLine]],
    heading_lines: list[tuple[Box, str, Section]],
    printed: dict[int, int],
    whole: dict[Section, tuple[Box, str, int]],
) -> tuple[list[ReadLine], list[tuple[Box, str, Section, int, int | None]]]:
    """The lines heading by heading, sections in the deck's order, and each heading with the lines before it; a
    section's total printed apart stands first in its section as a heading of its own."""
    ordered = list(under.get(None, []))
    headings: list[tuple[Box, str, Section, int, int | None]] = []
    for section in SECTIONS:
        if section in whole:
            box, text, count = whole[section]
            headings.append((box, text, section, len(ordered), count))
        for at, (box, text, opens) in enumerate(heading_lines):
            if opens == section:
                headings.append((box, text, opens, len(ordered), printed.get(at)))
                ordered += under.get(at, [])
    return ordered, headings
