"""What a batch found: counts per verdict and per rule, and the decks a list change made illegal (and those it left
illegal)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple

from deckcheck.batch.spec import RecheckSetup
from deckcheck.data import Data
from deckcheck.limits import KEPT_NEWLY_ILLEGAL_IDS
from deckcheck.rules import answer_notes, ruleset_for
from deckcheck.wire.reports import banlist_json, ruleset_json


class Outcome(NamedTuple):
    """What the summary needs to know of one line (a tuple: one is made for every line of a recheck)."""

    status: str  # legal, illegal or error
    id: Any = None
    codes: tuple[str, ...] = ()
    newly_illegal: bool = False
    causes: tuple[int, ...] = ()
    penalty: str | None = None
    legal_before: bool | None = None  # under the previous list, where the recheck has one
    fields: dict[str, Any] | None = None  # the line's own, as its result line echoes them

    @property
    def verdict(self) -> str | None:
        """The result line's `verdict`; None for an error line."""
        return None if self.status == "error" else verdict_of(self.status == "legal", self.legal_before)


def verdict_of(legal: bool, legal_before: bool | None) -> str:
    """A deck's verdict in one word: legal, or illegal; with a previous list, newly_illegal (legal under it) or
    still_illegal (illegal under it too)."""
    if legal:
        return "legal"
    if legal_before is None:
        return "illegal"
    return "newly_illegal" if legal_before else "still_illegal"


@dataclass(slots=True)
class Summary:
    """Totals over a batch; summaries of consecutive parts merge in order."""

    lines: int = 0
    legal: int = 0
    illegal: int = 0
    errors: int = 0
    by_code: Counter[str] = field(default_factory=Counter)
    newly: int = 0
    still: int = 0  # illegal under the previous list too
    newly_illegal: list[Any] = field(default_factory=list)  # the first KEPT_NEWLY_ILLEGAL_IDS of them
    causes: Counter[int] = field(default_factory=Counter)
    # Lines read as UTF-8 and as Shift_JIS (CP932), as the desk reads a file (batch/decoding.py `read_lines`).
    utf8: int = 0
    cp932: int = 0

    def add_results(self, results: Iterable[tuple[bytes, Outcome]]) -> None:
        """Count every line of these results (a result line and its outcome each), each count over the whole
        chunk at once: a Counter's update per line is a share of every line's cost (docs/benchmarks.md, Rechecks)."""
        outcomes = [outcome for _line, outcome in results]
        rest = [outcome for outcome in outcomes if outcome.status != "legal"]
        illegal = [outcome for outcome in rest if outcome.status == "illegal"]
        newly = [outcome for outcome in rest if outcome.newly_illegal]
        self.lines += len(outcomes)
        self.legal += len(outcomes) - len(rest)
        self.illegal += len(illegal)
        self.errors += len(rest) - len(illegal)
        self.by_code.update(chain.from_iterable(outcome.codes for outcome in rest))
        self.still += sum(outcome.legal_before is False for outcome in illegal)
        self.newly += len(newly)
        room = KEPT_NEWLY_ILLEGAL_IDS - len(self.newly_illegal)
        self.newly_illegal.extend(outcome.id for outcome in newly[: max(room, 0)])
        self.causes.update(chain.from_iterable(outcome.causes for outcome in newly))

    def add(self, outcome: Outcome) -> None:
        """Count one line."""
        self.add_results([(b"", outcome)])

    def merge(self, other: Summary) -> None:
        """Add the counts of the batch part that follows this one."""
        self.lines += other.lines
        self.legal += other.legal
        self.illegal += other.illegal
        self.errors += other.errors
        self.by_code.update(other.by_code)
        self.newly += other.newly
        self.still += other.still
        self.newly_illegal.extend(other.newly_illegal[: KEPT_NEWLY_ILLEGAL_IDS - len(self.newly_illegal)])
        self.causes.update(other.causes)
        self.utf8 += other.utf8
        self.cp932 += other.cp932

    def encodings(self) -> dict[str, int] | None:
        """The lines read in each encoding, once a line was read as Shift_JIS (CP932): a recheck names the
        encoding as `deckcheck validate` names a deck file's. None while every line read was UTF-8, which the
        NDJSON of a recheck is, and which its summary then need not say."""
        return {"utf-8": self.utf8, "cp932": self.cp932} if self.cp932 else None

    def as_json(self, setup: RecheckSetup, data: Data) -> dict[str, Any]:
        """The closing line of a batch, with the rules every deck was judged by."""
        ruleset = ruleset_for(data.cards, setup.format, setup.date)
        causes = []
        for passcode, decks in sorted(self.causes.items(), key=lambda item: (-item[1], item[0])):
            card = data.cards.by_passcode[passcode]
            causes.append({"passcode": passcode, "name_en": card.name_en, "name_ja": card.name_ja, "decks": decks})
        summary: dict[str, Any] = {
            "lines": self.lines,
            "legal": self.legal,
            "illegal": self.illegal,
            "errors": self.errors,
            **({} if (encodings := self.encodings()) is None else {"encodings": encodings}),
            "by_code": dict(sorted(self.by_code.items())),
            "date": setup.date.isoformat(),
            "banlist": None if setup.banlist is None else banlist_json(setup.banlist),
            "ruleset": ruleset_json(
                ruleset, answer_notes(ruleset, setup.banlist, setup.notes), setup.lang, setup.banlist
            ),
        }
        if setup.previous is not None:
            summary |= {
                "previous": banlist_json(setup.previous),
                "newly_illegal": {
                    "count": self.newly,
                    "ids": self.newly_illegal,
                    "ids_complete": self.newly == len(self.newly_illegal),
                    "cards": causes,
                },
                "still_illegal": self.still,
            }
        return {"summary": summary}
