"""The .ydk file: `#main`, `#extra` and `!side` sections of passcodes, one copy a line."""

from __future__ import annotations

from deckcheck.data import CardIndex
from deckcheck.formats.common import (
    Builder,
    DeckFormatError,
    FormatError,
    column,
    is_passcode,
    numbered_lines,
    section_passcodes,
)
from deckcheck.model import SECTIONS, Deck, Section


def parse_ydk(text: str) -> Deck:
    """Read a .ydk file: `#main`, `#extra`, `!side` sections of passcodes; other `#` lines are comments."""
    builder = Builder()
    errors: list[FormatError] = []
    section: Section | None = None
    for number, raw in numbered_lines(text):
        line = raw.strip()
        if not line:
            continue
        heading = line.lower()
        if heading in ("#main", "#extra", "!side"):
            section = "side" if heading == "!side" else "main" if heading == "#main" else "extra"
        elif line.startswith("#"):
            continue
        elif not is_passcode(line):
            errors.append(FormatError(f"'{line[:40]}' is not a passcode", "not_a_passcode", number, column(raw)))
        elif section is None:
            errors.append(
                FormatError("a card before any #main, #extra or !side line", "card_outside_section", number, 1)
            )
        else:
            builder.add(section, int(line), None, 1, number)
    if errors:
        raise DeckFormatError(errors)
    return builder.deck()


def write_ydk(deck: Deck, cards: CardIndex) -> str:
    """A .ydk file of the deck; every entry must name an official card."""
    parts = ["#created by deckcheck"]
    for section, heading in zip(SECTIONS, ("#main", "#extra", "!side"), strict=True):
        parts.append(heading)
        parts += [str(passcode) for passcode in section_passcodes(deck, section, cards)]
    return "\n".join(parts) + "\n"
