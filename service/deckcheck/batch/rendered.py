"""The violations of findings worked out from the arrays (findings.py), as a recheck's result line gives them.

A recheck after a list change finds the same few things again and again: the same staple Forbidden, the same card
held twice where it is now Limited. Each distinct finding (its code, section, cards with their copies, ctx) is made
a violation and rendered once, by the engine and the service's JSON (`violation_of`, `violation_json`: rule,
penalty, citation, message and remedy in the recheck's language), and every later deck with the same finding
reuses that rendering with its own entries (`loc`). Nothing a rendering says depends on where the entries stand;
a plain recheck line has no source lines, so `lines` and `roster_lines` are empty in both.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

from deckcheck.model import Context, Finding
from deckcheck.rules.engine import ruleset_of, violation_of
from deckcheck.rules.registry import SEVERITY
from deckcheck.wire.reports import violation_json

MAX_KEPT = 100_000  # renderings kept; past them the cache starts again (a recheck's findings repeat far sooner)
# The codes a list change can newly break: the causes a summary names.
LIST_CODES = frozenset({"forbidden_card", "limited_card_exceeded", "semi_limited_card_exceeded"})


class Rendered(NamedTuple):
    """A deck's violations as its result line gives them, the penalty, the codes, and the cards behind the
    violations a list change can cause."""

    penalty: str | None
    violations: list[dict[str, Any]]
    codes: tuple[str, ...]
    causes: tuple[int, ...]


class Renderer:
    """Renders findings under one context, in one language, each distinct finding once."""

    def __init__(self, context: Context, lang: str) -> None:
        self.context = context
        self.lang = lang
        self.ruleset = ruleset_of(context)
        self.kept: dict[Hashable, tuple[dict[str, Any], str]] = {}

    def render(self, findings: Sequence[Finding]) -> Rendered:
        """The violations of a deck's findings, given in their report's order."""
        violations = []
        penalty = None
        for finding in findings:
            shown, fine = self._rendered(finding)
            shown = shown.copy()
            shown["loc"] = [list(loc) for loc in finding.loc]
            violations.append(shown)
            if penalty is None or SEVERITY[fine] > SEVERITY[penalty]:
                penalty = fine
        codes = tuple(finding.code for finding in findings)
        cards = {card.passcode for f in findings if f.code in LIST_CODES for card in f.cards if card.passcode}
        return Rendered(penalty, violations, codes, tuple(sorted(cards)))

    def _rendered(self, finding: Finding) -> tuple[dict[str, Any], str]:
        # A finding of the arrays holds scalars in its ctx, and lists only empty (an unknown passcode's suggestions).
        ctx = tuple((name, tuple(value) if isinstance(value, list) else value) for name, value in finding.ctx.items())
        key = (finding.code, finding.section, finding.cards, ctx)
        kept = self.kept.get(key)
        if kept is None:
            if len(self.kept) >= MAX_KEPT:
                self.kept.clear()
            violation = violation_of(finding, self.context)
            kept = violation_json(violation, self.lang, self.ruleset, None, None), violation.penalty
            self.kept[key] = kept
        return kept
