"""The rule engine's input and output types: plain, immutable data with no web framework in sight."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, NamedTuple, TypeVar

from deckcheck.data import Banlist, Card, CardIndex

Format = Literal["ocg", "tcg"]
FORMATS: tuple[Format, ...] = ("ocg", "tcg")
Section = Literal["main", "extra", "side"]
SECTIONS: tuple[Section, ...] = ("main", "extra", "side")
Phase = Literal["registration", "between_duels", "during_duel"]
# A position in the input: ("main", 3) is the fourth entry of the main deck, ("main",) the section itself,
# ("roster", "side", 0) the first side-deck entry of the Deck Roster Sheet.
Loc = tuple[str | int, ...]
# Copies per passcode in main, extra and side, in order of each card's first copy: a deck as a ydke link gives it,
# which the batch path checks without building entries.
Copies = tuple[Counter[int], Counter[int], Counter[int]]
T = TypeVar("T", bound=tuple[Any, ...])


def maker(kind: type[T]) -> Callable[[tuple[Any, ...]], T]:
    """A function making a `kind` of a tuple of its values, in their order: `tuple.__new__` itself, where a
    NamedTuple's own constructor is a Python function, about twice as slow (docs/benchmarks.md, Rechecks); for the
    tuples made for every card of a deck or every line of a recheck."""
    made: Callable[[tuple[Any, ...]], T] = partial(tuple.__new__, kind)
    return made


class Entry(NamedTuple):
    """One line of a deck: a card named by passcode and/or name, how many, and the printed language.

    A named tuple rather than a dataclass: a recheck makes tens of millions of these, and tuples are made fastest.
    """

    passcode: int | None = None
    name: str | None = None
    count: int = 1  # type: ignore[assignment]  # a field, where tuple has a method of the name; never called here
    language: str | None = None
    lines: tuple[int, ...] = ()  # where the entry stands in a text input; the rules never read it


@dataclass(frozen=True, slots=True)
class Deck:
    """Main, extra and side deck as the player presents them (or as the roster sheet lists them)."""

    main: tuple[Entry, ...] = ()
    extra: tuple[Entry, ...] = ()
    side: tuple[Entry, ...] = ()

    def section(self, name: Section) -> tuple[Entry, ...]:
        """The entries of one section."""
        return self.main if name == "main" else self.extra if name == "extra" else self.side

    def counts(self) -> dict[str, int]:
        """How many cards each section holds."""
        return {name: sum(entry.count for entry in self.section(name)) for name in SECTIONS}


_new_entry = maker(Entry)


def deck_of(copies: Copies) -> Deck:
    """The deck whose sections hold these copies: one entry per card (ydke links have no lines to keep)."""
    return Deck(
        *(tuple([_new_entry((code, None, count, None, ())) for code, count in section.items()]) for section in copies)
    )


@dataclass(frozen=True, slots=True)
class Protectors:
    """What the player declares about sleeves and protectors (TR 3 カードスリーブ・カードプロテクターの使用について)."""

    used: bool = False
    opaque_back: bool = False
    uniform: bool = True


@dataclass(frozen=True, slots=True)
class Context:
    """Everything about the event that the deck is checked against."""

    date: dt.date
    banlist: Banlist | None
    cards: CardIndex
    protectors: Protectors | None = None
    roster: Deck | None = None
    duel: int = 1
    phase: Phase = "registration"
    default_language: str = "ja"
    format: Format = "ocg"
    notes: tuple[str, ...] = ()  # what the answer must add about the data it was judged by (list_may_be_outdated)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules an answer applied: the format and the rule era of the event date (rules/eras.py)."""

    id: str  # "<format>-<day the era began>": ocg-2008-03-15 is the 2008 tournament rules as written
    format: Format
    card_types: tuple[str, ...]  # the monster types in force: fusion and synchro, then xyz, pendulum, link
    languages: tuple[str, ...]  # the card languages the format allows
    since: Mapping[str, dt.date]  # the day each later type in force was first printed in the format
    notes: tuple[str, ...]  # codes of the notes that say where the rules applied reach beyond the 2008 rules

    def disallowed_type(self, card: Card) -> str | None:
        """The first type of `card` that is not in force, or None for a card these rules know."""
        return next((kind for kind in card.types() if kind not in self.card_types), None)


@dataclass(frozen=True, slots=True)
class CardRef:
    """A card a violation is about, with the copies that count and the copies allowed."""

    passcode: int | None
    name_en: str
    name_ja: str
    count: int
    limit: int | None = None

    def name(self, lang: str) -> str:
        """The card's name in `lang`, falling back to English."""
        return self.name_ja if lang == "ja" and self.name_ja else self.name_en


@dataclass(frozen=True, slots=True)
class Finding:
    """What one rule found, before the engine attaches penalty and citation."""

    code: str
    section: Section | None
    loc: tuple[Loc, ...]
    cards: tuple[CardRef, ...] = ()
    ctx: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule with the penalty the regulations mandate for it."""

    code: str
    section: Section | None
    loc: tuple[Loc, ...]
    cards: tuple[CardRef, ...]
    ctx: dict[str, Any]
    rule: str
    penalty: str
    penalty_basis: str
    penalty_ref: str
    penalty_applies_to: str | None


class LooseRead(NamedTuple):
    """An entry whose name is no card's exactly but one card's loosely (data/names.py `loose_key`), read as that
    card: `ブラックマジシャン` as ブラック・マジシャン, `Blue Eyes White Dragon` as Blue-Eyes White Dragon."""

    loc: Loc  # where the entry stands, as a violation's loc: ("main", 3), ("roster", "side", 0)
    typed: str  # the name as the entry gives it
    card: Card
    name: str  # the card's name, as printed, that `typed` was read as


@dataclass(frozen=True, slots=True)
class Report:
    """The verdict on one deck."""

    legal: bool
    penalty: str | None
    counts: dict[str, int]
    date: dt.date
    banlist: Banlist | None
    ruleset: Ruleset
    violations: tuple[Violation, ...]
    notes: tuple[str, ...] = ()  # the ruleset's notes, and any the answer adds (no list in force)
    read_loosely: tuple[LooseRead, ...] = ()  # entries whose names were read loosely, deck then roster
