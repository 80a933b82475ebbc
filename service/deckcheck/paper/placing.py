"""A page's entries placed in the deck: each card line in the section of the heading over it (paper/sections.py),
the totals a page prints apart from its headings given to the heading, or the section, they count, and every line
whose section rests on a doubt marked `section_unclear`.

A section is doubtful under a heading once the heading's lines are broken off: by a table's header row or a printed
total below some of them (a new table whose own heading was not read), by a run that looks like a heading but reads
as none (`サノド (14)`), or by a card that belongs in another section (an Extra Deck monster under the main deck's
heading: its heading lost); every line of that heading after the break is unclear. A kind's heading (`モンスター`,
`Spell Cards`) heads part of the section over it, the main deck where none is.

The card lines are given heading by heading, the headings in the order of the deck's sections (main, extra, side)
and in reading order within one, so that a heading's lines, and a section's, follow one another (paper/totals.py
counts them so)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from deckcheck.data import Card
from deckcheck.data.names import loose_key
from deckcheck.formats.text import HEADINGS
from deckcheck.model import SECTIONS, Section
from deckcheck.paper.cardline import Entry
from deckcheck.paper.entries import HeadingRun, PageRows
from deckcheck.paper.lines import Ignored, ReadLine
from deckcheck.paper.rows import Run
from deckcheck.paper.sections import SHARED, place
from deckcheck.paper.totals import of_kind

Box = tuple[int, int, int, int]
BLOCK = 12  # heights of a heading under it in which a column beside it begins a run, for it to bound the heading
GAP = 1.5  # line heights, at most, between two pieces of one table (a rule between them not found)


@dataclass(frozen=True, slots=True)
class Shape:
    """How a page is laid out: where its columns begin, with the tops of the runs that begin them (paper/rows.py),
    its ruled tables (paper/grid.py), and its width, all in its pixels."""

    columns: Sequence[tuple[float, tuple[float, ...]]]
    tables: Sequence[Box]
    width: int


@dataclass(frozen=True, slots=True)
class PageRead:
    """What a page says: its card lines, the lines that name none, its headings, and the section it ends in."""

    lines: list[ReadLine]
    ignored: list[Ignored]
    # Box, text, section, card lines read before it on the page, and the count it carries or a total gives it.
    headings: list[tuple[Box, str, Section, int, int | None]]
    section: Section | None


def box_of(runs: Sequence[Run]) -> Box:
    """The upright box that holds the runs, in the page's pixels."""
    boxes = [run.quad.box for run in runs]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    return left, top, max(b[0] + b[2] for b in boxes) - left, max(b[1] + b[3] for b in boxes) - top


def place_page(read: PageRows, page: int, shape: Shape, flow: Section | None) -> PageRead:
    """The page's entries in their sections; `flow` is the section the page begins in (None before any heading). A
    line in a ruled table takes only a heading over its table, below any other table over it, or none:
    a table whose heading was lost never takes another table's."""
    headings = read.headings
    sections = _heading_sections(headings)
    boxes = [(_reach(h, headings, shape), sections[n]) for n, h in enumerate(headings)]
    top = min((h.run.quad.box[1] for h in headings), default=None)
    header = [e for e in read.entries if flow is None and top is not None and _above(e, top)]
    ordered = sorted(
        (e for e in read.entries if e not in header), key=lambda e: (e.runs[0].quad.centre[1], e.runs[0].quad.centre[0])
    )
    under: dict[int | None, list[tuple[Entry, Section, bool]]] = {}
    for entry in ordered:
        box = box_of(entry.runs)
        placed = place(box, boxes, flow, _ceiling(box, shape.tables))
        section = entry.section_cell or placed.section
        unclear = (placed.unclear and entry.section_cell is None) or _broken(entry, placed.heading, read, headings, box)
        under.setdefault(placed.heading, []).append((entry, section, unclear))
    lines_under: dict[int | None, list[ReadLine]] = {}
    # With no heading read on the page or before it, a card that belongs in no main deck shows that some were lost.
    headless = flow is None and not headings
    headless = headless and any(e.section_cell is None and _elsewhere(_known(e), "main") for e in read.entries)
    for heading, placed_lines in under.items():
        lost = headless
        for entry, section, unclear in placed_lines:
            celled = entry.section_cell is not None  # a column of sections says it: no heading's doubt reaches it
            wrong = not celled and _elsewhere(_known(entry), section)
            lost = lost or (wrong and heading is not None)
            reasons = entry.reasons
            if unclear or wrong or (lost and not celled):
                reasons = (*reasons, "section_unclear")
            lines_under.setdefault(heading, []).append(_line(entry, page, section, reasons))
    printed, whole = _totals(read, headings, boxes, flow)
    ignored = [Ignored(page, run.quad.box, run.text) for run in (*read.ignored, *(r for e in header for r in e.runs))]
    ignored += [Ignored(page, run.quad.box, run.text) for run, _label, _count in read.totals]
    lines, made = _by_heading(lines_under, headings, sections, printed, whole)
    last = _last_section(headings, sections, flow)
    return PageRead(lines, ignored, made, last)


