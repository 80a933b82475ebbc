"""The one entry point of the rule engine, `validate(deck, context) -> Report`, and `warm`, which works out ahead
what its checks of a day read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator

from deckcheck.data import Banlist, Card, CardIndex
from deckcheck.data.memo import kept_for, kept_with
from deckcheck.model import (
    FORMATS,
    SECTIONS,
    Context,
    Copies,
    Deck,
    Entry,
    Finding,
    Format,
    Loc,
    LooseRead,
    Report,
    Ruleset,
    Violation,
    deck_of,
)
from deckcheck.rules import languages, printings
from deckcheck.rules.checks import CHECKS, Line, resolved
from deckcheck.rules.eras import ruleset_for, types_in_force
from deckcheck.rules.fast import card_table, legal_counts, link_counts
from deckcheck.rules.registry import RULES, SEVERITY
from deckcheck.rules.roster import check_roster

_SECTION_RANK = {"main": 0, "extra": 1, "side": 2, "roster": 3}


def resolve_entry(entry: Entry, cards: CardIndex) -> tuple[Card | None, str | None, str | None]:
    """The canonical card an entry names, or None and why: unknown passcode or name, or the two disagree. Third, for
    a name that is not the card's name as printed but for width, case and spacing (`CardIndex.read_name`: a dash or
    a dot apart, or read loosely), that card's name as printed."""
    by_code = None if entry.passcode is None else cards.by_passcode.get(entry.passcode)
    if entry.passcode is not None and by_code is None:
        return None, "unknown_passcode", None
    if entry.name is None:
        return by_code, None, None
    read = cards.read_name(entry.name)
    if read is None or (by_code is not None and read[0] is not by_code):
        return None, "unknown_name" if by_code is None else "passcode_name_mismatch", None
    return read[0], None, read[1]


@kept_with(maxsize=16)
def cards_by_passcode(cards: CardIndex, types: tuple[str, ...]) -> dict[int, tuple[Card, bool]]:
    """Every passcode's canonical card, and whether the card rules apply to it (its types are all among `types`):
    a plain dict, the fastest lookup for the entry-by-entry walk of `_resolve`."""
    return {passcode: (card, types_in_force(card, types)) for passcode, card in cards.by_passcode.items()}


def _resolve(deck: Deck, context: Context, ruleset: Ruleset, loose: list[LooseRead], where: Loc = ()) -> list[Line]:
    """Attach the canonical card to every entry; an entry naming no official card keeps the reason why. Entries whose
    names were read loosely are added to `loose`, located under `where` (("roster",) for a roster's)."""
    lines: list[Line] = []
    known = cards_by_passcode(context.cards, ruleset.card_types)
    default = context.default_language
    for section in SECTIONS:
        for index, entry in enumerate(deck.section(section)):
            # The common case first: a passcode alone. (None is no key, so a bare entry falls through.)
            found = known.get(entry.passcode) if entry.name is None else None  # type: ignore[arg-type]
            if found is not None:
                lines.append(Line(section, index, entry, found[0], entry.language or default, found[1]))
                continue
            card, reason, read_as = resolve_entry(entry, context.cards)
            playable = card is not None and known[card.passcode][1]
            lines.append(Line(section, index, entry, card, entry.language or default, playable, reason))
            if read_as is not None and card is not None:
                loose.append(LooseRead((*where, section, index), entry.name or "", card, read_as))
    return lines


def _findings(lines: list[Line], roster: list[Line] | None, context: Context, ruleset: Ruleset) -> Iterator[Finding]:
    whole = resolved(lines, ruleset)
    for check in (*CHECKS, *languages.CHECKS, *printings.CHECKS):
        yield from check(whole, context)
    if roster is not None:
        yield from check_roster(lines, roster, context)


def _position(loc: Loc) -> tuple[int, int]:
    """Deck entries before roster entries, by section, then by index; a whole section before its entries."""
    if loc[0] == "roster":
        return _SECTION_RANK["roster"] * 4 + _SECTION_RANK[str(loc[1])], int(loc[2])
    return _SECTION_RANK[str(loc[0])], int(loc[1]) if len(loc) > 1 else -1


def violation_order(violation: Violation | Finding) -> tuple[int, str, tuple[int, int], tuple[int, ...]]:
    """Where a violation (or the finding it is made of) stands in a report: by section, code, first entry, cards."""
    section, code, cards = order_stem(violation)
    return section, code, min((_position(loc) for loc in violation.loc), default=(99, 0)), cards


def order_stem(finding: Violation | Finding) -> tuple[int, str, tuple[int, ...]]:
    """violation_order but for the first entry: the section, code and cards (batch/findings.py keeps it for findings
    that recur with other entries)."""
    section = 3 if finding.section is None else _SECTION_RANK[finding.section]
    return section, finding.code, tuple(card.passcode or 0 for card in finding.cards)


