"""Engine results as JSON: the body /v1/validate answers, which the command line and rechecks print too."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from deckcheck.data import Banlist
from deckcheck.model import Deck, Loc, LooseRead, Report, Ruleset, Section, Violation
from deckcheck.rules import loose_read_text, note_text, render


def _lines(deck: Deck | None, locs: Iterable[Loc]) -> list[int]:
    """The source lines of the entries at `locs` (section, index)."""
    if deck is None:
        return []
    found: set[int] = set()
    for loc in locs:
        found.update(deck.section(cast(Section, loc[0]))[int(loc[1])].lines)
    return sorted(found)


def violation_json(v: Violation, lang: str, ruleset: Ruleset, deck: Deck | None, roster: Deck | None) -> dict[str, Any]:
    """One violation as /v1/validate gives it, its message in `lang`; `deck` and `roster` give the source lines."""
    message, remedy = render(v, lang, ruleset)
    entry_locs = [loc for loc in v.loc if len(loc) == 2]
    roster_locs = [loc[1:] for loc in v.loc if loc[0] == "roster"]
    return {
        "code": v.code,
        "message": message,
        "section": v.section,
        "loc": [list(loc) for loc in v.loc],
        "cards": [{"passcode": c.passcode, "name": c.name(lang), "count": c.count, "limit": c.limit} for c in v.cards],
        "ctx": v.ctx,
        "rule": v.rule,
        "penalty": v.penalty,
        "penalty_basis": v.penalty_basis,
        "penalty_ref": v.penalty_ref,
        "penalty_applies_to": v.penalty_applies_to,
        "remedy": remedy,
        "lines": _lines(deck, entry_locs),
        "roster_lines": _lines(roster, roster_locs),
    }


def banlist_json(banlist: Banlist) -> dict[str, Any]:
    """A list's identity and dates."""
    return {
        "id": banlist.id,
        "name": banlist.name,
        "effective_from": None if banlist.effective_from is None else banlist.effective_from.isoformat(),
        "effective_until": None if banlist.effective_until is None else banlist.effective_until.isoformat(),
    }


def report_json(report: Report, lang: str, deck: Deck | None, roster: Deck | None = None) -> dict[str, Any]:
    """The response body for a report on `deck`, with messages in `lang`; `deck` gives the source lines of the
    entries (None for a deck that has none, such as a ydke link)."""
    return {
        "legal": report.legal,
        "penalty": report.penalty,
        "counts": report.counts,
        "date": report.date.isoformat(),
        "banlist": None if report.banlist is None else banlist_json(report.banlist),
        "ruleset": ruleset_json(report.ruleset, report.notes, lang, report.banlist),
        "violations": violations_json(report, lang, deck, roster),
        "read_loosely": [loose_read_json(read, lang, deck, roster) for read in report.read_loosely],
    }


def loose_read_json(read: LooseRead, lang: str, deck: Deck | None, roster: Deck | None = None) -> dict[str, Any]:
    """An entry whose name was read loosely: where, what it gave, the card and its name as printed, so a site can
    correct its text; `deck` and `roster` give the source lines."""
    card = read.card
    in_roster = read.loc[0] == "roster"
    return {
        "loc": list(read.loc),
        "lines": _lines(roster if in_roster else deck, [read.loc[1:] if in_roster else read.loc]),
        "typed": read.typed,
        "name": read.name,
        "passcode": card.passcode,
        "name_en": card.name_en,
        "name_ja": card.name_ja,
        "message": loose_read_text(read.typed, read.name, lang),
    }


def violations_json(report: Report, lang: str, deck: Deck | None, roster: Deck | None = None) -> list[dict[str, Any]]:
    """The report's violations as /v1/validate gives them (a recheck line gives these without the event's date,
    list and ruleset, which its summary gives once)."""
    return [violation_json(v, lang, report.ruleset, deck, roster) for v in report.violations]


def ruleset_json(ruleset: Ruleset, notes: tuple[str, ...], lang: str, banlist: Banlist | None = None) -> dict[str, Any]:
    """What rules an answer applied (and with which list), and the notes that say where they reach beyond the 2008 rules
    or how current their data may be."""
    return {
        "id": ruleset.id,
        "format": ruleset.format,
        "card_types": list(ruleset.card_types),
        "languages": list(ruleset.languages),
        "notes": notes_json(notes, ruleset, lang, banlist),
    }


def notes_json(notes: tuple[str, ...], ruleset: Ruleset, lang: str, banlist: Banlist | None) -> list[dict[str, str]]:
    """The notes of an answer under `ruleset` (and `banlist`), each {code, message} with the message in `lang`."""
    return [{"code": code, "message": note_text(code, ruleset, lang, banlist)} for code in notes]
