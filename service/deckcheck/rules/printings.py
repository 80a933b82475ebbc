"""The printing rules: a card must exist, in the format and in the language it is presented in, on the event date.

TR 1 ※ lets an OCG event take foreign cards only if a Japanese version exists; TR 3 forbids proxies (代用カード), and a
card in a language it had not been printed in by the event date can only be one. A TCG event takes TCG cards (a
reading beyond the seeds, which rules/eras.py notes in every TCG answer).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.model import Context, Finding
from deckcheck.rules.checks import Line, Resolved, card_finding
from deckcheck.rules.eras import TCG_LANGUAGES


def check_japanese_printing(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1 ※ (OCG): a card with no Japanese version, or none yet on the event date, may not be used in any
    language."""
    if context.format != "ocg":
        return
    for card, group in deck.by_card.items():
        first = card.ja_first_print
        if first is None or first > context.date:
            yield card_finding(
                "no_japanese_printing",
                card,
                group,
                date=context.date.isoformat(),
                first_japanese_printing=None if first is None else first.isoformat(),
                first_printing_date_exact=card.ja_first_print_exact,
            )


def check_tcg_printing(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TCG events (by analogy with TR 1 ※): a card must be a TCG card with a TCG printing on the event date."""
    if context.format != "tcg":
        return
    for card, group in deck.by_card.items():
        first = card.tcg_first_print
        if not card.tcg or first is None or first > context.date:
            yield card_finding(
                "no_tcg_printing",
                card,
                group,
                date=context.date.isoformat(),
                first_tcg_printing=None if first is None else first.isoformat(),
                first_printing_date_exact=card.tcg_first_print_exact,
            )


def check_language_printing(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 3 代用カード: a card presented in a TCG language must have been printed in the TCG by the event date.

    Japanese cards are held to their printing by no_japanese_printing, and at a TCG event every card is held to its
    TCG printing by no_tcg_printing, so neither is reported twice here. Korean printings have no dates in the data
    and are not checked."""
    if context.format != "ocg" or deck.languages.keys().isdisjoint(TCG_LANGUAGES):
        return
    for card, group in deck.by_card.items():
        first = card.tcg_first_print
        if first is not None and first <= context.date:
            continue
        foreign: list[Line] = [line for line in group if line.language in TCG_LANGUAGES]
        if foreign:
            yield card_finding(
                "not_printed_in_language",
                card,
                foreign,
                date=context.date.isoformat(),
                languages=sorted({line.language for line in foreign}),
                first_tcg_printing=None if first is None else first.isoformat(),
                first_printing_date_exact=card.tcg_first_print_exact,
            )


CHECKS = (check_japanese_printing, check_tcg_printing, check_language_printing)
CODES = frozenset({"no_japanese_printing", "no_tcg_printing", "not_printed_in_language"})