def order_at(stem: tuple[int, str, tuple[int, ...]], first: Loc) -> tuple[int, str, tuple[int, int], tuple[int, ...]]:
    """violation_order of a finding of this stem (order_stem) whose first entry is at `first`."""
    section, code, cards = stem
    return section, code, _position(first), cards


def violation_of(finding: Finding, context: Context) -> Violation:
    """The violation a finding is under `context`: its rule, penalty and citation from the registry."""
    rule = RULES[finding.code]
    applies_to = None
    if SEVERITY[rule.penalty] >= SEVERITY["duel_forfeiture"]:
        # PR 1.C: a duel forfeiture found between duels (or before the first) costs the next duel.
        applies_to = "current_duel" if context.phase == "during_duel" else "next_duel"
    return Violation(
        code=finding.code,
        section=finding.section,
        loc=finding.loc,
        cards=finding.cards,
        ctx=finding.ctx,
        rule=rule.rule,
        penalty=rule.penalty,
        penalty_basis=rule.penalty_basis,
        penalty_ref=rule.penalty_ref,
        penalty_applies_to=applies_to,
    )


def validate(deck: Deck, context: Context) -> Report:
    """Check `deck` against every deck rule in force in `context` and report every violation, in a fixed order."""
    sizes = legal_counts(deck, context)
    if sizes is not None:
        return legal_report(dict(zip(SECTIONS, sizes, strict=True)), context)
    return full_report(deck, context)


def validate_copies(copies: Copies, context: Context) -> Report:
    """`validate` of a deck given as copies per card (a ydke link's): a legal deck's report made without its entries
    (rules/fast.py `link_counts`), any other deck's by the engine."""
    sizes = link_counts(copies, context)
    if sizes is not None:
        return legal_report(dict(zip(SECTIONS, sizes, strict=True)), context)
    return full_report(deck_of(copies), context)


def full_report(deck: Deck, context: Context) -> Report:
    """`validate` without the fast answer for a legal deck: for a deck already known to break a rule."""
    ruleset = ruleset_of(context)
    loose: list[LooseRead] = []
    lines = _resolve(deck, context, ruleset, loose)
    roster = None if context.roster is None else _resolve(context.roster, context, ruleset, loose, ("roster",))
    return _report(deck.counts(), context, ruleset, _findings(lines, roster, context, ruleset), tuple(loose))


def legal_report(counts: dict[str, int], context: Context) -> Report:
    """The report on a deck of these section sizes that breaks no rule: what `validate` answers for a deck the fast
    answer (rules/fast.py) or the columnar verdict (batch/columnar.py) found legal, without running the checks."""
    ruleset = ruleset_of(context)
    return Report(
        True,
        None,
        counts,
        context.date,
        context.banlist,
        ruleset,
        (),
        answer_notes(ruleset, context.banlist, context.notes),
    )


def ruleset_of(context: Context) -> Ruleset:
    """The rules in force for the context's format and date."""
    return ruleset_for(context.cards, context.format, context.date)


def answer_notes(ruleset: Ruleset, banlist: Banlist | None, more: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ruleset's notes, one more when no list was in force (then only the three-copy rule held copies), and
    those the event adds (`more`: the list picked by the date may be out of date)."""
    return (*ruleset.notes, *(() if banlist is not None else ("no_list_in_force",)), *more)


def _report(
    counts: dict[str, int],
    context: Context,
    ruleset: Ruleset,
    findings: Iterable[Finding],
    read_loosely: tuple[LooseRead, ...],
) -> Report:
    violations = sorted((violation_of(f, context) for f in findings), key=violation_order)
    penalty = max((v.penalty for v in violations), key=SEVERITY.__getitem__, default=None)
    return Report(
        legal=not violations,
        penalty=penalty,
        counts=counts,
        date=context.date,
        banlist=context.banlist,
        ruleset=ruleset,
        violations=tuple(violations),
        notes=answer_notes(ruleset, context.banlist, context.notes),
        read_loosely=read_loosely,
    )


# Working out ahead, for newly loaded data, what the checks of a day need (the rules in force, the card tables),
# so that the first requests after a reload (api/live_data.py) do not pay for it.

LATELY = 4  # how many of the card tables the replaced data held last are worked out again for the new


def warm(cards: CardIndex, day: dt.date, replaced: CardIndex | None = None) -> None:
    """Work out, and keep with `cards`, the tables a check of either format on `day` reads, and the name search;
    and, for data that replace `replaced`, those of the days and formats whose tables `replaced` held last: a client
    may check decks as of another day than today, and the first checks after a reload paid for its tables (some 60
    ms a format) while others waited behind them."""
    cards.search.build()
    lately = kept_for(replaced, card_table)[-LATELY:] if replaced is not None else []
    for each_day, fmt in [*((day, fmt) for fmt in FORMATS), *lately]:
        _tables(cards, each_day, fmt)


def _tables(cards: CardIndex, day: dt.date, fmt: Format) -> None:
    ruleset = ruleset_for(cards, fmt, day)
    cards_by_passcode(cards, ruleset.card_types)
    card_table(cards, day, fmt)  # and the arrays it is made from
