"""A card's line: the run of a card's name, matched to its card (paper/matching.py, paper/rescore.py), with the count
that stands beside it in its own run or its row.

A card's count is the one in its own run (`3 Name`, `Name ×3`); else the count run nearest it in its row on the side
the page prints its counts on (learnt from the rows that hold one card and one count), with no other card between:
a count's cell, a badge or a pill, a count after a tab stop. A count in the name's own run on the side the page
prints no counts on (a speck after a form's name read as `1`) gives way to the count run on the page's side, and is
never sure. A count that stands in a row of its own (a badge centred on a name and the line under it) goes to the
card whose name stands nearest it. A count is sure only where each of its digits was read COUNT_SURE sure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckcheck.data import MAX_COPIES, Card, CardIndex
from deckcheck.data.names import loose_key
from deckcheck.model import Section
from deckcheck.paper import parse, rescore
from deckcheck.paper.furniture import furniture
from deckcheck.paper.matching import HIGH_CONFIDENCE, LOW_CONFIDENCE, match
from deckcheck.paper.recognise import COUNT_SURE, Read
from deckcheck.paper.rows import Run
from deckcheck.paper.words import SHEET_WORDS

SCRAP = 2  # letters at most of a name that names no card: no card's line (`1l 0`: a status bar's icons)


@dataclass(frozen=True, slots=True)
class Entry:
    """A card's line as read: the run of its name, the run of its count where that is another, the card and the
    copies, and what about it needs review."""

    name_run: Run
    count_run: Run | None
    name: str
    count: int | None
    card: Card | None
    reasons: tuple[str, ...]
    suggestions: tuple[Card, ...]
    section_cell: Section | None  # the section a column of sections says for the row

    @property
    def runs(self) -> tuple[Run, ...]:
        """Its runs, left to right."""
        runs = (self.name_run,) if self.count_run is None else (self.name_run, self.count_run)
        return tuple(sorted(runs, key=lambda run: run.quad.centre[0]))

    @property
    def text(self) -> str:
        """What was read, as it stands."""
        return " ".join(run.text for run in self.runs)

    @property
    def confidence(self) -> float:
        """The least sure character's sureness."""
        return min(run.read.confidence for run in self.runs)


@dataclass(frozen=True, slots=True)
class Row:
    """A row's runs, which of them are card runs (by place), its counts standing alone (place: count), and the
    section a column of sections says for it."""

    runs: Sequence[Run]
    cards_at: list[int]
    counts: dict[int, int]
    section_cell: Section | None


def entries(row: Row, side: int, cards: CardIndex) -> tuple[list[Entry], list[Run]]:
    """The row's card runs as entries, each with its count, and the runs that are no card's (furniture, counts no
    card took); `side` is the page's side for counts (-1 left, 1 right, 0 not told)."""
    free = dict(row.counts)
    made: list[Entry] = []
    passed: list[Run] = []
    for number, at in enumerate(row.cards_at):
        count_run, against = None, False
        said = parse.card_text(row.runs[at].text, cards)
        if said is not None and said.count is not None and said.count_at is not None:
            against = side != 0 and (1 if said.count_at[0] >= said.name_at else -1) != side
        if said is not None and (said.count is None or against):
            low = row.cards_at[number - 1] if number > 0 else -1
            high = row.cards_at[number + 1] if number + 1 < len(row.cards_at) else len(row.runs)
            near = [c for c in free if low < c < high and (side == 0 or (c - at) * side > 0)]
            if near:
                chosen = min(near, key=lambda c: abs(c - at))
                del free[chosen]
                count_run = row.runs[chosen]
        entry = entry_of(row.runs[at], count_run, row.section_cell, cards, against=against)
        if entry is None:
            passed.extend(r for r in (row.runs[at], count_run) if r is not None)
        else:
            made.append(entry)
    return made, [*passed, *(row.runs[at] for at in free)]


