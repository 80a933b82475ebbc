"""The violations of findings worked out from the arrays (findings.py), as a recheck's result line gives them, and
the result lines of the plain lines the columnar path answers.

A recheck after a list change finds the same few things again and again: the same staple Forbidden, the same card
held twice where it is now Limited. Each distinct finding (its code, section, cards with their copies, ctx) is made
a violation and rendered once, by the engine and the service's JSON (`violation_of`, `violation_json`: rule,
penalty, citation, message and remedy in the recheck's language), and every later deck with the same finding
reuses that rendering with its own entries (`loc`); findings made from one entry of findings.Memo share their ctx
and are found by it before any value is hashed. Nothing a rendering says depends on where the entries stand;
a plain recheck line has no source lines, so `lines` and `roster_lines` are empty in both.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

import orjson

from deckcheck.batch.findings import Memo
from deckcheck.batch.lines import Quick
from deckcheck.batch.summary import Outcome, verdict_of
from deckcheck.model import Context, Finding, Violation
from deckcheck.rules.engine import ruleset_of, violation_of
from deckcheck.rules.registry import SEVERITY
from deckcheck.wire.reports import violation_json

MAX_KEPT = 100_000  # renderings kept; past them the cache starts again (a recheck's findings repeat far sooner)
# The codes a list change can newly break: the causes a summary names.
LIST_CODES = frozenset({"forbidden_card", "limited_card_exceeded", "semi_limited_card_exceeded"})


def causes(found: Sequence[Finding | Violation]) -> tuple[int, ...]:
    """The cards behind the violations (or findings) a list change can cause, in passcode order."""
    return tuple(sorted({card.passcode for f in found if f.code in LIST_CODES for card in f.cards if card.passcode}))


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
        # The same by the finding's ctx itself, for findings that share theirs (findings.Memo): the entry holds the
        # ctx, so its id is not another's while it is kept.
        self.by_ctx: dict[int, tuple[Finding, dict[str, Any], str]] = {}
        self.memo = Memo()  # the findings the arrays make under this context, kept to be made once

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
        return Rendered(penalty, violations, tuple(finding.code for finding in findings), causes(findings))

    def _rendered(self, finding: Finding) -> tuple[dict[str, Any], str]:
        same = self.by_ctx.get(id(finding.ctx))
        if same is not None:
            first, shown, penalty = same
            if first.ctx is finding.ctx and first.cards is finding.cards and first.code == finding.code:
                return shown, penalty
        shown, penalty = self._by_value(finding)
        if len(self.by_ctx) >= MAX_KEPT:
            self.by_ctx.clear()
        self.by_ctx[id(finding.ctx)] = finding, shown, penalty
        return shown, penalty

    def _by_value(self, finding: Finding) -> tuple[dict[str, Any], str]:
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


LEGAL = Rendered(None, [], (), ())  # what a legal deck has to say
# A result line's end, by its verdict under the previous list (None: no previous list) and whether newly illegal.
_TAILS = {
    (None, False): b"}\n",
    (True, False): b',"legal_before":true,"newly_illegal":false}\n',
    (True, True): b',"legal_before":true,"newly_illegal":true}\n',
    (False, False): b',"legal_before":false,"newly_illegal":false}\n',
}


def plain_line(
    number: int, plain: Quick, counts: tuple[int, int, int], rendered: Rendered, was_legal: bool | None
) -> tuple[bytes, Outcome]:
    """The result line of a plain line's deck with these violations (none: a legal deck), written as bytes: the
    bytes orjson writes of the dict `Rechecker._result` makes (tests/test_columnar_reports.py holds them equal)."""
    legal = not rendered.violations
    fields = b"" if plain.fields is None else b',"fields":' + orjson.dumps(plain.fields)
    verdict = verdict_of(legal, was_legal)
    head = b'{"line":%d,"id":%b%b,"legal":%b,"verdict":"%b","penalty":%b' % (
        number,
        orjson.dumps(plain.id),
        fields,
        b"true" if legal else b"false",
        verdict.encode(),
        b"null" if rendered.penalty is None else b'"%b"' % rendered.penalty.encode(),
    )
    main, extra, side = counts
    body = b',"counts":{"main":%d,"extra":%d,"side":%d},"violations":%b' % (
        main,
        extra,
        side,
        orjson.dumps(rendered.violations) if rendered.violations else b"[]",
    )
    newly = was_legal is True and not legal
    outcome = Outcome(
        "legal" if legal else "illegal",
        plain.id,
        rendered.codes,
        newly_illegal=newly,
        causes=rendered.causes if newly else (),
        penalty=rendered.penalty,
        legal_before=was_legal,
        fields=plain.fields,
    )
    return head + body + _TAILS[was_legal, newly], outcome
