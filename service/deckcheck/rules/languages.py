"""The language rules of the 2008 OCG tournament rules: the languages a card may be presented in, and the
protectors that hide which (rules/checks.py holds the other deck rules, rules/printings.py the printing rules)."""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.model import SECTIONS, Context, Finding, Loc
from deckcheck.rules.checks import Line, Resolved, card_ref, group_by_card, total


def check_languages(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1: only cards of the OCG (ja), the TCG (en fr it es pt de) and the Korean OCG (ko) may be used; at a TCG
    event, TCG cards only."""
    allowed = deck.ruleset.languages
    groups: dict[str, list[Line]] = {}
    for line in deck.lines:
        if line.language not in allowed:
            groups.setdefault(line.language, []).append(line)
    for language, group in sorted(groups.items()):
        cards = group_by_card((line, line.card) for line in group if line.card is not None)
        refs = tuple(card_ref(card, total(card_lines)) for card, card_lines in cards.items())
        ctx = {"language": language, "count": total(group), "allowed": list(allowed)}
        yield Finding("language_not_allowed", group[0].section, tuple(line.loc for line in group), refs, ctx)


def check_protectors(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1 ※ and TR 3: opaque protectors when languages are mixed; identical sleeves on every card when used."""
    protectors = context.protectors
    per_language = deck.languages
    if len(per_language) > 1 and not (protectors is not None and protectors.used and protectors.opaque_back):
        # Most copies first, Japanese before others on a tie: the cards that stand out are the ones to point at.
        ranked = sorted(per_language, key=lambda lang: (-per_language[lang], lang != "ja", lang))
        odd = tuple(line.loc for line in deck.lines if line.language != ranked[0])
        yield Finding("opaque_protectors_required", None, odd, ctx={"languages": sorted(per_language)})
    if protectors is not None and protectors.used and not protectors.uniform:
        whole_deck: tuple[Loc, ...] = tuple((section,) for section in SECTIONS if deck.sizes[section])
        yield Finding("protectors_not_uniform", None, whole_deck)


CHECKS = (check_languages, check_protectors)
CODES = frozenset({"language_not_allowed", "opaque_protectors_required", "protectors_not_uniform"})
