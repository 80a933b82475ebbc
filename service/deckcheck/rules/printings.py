"""The printing rules: a card must exist, in the format and in the language it is presented in, on the event date.

TR 1 ※ lets an OCG event take foreign cards only if a Japanese version exists; TR 3 forbids proxies (代用カード), and a
card in a language it had not been printed in by the event date can only be one. A TCG event takes TCG cards (a
reading beyond the 2008 rules, which rules/eras.py notes in every TCG answer).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from deckcheck.model import Context, Finding
from deckcheck.rules.checks import Line, Resolved, card_finding
from deckcheck.rules.eras import TCG_LANGUAGES, first_printing, first_printing_exact, printed_in, printed_in_tcg

# Per format: the code for a card not printed in it by the event date, and the ctx key of its first printing.
_FORMAT_PRINTING = {
    "ocg": ("no_japanese_printing", "first_japanese_printing"),
    "tcg": ("no_tcg_printing", "first_tcg_printing"),
}


def check_format_printing(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1 ※: at an OCG event, a card with no Japanese version, or none yet on the event date, may not be used in
    any language; at a TCG event (by analogy), a card must be a TCG card with a TCG printing on the event date. A
    card whose first printing the data do not know had none up to and including the day the printing data end
    (rules/eras.py `printed_by`)."""
    fmt = context.format
    code, key = _FORMAT_PRINTING[fmt]
    for card, group in deck.by_card.items():
        if not printed_in(card, fmt, context.date):
            first = first_printing(card, fmt)
            ctx = {
                "date": context.date.isoformat(),
                key: None if first is None else first.isoformat(),
                "first_printing_date_exact": first_printing_exact(card, fmt),
            }
            yield replace(card_finding(code, card, group), ctx=ctx)


def check_language_printing(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 3 代用カード: a card presented in a TCG language must have been printed in the TCG by the event date.

    Japanese cards are held to their printing by no_japanese_printing, and at a TCG event every card is held to its
    TCG printing by no_tcg_printing, so neither is reported twice here. Korean printings have no dates in the data
    and are not checked. A card whose first TCG printing the data do not know had none up to and including the day
    the printing data end (rules/eras.py `printed_by`)."""
    if context.format != "ocg" or deck.languages.keys().isdisjoint(TCG_LANGUAGES):
        return
    for card, group in deck.by_card.items():
        if printed_in_tcg(card, context.date):
            continue
        first = card.tcg_first_print
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


CHECKS = (check_format_printing, check_language_printing)
CODES = frozenset({"no_japanese_printing", "no_tcg_printing", "not_printed_in_language"})
