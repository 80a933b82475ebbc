"""The violations of findings worked out from the arrays (findings.py), as a recheck's result line gives them, and
the result lines of the plain lines the columnar path answers.

A recheck after a list change finds the same few things again and again: the same staple Forbidden, the same card
held twice where it is now Limited. Each distinct finding (its code, section, cards with their copies, ctx) is made
a violation and rendered once, by the engine and the service's JSON (`violation_of`, `violation_json`: rule,
penalty, citation, message and remedy in the recheck's language), written as the bytes orjson writes of it before
and after its entries (`loc`), and every later deck with the same finding writes those bytes around its own
entries; a finding findings.Memo made once for many decks is found as itself before any value is hashed. Nothing
a rendering says depends on where the entries stand; a plain recheck line has no source lines, so `lines` and
`roster_lines` are empty in both.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any, NamedTuple

import orjson

from deckcheck.batch.findings import Found, Memo
from deckcheck.batch.summary import Outcome, verdict_of
from deckcheck.model import Context, Finding, Violation, maker
from deckcheck.rules.engine import ruleset_of, violation_of
from deckcheck.rules.registry import SEVERITY
from deckcheck.wire.reports import violation_json

MAX_KEPT = 10_000  # renderings kept; past them the cache starts again (a recheck's findings repeat far sooner)
_SPOT = "\x00loc\x00"  # stands for a violation's entries while it is written (no card name or message holds it)
_SPOT_JSON = orjson.dumps(_SPOT)
# The codes a list change can newly break: the causes a summary names.
LIST_CODES = frozenset({"forbidden_card", "limited_card_exceeded", "semi_limited_card_exceeded"})


def causes(found: Sequence[Finding | Violation]) -> tuple[int, ...]:
    """The cards behind the violations (or findings) a list change can cause, in passcode order."""
    return tuple(sorted({card.passcode for f in found if f.code in LIST_CODES for card in f.cards if card.passcode}))


class Heads(NamedTuple):
    """What the result lines of a group of plain lines begin with, row by row: each one's line (its index in the
    chunk of lines), its id as JSON, the id, and its own fields (`fields` None: no line of the group has any)."""

    members: list[int]
    json: list[bytes]
    ids: list[str | int]
    fields: list[dict[str, Any] | None] | None


class Rendered(NamedTuple):
    """A deck's violations as its result line writes them (a JSON array), the penalty, the codes, and the cards
    behind those a list change can cause (`causes`)."""

    penalty: str | None
    violations: bytes
    codes: tuple[str, ...]
    causes: tuple[int, ...]


_new_rendered = maker(Rendered)


class Renderer:
    """Renders findings under one context, in one language, each distinct finding once."""

    def __init__(self, context: Context, lang: str) -> None:
        self.context = context
        self.lang = lang
        self.ruleset = ruleset_of(context)
        # A violation's bytes before and after its entries, and its penalty, by its finding's values.
        self.kept: dict[Hashable, _Written] = {}
        # The same by the finding itself, for findings made once for many decks (findings.Memo): the entry holds
        # the finding, so its id is not another's while it is kept.
        self.shared: dict[int, tuple[Finding, _Written]] = {}
        self.memo = Memo()  # the findings the arrays make under this context, kept to be made once

    def render(self, found: Sequence[Found]) -> Rendered:
        """The violations of a deck's findings, given in their report's order, each at its deck's own entries."""
        written, codes, cards = [], [], []
        penalty, worst = None, -1
        shared, dumps = self.shared, orjson.dumps
        for _order, finding, locs in found:
            same = shared.get(id(finding))
            before, after, fine, severity, behind = (
                same[1] if same is not None and same[0] is finding else self._new(finding)
            )
            written.append(before + dumps(locs) + after)  # orjson writes tuples as arrays
            codes.append(finding.code)
            if behind:
                cards.append(behind)
            if severity > worst:
                penalty, worst = fine, severity
        behind = cards[0] if len(cards) == 1 else tuple(sorted(set().union(*cards)))
        return _new_rendered((penalty, b"[" + b",".join(written) + b"]", tuple(codes), behind))

    def _new(self, finding: Finding) -> _Written:
        """The rendering of a finding not rendered yet as itself: kept as itself if the memo made it for many
        decks."""
        written = self._by_value(finding)
        if id(finding) in self.memo.shared:
            if len(self.shared) >= MAX_KEPT:
                self.shared.clear()
            self.shared[id(finding)] = finding, written
        return written

    def _by_value(self, finding: Finding) -> _Written:
        # A finding of the arrays holds scalars in its ctx, and lists only empty (an unknown passcode's suggestions).
        ctx = tuple((name, tuple(value) if isinstance(value, list) else value) for name, value in finding.ctx.items())
        key = (finding.code, finding.section, finding.cards, ctx)
        kept = self.kept.get(key)
        if kept is None:
            if len(self.kept) >= MAX_KEPT:
                self.kept.clear()
            violation = violation_of(finding, self.context)
            shown = violation_json(violation, self.lang, self.ruleset, None, None) | {"loc": _SPOT}
            before, after = orjson.dumps(shown).split(_SPOT_JSON)
            behind = causes([finding])
            kept = self.kept[key] = _Written(before, after, violation.penalty, SEVERITY[violation.penalty], behind)
        return kept