def _ceiling(box: Box, tables: Sequence[Box]) -> int | None:
    """For a line whose middle stands in a ruled table, how high the table's heading may stand: below the foot of
    the nearest other table over it that shares its width (0 where none is), a table less than GAP of the line's
    heights over it being a piece of its own, parted from it by a rule that was not found; None for a line in no
    table."""
    x, y = box[0] + box[2] / 2, box[1] + box[3] / 2
    inside = [t for t in tables if t[0] <= x <= t[0] + t[2] and t[1] <= y <= t[1] + t[3]]
    if not inside:
        return None
    own = min(inside, key=lambda t: t[2] * t[3])
    above = [t for t in tables if t is not own and _shared(t, own) >= SHARED * min(t[2], own[2])]
    top = own[1]
    for table in sorted(above, key=lambda t: -(t[1] + t[3])):  # a piece of its own (a rule lost between) goes with it
        if table[1] < top and top - (table[1] + table[3]) <= GAP * box[3]:
            top = min(top, table[1])
    return max((t[1] + t[3] for t in above if t[1] + t[3] <= top), default=0)


def _shared(one: Box, other: Box) -> int:
    """How much of their width two boxes share."""
    return min(one[0] + one[2], other[0] + other[2]) - max(one[0], other[0])


def _reach(heading: HeadingRun, headings: Sequence[HeadingRun], shape: Shape) -> Box:
    """The width a heading stands over: from a little left of it to the next heading on its row or the start of
    the next column that runs beside what is under it, else to the page's edge (a heading set left of an indented
    list heads it; two tables or two columns side by side each have their own), or as far as the bar it is set on
    runs (a form's main deck over two tables), or the table under it spans."""
    left, top, own, high = heading.run.quad.box
    under = [t for t in shape.tables if t[0] - high <= left <= t[0] + t[2] and -high <= t[1] - (top + high) <= 3 * high]
    if under:
        table = min(under, key=lambda t: t[1])
        return table[0], top, table[2], high
    columns, width = shape.columns, shape.width
    middle = top + high / 2
    beside = [
        h.run.quad.box[0]
        for h in headings
        if h is not heading and h.run.quad.box[0] > left + own / 2 and abs(h.run.quad.centre[1] - middle) <= high / 2
    ]
    below = [start for start, tops in columns if start > left + own and any(0 < t - top < BLOCK * high for t in tops)]
    right = min([*beside, *below, width])
    if heading.run.bar is not None:  # a heading on a bar heads what the bar spans
        right = max(right, min([*beside, heading.run.bar[1]]))
    start = max(0, left - high)
    return start, top, max(own, round(right - start)), high


def _above(entry: Entry, top: int) -> bool:
    """Whether an entry that names no card for sure, or has no count, stands above the page's first heading: the
    page's header (an event's name, a deck's title, an app's icon read as `山`), not a card's line."""
    doubtful = "unknown_card" in entry.reasons or entry.count is None
    return doubtful and entry.runs[0].quad.box[1] + entry.runs[0].quad.box[3] <= top


def _heading_sections(headings: Sequence[HeadingRun]) -> list[Section]:
    """Each heading's section: a section's heading its own; a kind's that of the section heading over it, the main
    deck where none is."""
    opens = [(h.run.quad.box, h.section) for h in headings if not h.of_kind]
    out = []
    for heading in headings:
        if not heading.of_kind:
            out.append(heading.section)
            continue
        placed = place(heading.run.quad.box, opens, None, None)
        out.append(placed.section if placed.heading is not None else "main")
    return out


