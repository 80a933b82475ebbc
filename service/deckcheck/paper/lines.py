"""A line of a deck as read from paper, with what decided it, and a line read that names no card.

A line needs review (and stays out of the deck until staff confirm it) when its name was not matched for sure, its
count is unclear (not printed, not read surely, or more than three), or its section rests on a doubt."""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck.data import Card
from deckcheck.model import Section


@dataclass(frozen=True, slots=True)
class ReadLine:
    """One line of a deck as read from paper, with what decided it."""

    page: int
    box: tuple[int, int, int, int] | None
    text: str
    confidence: float
    section: Section
    count: int | None
    card: Card | None
    # Why it needs review: low_confidence, read_loosely, unknown_card, count_unclear, section_unclear, over_total.
    reasons: tuple[str, ...]
    suggestions: tuple[Card, ...] = ()
    passcode: int | None = None  # the passcode as read (a QR code's, which may be an alternate artwork's)

    @property
    def needs_review(self) -> bool:
        """Whether staff must confirm the line before it counts."""
        return bool(self.reasons)


@dataclass(frozen=True, slots=True)
class Ignored:
    """A line that names no card and is no heading: the sheet's own words, or what stands above the first heading."""

    page: int
    box: tuple[int, int, int, int]
    text: str