class _Written(NamedTuple):
    """A violation as a result line writes it, but for its entries: the bytes before and after them."""

    before: bytes
    after: bytes
    penalty: str
    severity: int  # the penalty's
    causes: tuple[int, ...]  # the cards behind it if a list change can cause it (`causes`)


def _ends(legal: bool, was_legal: bool | None) -> tuple[bytes, str, bool, bytes]:
    """What a result line of this verdict says before its penalty (its verdict), its status, whether newly illegal,
    and its end (the verdict under the previous list)."""
    newly = was_legal is True and not legal
    verdict = b',"legal":%b,"verdict":"%b","penalty":' % (
        b"true" if legal else b"false",
        verdict_of(legal, was_legal).encode(),
    )
    end = b"}\n"
    if was_legal is not None:
        end = b',"legal_before":%b,"newly_illegal":%b}\n' % (
            b"true" if was_legal else b"false",
            b"true" if newly else b"false",
        )
    return verdict, "legal" if legal else "illegal", newly, end


_ENDS = {(legal, before): _ends(legal, before) for legal in (True, False) for before in (None, True, False)}
# A legal deck's result line: plain_line's with no violations, its verdict and penalty written in already.
_LEGAL_LINE = b'{"line":%d,"id":%b%b' + _ENDS[True, None][0] + b'null,"counts":{"main":%d,"extra":%d,"side":%d}'
_LEGAL_ENDS = {before: b',"violations":[]' + _ENDS[True, before][3] for before in (None, True, False)}
_new_outcome = maker(Outcome)


def legal_lines(
    first: int, heads: Heads, rows: Sequence[int], sizes: Sequence[Sequence[int]], before: Sequence[bool | None]
) -> Iterator[tuple[int, tuple[bytes, Outcome]]]:
    """The result line and outcome of each legal deck, at its line's index: plain_line's with no violations
    (tests/test_columnar_reports.py holds them equal), written in one loop, as most decks of a recheck pass."""
    dumps = orjson.dumps
    members, ids_json, ids, fields = heads
    for row in rows:
        main, extra, side = sizes[row]
        was_legal = before[row]
        own = None if fields is None else fields[row]
        shown = b"" if own is None else b',"fields":' + dumps(own)
        line = _LEGAL_LINE % (first + members[row], ids_json[row], shown, main, extra, side) + _LEGAL_ENDS[was_legal]
        yield members[row], (line, _new_outcome(("legal", ids[row], (), False, (), None, was_legal, own)))


def plain_line(
    first: int, heads: Heads, row: int, counts: Sequence[int], *, rendered: Rendered, was_legal: bool | None
) -> tuple[bytes, Outcome]:
    """The result line of the plain line of `row` of a group, with these violations (one at least: legal_lines
    writes the legal decks'), written as bytes: the bytes orjson writes of the dict `Rechecker._result` makes
    (tests/test_columnar_reports.py holds them equal)."""
    verdict, status, newly, end = _ENDS[False, was_legal]
    penalty = rendered.penalty
    fields = None if heads.fields is None else heads.fields[row]
    line = b'{"line":%d,"id":%b%b%b%b,"counts":{"main":%d,"extra":%d,"side":%d},"violations":%b%b' % (
        first + heads.members[row],
        heads.json[row],
        b"" if fields is None else b',"fields":' + orjson.dumps(fields),
        verdict,
        b"null" if penalty is None else b'"%b"' % penalty.encode(),
        counts[0],
        counts[1],
        counts[2],
        rendered.violations,
        end,
    )
    behind = rendered.causes if newly else ()
    outcome = _new_outcome((status, heads.ids[row], rendered.codes, newly, behind, penalty, was_legal, fields))
    return line, outcome
