"""A page's rows read as a deck list: each run of text is a heading, a card (paper/cardline.py), a count or the
page's furniture.

Runs in a column of row numbers are never counts, and runs in a column of kinds or sections are never cards (a
spreadsheet's `融合` beside a Fusion Monster); a section word in such a column says its row's section. Where the
detector joined such cells to their neighbours (`12 Name`, `1 融合`), numbers that count up before names are flagged
and lines that name only a kind are furniture. A row with
no card whose runs are headings is a heading (several side by side: a form's tables, an app's tabs); `Main Deck` with
its count in a run beside it is one heading. A run (or a run and the count after it) that reads as a printed total
(`Total Monster Cards: 17`) counts the heading it names or the one over it. What is neither is furniture, passed
over, or a card misread, to review. Rows of other shapes (paper/shapes.py) are read as what they are: a name wrapped
onto two lines is one, the line under a name, a bar of words and a table's header are no card's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from deckcheck.data import CardIndex
from deckcheck.model import Section
from deckcheck.paper import cardline, parse, shapes
from deckcheck.paper.cardline import Entry, Row
from deckcheck.paper.furniture import total_line
from deckcheck.paper.matching import exact_card
from deckcheck.paper.rows import Run, counts_up, names_a_type, numbering, typed

TYPES_READ = 3  # runs naming only a kind or a section, at least, for them to be a column of kinds read as lines
_LEADING_COUNT = re.compile(r"^\s*\d{1,2}\s*")


@dataclass(frozen=True, slots=True)
class HeadingRun:
    """A heading as read: its run, the section it opens, whether it heads one kind, and the count it carries."""

    run: Run
    text: str
    section: Section
    of_kind: bool
    count: int | None


@dataclass(slots=True)
class PageRows:
    """What a page's rows say: card entries, headings, totals printed apart (run, what it counts, the count),
    furniture, and table header rows and totals, after which a table's lines are another table's."""

    entries: list[Entry] = field(default_factory=list)
    headings: list[HeadingRun] = field(default_factory=list)
    totals: list[tuple[Run, str, int]] = field(default_factory=list)
    ignored: list[Run] = field(default_factory=list)
    breaks: list[Run] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Page:
    """What the whole page says of its runs (by id): row numbers, cells of kinds or sections, cards' names; and the
    side it prints counts on."""

    numbered: set[int]
    kinds: set[int]
    named: set[int]
    side: int
    cards: CardIndex


def read_rows(rows: Sequence[Sequence[Run]], cards: CardIndex) -> PageRows:
    """The page's rows read."""

    def names(text: str) -> bool:
        said = parse.card_text(text, cards)
        return said is not None and exact_card(said.name, cards) is not None

    rows = shapes.unwrapped(rows, names)
    numbered, kinds = numbering(rows), typed(rows)
    named = {id(run) for row in rows for run in row if cardline.is_card(run, cards)}
    page = _Page(numbered, kinds, named, _count_side(rows, numbered, kinds, named), cards)
    out = PageRows()
    alone: list[Run] = []
    name_runs = [run for row in rows for run in row if id(run) in named]
    for row in rows:
        if not any(id(run) in named for run in row) and all(shapes.under_a_name(run, name_runs) for run in row):
            out.ignored.extend(row)
        elif all(parse.count_alone(run.text) is not None and id(run) not in numbered for run in row):
            alone.extend(row)
        else:
            _read_row(row, page, out)
    out.ignored.extend(run for run in alone if not cardline.give_count(run, page.side, out.entries, cards))
    out.entries = _numbers_in_names(_kinds_read_as_cards(out, rows))
    return out


def _kinds_read_as_cards(out: PageRows, rows: Sequence[Sequence[Run]]) -> list[Entry]:
    """The entries but those read from one run of a count and a word that names only a kind or a section, where
    TYPES_READ of the page's runs name only one, a count before them or none (a spreadsheet's column of kinds read
    with the count beside it, `1 融合`: never the card 融合, whose name in a cell of its own stays a card); their
    runs are furniture."""
    typed_runs = sum(names_a_type(_LEADING_COUNT.sub("", parse.folded(run.text))) for row in rows for run in row)
    if typed_runs < TYPES_READ:
        return out.entries
    kinds = [entry for entry in out.entries if names_a_type(entry.name) and entry.count_run is None and _leads(entry)]
    out.ignored.extend(run for entry in kinds for run in entry.runs)
    return [entry for entry in out.entries if entry not in kinds]