def entry_of(
    name_run: Run, count_run: Run | None, section_cell: Section | None, cards: CardIndex, *, against: bool = False
) -> Entry | None:
    """A card run (and the run of its count, where that is another) as an entry: its name matched and its count
    judged; None where it names no card and is furniture. A count in the name's run `against` the page's side for
    counts gives way to `count_run`, and is never sure."""
    said = parse.card_text(name_run.text, cards)
    if said is None:
        return None
    read = name_run.read
    card, reasons, others, score = _matched(read, said, cards)
    if reasons:
        again = rescore.variant(read, cards)
        if again is not None:
            read, said = again
            name_run = Run(name_run.page, name_run.quad, read)
            card, reasons, others, score = _matched(read, said, cards)
    if reasons and card is not None:
        likeliest = rescore.likeliest(read, said, [card, *others], cards)
        if likeliest is not None:
            card, reasons, others = likeliest, (), ()
    count, sure = said.count, False
    if count_run is not None:
        count = parse.count_alone(count_run.text)
        sure = _sure(count_run.read.text, count_run.read.sureness)
    elif count is not None and said.count_at is not None:
        start, end = said.count_at
        sure = not against and _sure(read.text[start:end], read.sureness[start:end])
    scrap = len(loose_key(said.name)) <= SCRAP
    if "unknown_card" in reasons and (scrap or furniture(name_run.text, score, count) or _sheet_label(said.name)):
        return None
    clear = count is not None and 1 <= count <= MAX_COPIES and sure
    reasons = (*reasons, *(() if clear else ("count_unclear",)))
    return Entry(name_run, count_run, said.name, count, card, reasons, others, section_cell)


def give_count(run: Run, side: int, made: list[Entry], cards: CardIndex) -> bool:
    """Whether a count that stood in a row of its own went to the card of `made` whose name stands nearest it, on
    the page's side for counts and within a line's height of it (its entry replaced); a count no card takes, or
    two cards about as near, goes to none."""
    x, y = run.quad.centre
    near = []
    for at, entry in enumerate(made):
        nx, ny = entry.name_run.quad.centre
        beside = side == 0 or (x - nx) * side > 0
        if entry.count is None and beside and abs(ny - y) <= entry.name_run.quad.height:
            near.append((abs(ny - y), at))
    near.sort()
    if not near or (len(near) > 1 and near[1][0] - near[0][0] < 0.25 * run.quad.height):
        return False
    at = near[0][1]
    again = entry_of(made[at].name_run, run, made[at].section_cell, cards)
    if again is not None:
        made[at] = again
    return again is not None


def is_card(run: Run, cards: CardIndex) -> bool:
    """Whether the run names a card exactly (a card whose name is also a heading's word stays a card)."""
    said = parse.card_text(run.text, cards)
    return said is not None and match(said.name, cards, 0, 0)[1] == ()


def _sure(text: str, sureness: Sequence[float]) -> bool:
    """Whether the digits of a count were each read with COUNT_SURE or more."""
    digits = [sure for char, sure in zip(text, sureness, strict=False) if char.isdigit()]
    return bool(digits) and min(digits) >= COUNT_SURE


def _matched(
    read: Read, said: parse.CardText, cards: CardIndex
) -> tuple[Card | None, tuple[str, ...], tuple[Card, ...], float]:
    """The card a run's name names (paper/matching.py), its characters read unsurely counted."""
    unsure = read.unsure(LOW_CONFIDENCE, said.name)
    unsure_look = read.unsure(HIGH_CONFIDENCE, said.name)
    return match(said.name, cards, unsure, unsure_look)


def _sheet_label(name: str) -> bool:
    """Whether a name is one of the registration sheet's own words."""
    key = loose_key(name)
    return bool(key) and key.startswith(_SHEET_KEYS)


def _sheet_keys() -> tuple[str, ...]:
    words = [loose_key(word) for lang in SHEET_WORDS.values() for word in lang.labels()]
    return tuple(word for word in (*words, loose_key("ydke"), loose_key("deckcheck")) if word)


_SHEET_KEYS = _sheet_keys()
