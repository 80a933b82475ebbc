"""A deck held to the bounds of `deckcheck.limits`: the errors of one that goes past them, and the budget of
name suggestions one deck gets."""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck.data import Hit, NameSearch, normalize_name
from deckcheck.limits import MAX_CARDS, MAX_ENTRIES, MAX_NAME_CHARS, SUGGESTED_NAMES
from deckcheck.model import SECTIONS, Copies, Deck, Section


class NameBudget:
    """The distinct unknown names of one deck that get suggestions: the first SUGGESTED_NAMES, each counted once
    however often and under whatever passcode it is written."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def suggestions(self, name: str | None, search: NameSearch) -> tuple[tuple[Hit, ...], bool]:
        """The closest names to an unknown `name`, and whether the spent budget left it without them (False for an
        entry with no name). The first call for each new name spends the budget."""
        if name is None:
            return (), False
        key = normalize_name(name)
        if key not in self.names and len(self.names) < SUGGESTED_NAMES:
            self.names.add(key)
        if key not in self.names:
            return (), True
        return search.suggestions(name), False


@dataclass(frozen=True, slots=True)
class LimitError:
    """One bound a deck goes past: the section, the entry (None for the whole section), what and which kind."""

    section: Section
    index: int | None
    msg: str
    type: str


def _section_errors(section: Section, entries: int, cards: int) -> list[LimitError]:
    errors = []
    if entries > MAX_ENTRIES:
        msg = f"{section}: {entries} different cards or entries, more than {MAX_ENTRIES}"
        errors.append(LimitError(section, None, msg, "too_many_entries"))
    if cards > MAX_CARDS:
        errors.append(LimitError(section, None, f"{section}: {cards} cards, more than {MAX_CARDS}", "too_many_cards"))
    return errors


def deck_limit_errors(deck: Deck) -> list[LimitError]:
    """Every bound `deck` goes past, section by section; empty when it is within all of them."""
    errors = []
    for section in SECTIONS:
        entries = deck.section(section)
        errors += _section_errors(section, len(entries), sum(entry.count for entry in entries))
        errors += [
            LimitError(section, index, f"a card name longer than {MAX_NAME_CHARS} characters", "name_too_long")
            for index, entry in enumerate(entries)
            if entry.name is not None and len(entry.name) > MAX_NAME_CHARS
        ]
    return errors


def copies_limit_errors(copies: Copies) -> list[LimitError]:
    """Every bound a deck read as copies per card goes past."""
    return [
        error
        for section, counter in zip(SECTIONS, copies, strict=True)
        for error in _section_errors(section, len(counter), counter.total())
    ]
