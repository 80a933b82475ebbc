"""Matching the presented deck against the Deck Roster Sheet (TR 2.B, TR 2.D.8, PR 3.B)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from deckcheck.data import normalize_name
from deckcheck.model import SECTIONS, CardRef, Context, Finding, Loc, Section
from deckcheck.rules.checks import Line

Key = int | str
# Every code check_roster yields.
CODES = frozenset({"roster_mismatch", "side_swap_count_changed"})


def _key(line: Line) -> Key:
    """Cards compare by canonical passcode (同名カード); unresolved entries by what was written."""
    if line.card is not None:
        return line.card.passcode
    name = "" if line.entry.name is None else normalize_name(line.entry.name)
    return f"?{line.entry.passcode or ''}|{name}"


def _ref(line: Line, count: int) -> CardRef:
    if line.card is not None:
        return CardRef(line.card.passcode, line.card.name_en, line.card.name_ja, count)
    label = line.entry.name if line.entry.name is not None else str(line.entry.passcode)
    return CardRef(line.entry.passcode, label, label, count)


def _tally(lines: Iterable[Line]) -> tuple[Counter[Key], dict[Key, list[Line]]]:
    counts = Counter[Key]()
    where: dict[Key, list[Line]] = {}
    for line in lines:
        key = _key(line)
        counts[key] += line.entry.count
        where.setdefault(key, []).append(line)
    return counts, where


def _difference(section: Section | None, presented: Sequence[Line], registered: Sequence[Line]) -> Finding | None:
    have, have_at = _tally(presented)
    want, want_at = _tally(registered)
    if have == want:
        return None
    missing = want - have
    extra = have - want
    loc: list[Loc] = [line.loc for key in extra for line in have_at[key]]
    loc += [("roster", *line.loc) for key in missing for line in want_at[key]]
    missing_refs = [_ref(want_at[key][0], n) for key, n in missing.items()]
    extra_refs = [_ref(have_at[key][0], n) for key, n in extra.items()]
    ctx: dict[str, Any] = {
        "missing": [_as_dict(ref) for ref in missing_refs],
        "unregistered": [_as_dict(ref) for ref in extra_refs],
    }
    return Finding("roster_mismatch", section, tuple(loc), tuple(missing_refs + extra_refs), ctx)


def _as_dict(ref: CardRef) -> dict[str, Any]:
    return {"passcode": ref.passcode, "name_en": ref.name_en, "name_ja": ref.name_ja, "count": ref.count}


def check_roster(lines: Sequence[Line], roster: Sequence[Line], context: Context) -> Iterator[Finding]:
    """Duel 1: every section as registered (no siding before it). Duels 2–3: the same cards over all three
    sections, and main and extra deck as large as registered."""
    if context.duel == 1:
        for section in SECTIONS:
            found = _difference(
                section,
                [line for line in lines if line.section == section],
                [line for line in roster if line.section == section],
            )
            if found is not None:
                yield found
        return
    found = _difference(None, lines, roster)
    if found is not None:
        yield found
    for section in ("main", "extra"):
        presented = sum(line.entry.count for line in lines if line.section == section)
        registered = sum(line.entry.count for line in roster if line.section == section)
        if presented != registered:
            ctx = {"registered": registered, "presented": presented}
            yield Finding("side_swap_count_changed", section, ((section,),), ctx=ctx)
