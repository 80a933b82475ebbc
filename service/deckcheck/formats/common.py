"""What every deck format shares: the limits on a source, errors that name their line, and collecting entries.

Parsers never drop a line silently: every line that is not a card, a heading, a comment or blank is an error with
its line number. Entries keep the lines they came from, so a violation can point at the exact line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckcheck.data import Card, CardIndex
from deckcheck.errors import InvalidInput
from deckcheck.model import SECTIONS, Deck, Entry, Section

MAX_LINES = 2000
MAX_LINE_LENGTH = 500


@dataclass(frozen=True, slots=True)
class FormatError:
    """One line (or part) that cannot be read."""

    msg: str
    type: str
    line: int | None = None
    column: int | None = None
    part: str | None = None


class DeckFormatError(InvalidInput):
    """The input cannot be read as a deck; `problems` lists every problem found."""

    def __init__(self, problems: list[FormatError]) -> None:
        super().__init__("; ".join(e.msg for e in problems))
        self.problems = problems


class Builder:
    """Collects entries per section, merging consecutive copies of the same card into one entry."""

    def __init__(self) -> None:
        # Per section: [passcode, name, count, lines] rows, made into Entries once at the end.
        self.rows: dict[Section, list[list[Any]]] = {section: [] for section in SECTIONS}

    def add(self, section: Section, passcode: int | None, name: str | None, count: int, line: int | None) -> None:
        """One card line, or more copies of the card the last line of `section` names."""
        rows = self.rows[section]
        last = rows[-1] if rows else None
        if last is not None and passcode is not None and last[0] == passcode and last[1] == name:
            last[2] += count
        else:
            last = [passcode, name, count, []]
            rows.append(last)
        if line is not None:
            last[3].append(line)

    def deck(self) -> Deck:
        """The deck collected so far."""

        def entries(section: Section) -> tuple[Entry, ...]:
            return tuple(Entry(p, n, c, lines=tuple(lines)) for p, n, c, lines in self.rows[section])

        return Deck(entries("main"), entries("extra"), entries("side"))


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines (from 1), refusing inputs with too many or too long lines."""
    lines = text.removeprefix("\ufeff").splitlines()
    errors = (
        [FormatError(f"more than {MAX_LINES} lines", "too_many_lines", MAX_LINES + 1)] if len(lines) > MAX_LINES else []
    )
    errors += [
        FormatError(f"line longer than {MAX_LINE_LENGTH} characters", "line_too_long", number, MAX_LINE_LENGTH + 1)
        for number, line in enumerate(lines[:MAX_LINES], start=1)
        if len(line) > MAX_LINE_LENGTH
    ]
    if errors:
        raise DeckFormatError(errors)
    return list(enumerate(lines, start=1))


def column(line: str) -> int:
    """The column (from 1) where the text of `line` starts."""
    return len(line) - len(line.lstrip()) + 1


def is_passcode(text: str) -> bool:
    """Whether `text` is written as a passcode: up to nine ASCII digits."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def card_of(entry: Entry, cards: CardIndex) -> Card:
    """The official card an entry names (its name exactly or loosely, as the rules read it), for a writer; a
    DeckFormatError when it names none."""
    card = cards.by_passcode.get(entry.passcode) if entry.passcode is not None else None
    if card is None and entry.passcode is None and entry.name is not None:
        read = cards.read_name(entry.name)
        card = None if read is None else read[0]
    if card is None:
        raise DeckFormatError([FormatError(f"{entry.name or entry.passcode} is not an official card", "unknown_card")])
    return card


def section_passcodes(deck: Deck, section: Section, cards: CardIndex) -> list[int]:
    """One passcode per copy of every entry of `section`, for the writers that list copies."""
    out: list[int] = []
    for entry in deck.section(section):
        passcode = entry.passcode if entry.passcode is not None else card_of(entry, cards).passcode
        out += [passcode] * entry.count
    return out
