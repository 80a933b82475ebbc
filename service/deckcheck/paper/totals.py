"""The counts a list prints beside its headings (`モンスターカード (19)`, `Main Deck (40)`), held to the lines read
under them: a line OCR lost altogether, which no line's review can show, shows as a total that does not agree."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from deckcheck.data.names import loose_key
from deckcheck.model import Section
from deckcheck.paper.lines import ReadLine

# Digits of other kinds (circled, superscript…), which NFKC folds to plain ones: OCR's noise, never a count printed.
_NOT_PLAIN = frozenset(chr(c) for c in range(0x2070, 0x2500) if unicodedata.normalize("NFKC", chr(c)).isdigit())
# A heading of one kind of card (its total ends at the next heading), not of a section (ends at the next section).
_KINDS = ("モンスター", "魔法", "罠", "トラップ", "monster", "spell", "trap")


def of_kind(text: str) -> bool:
    """Whether `text` names one kind of card (monsters, spells, traps) rather than a section."""
    return any(loose_key(kind) in loose_key(text) for kind in _KINDS)


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading as read: where, its text, the count it prints (None for none), and how many card lines were read
    before it."""

    page: int
    box: tuple[int, int, int, int]
    text: str
    printed: int | None
    before: int
    section: Section = "main"

    @property
    def of_kind(self) -> bool:
        """Whether it heads one kind of card (monsters, spells, traps) rather than a section."""
        return of_kind(self.text)


@dataclass(frozen=True, slots=True)
class Total:
    """A heading's printed count beside the copies read under it."""

    heading: Heading
    read: int
    lines: tuple[int, int]  # the card lines under the heading: from, to (not included)

    @property
    def agrees(self) -> bool:
        """Whether the copies read are the count printed."""
        return self.read == self.heading.printed


def printed_total(text: str) -> int | None:
    """The count a heading prints after its title: `(19)`, `（40枚）`, `40枚` (OCR's `メインデッキ40枚` too), `40`,
    `: 15`; None for none, or for one that is no plain number (`(8⑧)`: OCR's noise, which NFKC would make 88)."""
    if any(char in _NOT_PLAIN for char in text):
        return None
    tail = unicodedata.normalize("NFKC", text).rstrip().removesuffix(")").removesuffix("枚").rstrip()
    digits = tail[len(tail.rstrip("0123456789")) :]
    return int(digits) if 0 < len(digits) <= 3 and digits != tail else None


def totals(headings: list[Heading], lines: list[ReadLine]) -> tuple[Total, ...]:
    """Each heading that prints a count, with the copies read under it: a kind's up to the next heading, a section's
    over every heading of its own section that follows it (`メインデッキ` over `モンスターカード`, an app's tab
    `メイン 40` over the list's `メインデッキ 40枚`; never the TCG form's `Side Deck` over the `Spell Cards` read
    after it) up to the next heading of another section."""
    made = []
    for number, heading in enumerate(headings):
        if heading.printed is None:
            continue
        later = [h for h in headings[number + 1 :] if heading.of_kind or h.section != heading.section]
        end = later[0].before if later else len(lines)
        read = sum(line.count or 0 for line in lines[heading.before : end])
        made.append(Total(heading, read, (heading.before, end)))
    return tuple(made)
