"""The one catalogue of infractions: every item of the penalty regulations from PR 3 to PR 10, by a stable code.

The deck rules (PR 3, catalogue.toml, rules/registry.py) come first: a deck violation is an infraction too. The
others (PR 4 to PR 10) live in infractions.toml beside this module, Japanese and English side by side; they are
loaded and checked once, at import, and a broken entry stops start-up with its name. Items the regulations tell apart
by intent (PR 4.A/4.D, 6, 7) or by minutes late (PR 5) share a family, by which a judge may assess them
(rules/assess.py) without knowing the item's code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Literal, get_args

from deckcheck.rules.registry import CITATIONS, PENALTIES, PENALTY_REF, RULES, Rule, TableEntry, read_table

INFRACTIONS_FILE = Path(__file__).with_name("infractions.toml")
ForfeitWhen = Literal["unremedied_or_decisive"]
# When an infraction happened (PR 1.C, 1.D); an item's definition may fix it (PR 10: during the duel).
Timing = Literal["during_duel", "between_duels", "between_matches"]
_REQUIRED = frozenset({"rule", "penalty_ref", "penalty", "summary"})
_OPTIONAL = frozenset(
    {"remedy", "family", "intentional", "minutes_late", "timing", "forfeit_when", "heavier_when_influential"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Infraction:
    """One infraction: what it is, where the regulations say it, its penalty and what the assessment depends on."""

    code: str
    kind: Literal["deck", "conduct"]
    rule: str
    penalty: str
    penalty_basis: str  # "explicit" where PR names it; "by analogy" for a deck rule it names only the closest one of
    penalty_ref: str
    summary_en: str
    summary_ja: str
    remedy_en: str | None = None
    remedy_ja: str | None = None
    family: str  # the code to assess by: the item's own, or the one it shares with the items it is told from
    intentional: bool | None = None  # what its definition says of intent; within a family, which item it is
    minutes_late: int | None = None  # within tardiness: the minutes from which the item applies
    timing: Timing | None = None  # when it happens, where its definition says so
    forfeit_when: ForfeitWhen | None = None
    heavier_when_influential: bool = False


def _deck(rule: Rule) -> Infraction:
    return Infraction(
        code=rule.code,
        kind="deck",
        rule=rule.rule,
        penalty=rule.penalty,
        penalty_basis=rule.penalty_basis,
        penalty_ref=rule.penalty_ref,
        summary_en=rule.summary_en,
        summary_ja=rule.summary_ja,
        remedy_en=rule.remedy_en,
        remedy_ja=rule.remedy_ja,
        family=rule.code,
    )


def _conduct(code: str, entry: TableEntry) -> Infraction:
    keys = set(entry.table)
    if not _REQUIRED <= keys <= _REQUIRED | _OPTIONAL:
        entry.fail(f"must give {', '.join(sorted(_REQUIRED))} and may give {', '.join(sorted(_OPTIONAL))}")
    summary_en, summary_ja = entry.texts("summary")
    remedy = entry.texts("remedy") if "remedy" in keys else (None, None)
    intentional, minutes = entry.table.get("intentional"), entry.table.get("minutes_late")
    if intentional is not None and not isinstance(intentional, bool):
        entry.fail("intentional must be true or false")
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0):
        entry.fail("minutes_late must be a whole number of minutes")
    heavier = entry.table.get("heavier_when_influential", False)
    if not isinstance(heavier, bool):
        entry.fail("heavier_when_influential must be true or false")
    return Infraction(
        code=code,
        kind="conduct",
        rule=entry.text("rule", CITATIONS),
        penalty=entry.text("penalty", choices=PENALTIES),
        penalty_basis="explicit",
        penalty_ref=entry.text("penalty_ref", PENALTY_REF),
        summary_en=summary_en,
        summary_ja=summary_ja,
        remedy_en=remedy[0],
        remedy_ja=remedy[1],
        family=entry.text("family") if "family" in keys else code,
        intentional=intentional,
        minutes_late=minutes,
        timing=_timing(entry),
        forfeit_when=_forfeit_when(entry),
        heavier_when_influential=heavier,
    )


def _timing(entry: TableEntry) -> Timing | None:
    """When the item happens, where its definition says so."""
    if "timing" not in entry.table:
        return None
    found = entry.text("timing", choices=get_args(Timing))
    return next(choice for choice in get_args(Timing) if choice == found)


def _forfeit_when(entry: TableEntry) -> ForfeitWhen | None:
    """When the item turns into Duel Forfeiture: where it cannot be remedied or decides the duel (PR 4.B, 4.C)."""
    if "forfeit_when" not in entry.table:
        return None
    entry.text("forfeit_when", choices=("unremedied_or_decisive",))
    return "unremedied_or_decisive"


def _check_families(entries: TableEntry, loaded: Mapping[str, Infraction]) -> None:
    """A family is told apart by one thing: intent (one item each way) or minutes late (from 0, each distinct); an
    item alone may say what its definition says of intent, but minutes late tell only tardiness's items apart."""
    families: dict[str, list[Infraction]] = {}
    for item in loaded.values():
        families.setdefault(item.family, []).append(item)
    for family, items in families.items():
        if len(items) == 1:
            if items[0].minutes_late is not None:
                entries.fail(f"{items[0].code}: minutes_late tells apart the items of a family")
            continue
        if family in loaded and loaded[family].family != family:
            entries.fail(f"family {family} is the code of an item of another family")
        if all(item.intentional is not None for item in items):
            if sorted(bool(item.intentional) for item in items) != [False, True]:
                entries.fail(f"family {family} must hold one unintentional and one intentional item")
        elif all(item.minutes_late is not None for item in items):
            minutes = sorted(item.minutes_late or 0 for item in items)
            if minutes[0] != 0 or len(set(minutes)) != len(minutes):
                entries.fail(f"family {family} must start at 0 minutes late and give each minute once")
        else:
            entries.fail(f"the items of family {family} must all give intentional, or all give minutes_late")


def load_infractions(path: Path, deck_rules: Mapping[str, Rule]) -> Mapping[str, Infraction]:
    """The deck rules as infractions, then every infraction of the file at `path`, in order; raise DataError naming
    the entry on any problem."""
    file = str(path)
    top = read_table(path, "infractions file")
    raw = top.table
    if set(raw) != {"infractions"}:
        top.fail("must hold an [infractions] table and nothing else")
    entries = TableEntry(file, "infractions", raw["infractions"])
    if clash := sorted(entries.table.keys() & deck_rules.keys()):
        entries.fail(f"codes of deck rules: {clash}")
    loaded = {code: _deck(rule) for code, rule in deck_rules.items()}
    conduct = {code: _conduct(code, TableEntry(file, f"infractions.{code}", t)) for code, t in entries.table.items()}
    _check_families(entries, conduct)
    return MappingProxyType(loaded | conduct)


INFRACTIONS = load_infractions(INFRACTIONS_FILE, RULES)
# Each family, by its code, with its items in catalogue order.
FAMILIES: Mapping[str, tuple[Infraction, ...]] = MappingProxyType(
    {
        family: tuple(i for i in INFRACTIONS.values() if i.family == family)
        for family in dict.fromkeys(i.family for i in INFRACTIONS.values())
    }
)