def _broken(entry: Entry, heading: int | None, read: PageRows, headings: Sequence[HeadingRun], box: Box) -> bool:
    """Whether the entry's section rests on a doubt: between its heading and it stands a table's header row or a
    total below some of that heading's lines, or a run that looks like a heading misread."""
    top = box[1]
    over = headings[heading].run.quad.box if heading is not None else None
    start = over[1] + over[3] if over is not None else -1.0
    lines_above = [
        e.runs[0].quad.centre[1]
        for e in read.entries
        if start < e.runs[0].quad.centre[1] < top and _overlaps(e.runs[0].quad.box, box)
    ]
    if not lines_above:
        return False
    first = min(lines_above)
    return any(_between(run, max(start, first), top, box) for run in read.breaks)


def _between(run: Run, start: float, end: float, box: Box) -> bool:
    middle = run.quad.centre[1]
    return start < middle < end and _overlaps(run.quad.box, box)


def _overlaps(one: Box, other: Box) -> bool:
    return min(one[0] + one[2], other[0] + other[2]) > max(one[0], other[0])


def _known(entry: Entry) -> Card | None:
    """The entry's card, where its name was read as that card's (not a search's guess)."""
    return None if "unknown_card" in entry.reasons else entry.card


def _elsewhere(card: Card | None, section: Section) -> bool:
    """Whether the card belongs in another section than `section`: an Extra Deck monster in the main deck, a main
    deck's card in the Extra Deck (TR 1 エクストラデッキ); the side deck holds either."""
    if card is None or section == "side":
        return False
    return (section == "extra") == (card.extra_deck_type == "none")


def _line(entry: Entry, page: int, section: Section, reasons: tuple[str, ...]) -> ReadLine:
    box = box_of(entry.runs)
    confidence = round(entry.confidence, 1)
    return ReadLine(page, box, entry.text, confidence, section, entry.count, entry.card, reasons, entry.suggestions)


def _totals(
    read: PageRows, headings: Sequence[HeadingRun], boxes: list[tuple[Box, Section]], flow: Section | None
) -> tuple[dict[int, int], dict[Section, tuple[Box, str, int]]]:
    """The totals printed apart: by the heading they count (the one they name, else the one over them), or for a
    whole section they name with no heading of its name."""
    named = [loose_key(h.run.text.rstrip(" ()[]:|枚0123456789")) for h in headings]
    printed: dict[int, int] = {}
    whole: dict[Section, tuple[Box, str, int]] = {}
    for run, label, count in read.totals:
        key, of_section = loose_key(label), _section_named(label)
        at = next((at for at, name in enumerate(named) if key and key in name), None)
        if at is None and of_section is not None:
            whole.setdefault(of_section, (run.quad.box, run.text, count))
        elif (at := place(run.quad.box, boxes, flow, None).heading if at is None else at) is not None:
            printed.setdefault(at, count)
    return printed, whole


def _section_named(label: str) -> Section | None:
    """The section a total's label names (`Main Deck`, `メインデッキ`), None for a kind or nothing."""
    section = HEADINGS.get(" ".join(unicodedata.normalize("NFKC", label).split()).casefold())
    return None if section is None or of_kind(label) else section


def _last_section(headings: Sequence[HeadingRun], sections: list[Section], flow: Section | None) -> Section | None:
    """The section the page ends in: its lowest heading's, else the one it began in."""
    if not headings:
        return flow
    lowest = max(range(len(headings)), key=lambda n: (headings[n].run.quad.centre[1], headings[n].run.quad.centre[0]))
    return sections[lowest]


def _by_heading(
    under: dict[int | None, list[ReadLine]],
    headings: Sequence[HeadingRun],
    sections: list[Section],
    printed: dict[int, int],
    whole: dict[Section, tuple[Box, str, int]],
) -> tuple[list[ReadLine], list[tuple[Box, str, Section, int, int | None]]]:
    """The lines heading by heading, sections in the deck's order, and each heading with the lines before it; a
    section's total printed apart stands first in its section as a heading of its own."""
    ordered = list(under.get(None, []))
    made: list[tuple[Box, str, Section, int, int | None]] = []
    for section in SECTIONS:
        if section in whole:
            box, text, count = whole[section]
            made.append((box, text, section, len(ordered), count))
        for at, heading in enumerate(headings):
            if sections[at] == section:
                made.append((heading.run.quad.box, heading.text, section, len(ordered), printed.get(at, heading.count)))
                ordered += under.get(at, [])
    return ordered, made