def _numbers_in_names(entries: list[Entry]) -> list[Entry]:
    """The entries, those whose count was read before the name in the name's own run flagged where those numbers go
    up by one down the page most of the way and pass 3: a row's number read with its name is never its count."""
    led = [entry for entry in entries if entry.count is not None and entry.count_run is None and _leads(entry)]
    values = [entry.count for entry in led if entry.count is not None]
    if not counts_up(values):
        return entries
    numbered = {id(entry) for entry in led}
    return [
        replace(entry, reasons=tuple(dict.fromkeys((*entry.reasons, "count_unclear"))))
        if id(entry) in numbered
        else entry
        for entry in entries
    ]


def _leads(entry: Entry) -> bool:
    """Whether an entry's count stands first in its name's run (`12 Name`)."""
    return parse.folded(entry.name_run.text).lstrip().startswith(str(entry.count))


def _read_row(row: Sequence[Run], page: _Page, out: PageRows) -> None:
    """One row read into `out`."""
    if shapes.header_row(row):
        out.ignored.extend(row)
        out.breaks.append(row[0])
        return
    if shapes.menu(row, page.named):
        out.ignored.extend(row)
        return
    parts, headings = _parts(row, page, out)
    alone = headings and not any(id(row[at]) in page.named for at in parts.cards_at)
    if alone and shapes.among_words(row, [at for at, _found in headings], parts.cards_at):  # `ホーム デッキ 検索 設定`
        parts.cards_at.extend(at for at, _found in headings)
        parts.cards_at.sort()
        headings = []
    for at, found in headings:
        count = found.count
        if count is None and at + 1 in parts.counts and not parts.cards_at:  # `Main Deck | 40`
            count = parts.counts.pop(at + 1)
        text = row[at].text if count == found.count else f"{row[at].text} {count}"
        out.headings.append(HeadingRun(row[at], text, found.section, found.of_kind, count))
    made, passed = cardline.entries(parts, page.side, page.cards)
    out.entries.extend(made)
    out.ignored.extend(passed)


def _parts(row: Sequence[Run], page: _Page, out: PageRows) -> tuple[Row, list[tuple[int, parse.Heading]]]:
    """What each run of a row is: a card run, a count, a heading, a total or a cell of a column of kinds (both
    into `out`), or nothing."""
    parts = Row(row, [], {}, None)
    headings: list[tuple[int, parse.Heading]] = []
    section_cell: Section | None = None
    taken: set[int] = set()
    for at, run in enumerate(row):
        found = parse.heading(run.text)
        total = _total(row, at) if at not in taken and id(run) not in page.named else None
        if at in taken:
            continue
        if id(run) in page.numbered or id(run) in page.kinds:
            if id(run) in page.kinds and found is not None and not found.of_kind:
                section_cell = found.section
            out.ignored.append(run)
        elif total is not None:
            out.totals.append((run, total[0], total[1]))
            out.breaks.append(run)
            taken |= total[2]
        elif found is not None and id(run) not in page.named:
            headings.append((at, found))
        elif (alone := parse.count_alone(run.text)) is not None:
            parts.counts[at] = alone
        elif any(char.isalpha() for char in run.text) and not parse.leaders(run.text):
            parts.cards_at.append(at)
        else:
            out.ignored.append(run)
    return Row(row, parts.cards_at, parts.counts, section_cell), headings


def _total(row: Sequence[Run], at: int) -> tuple[str, int, set[int]] | None:
    """A printed total that begins at the row's run `at`: in the run itself (`Total Monster Cards: 17`) or with the
    count in the run after it (`Main Deck Total | 40`), what it counts, its count and the runs it takes."""
    found = total_line(row[at].text)
    if found is not None:
        return found[0], found[1], {at}
    if at + 1 < len(row) and parse.count_alone(row[at + 1].text) is not None:
        found = total_line(f"{row[at].text} {row[at + 1].text}")
        if found is not None:
            return found[0], found[1], {at, at + 1}
    return None


def _count_side(rows: Sequence[Sequence[Run]], numbered: set[int], kinds: set[int], named: set[int]) -> int:
    """The side the page prints counts on, learnt from its rows of one card run and one count run: -1 left,
    1 right, 0 where it cannot be told."""
    votes = 0
    for row in rows:
        counted = [
            at for at, run in enumerate(row) if id(run) not in numbered and parse.count_alone(run.text) is not None
        ]
        lettered = [
            at
            for at, run in enumerate(row)
            if id(run) not in kinds and id(run) not in numbered and any(c.isalpha() for c in run.text)
        ]
        if len(counted) == 1 and len(lettered) == 1 and id(row[lettered[0]]) in named:
            votes += 1 if counted[0] > lettered[0] else -1
    return (votes > 0) - (votes < 0)
