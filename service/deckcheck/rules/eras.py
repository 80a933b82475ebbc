"""Which rules govern an event: the format (OCG or TCG) and the rule era of its date.

The rules applied are the 2008-03-15 OCG tournament rules. They know Fusion and Synchro Monsters only
(TR 1 エクストラデッキ).
Later Master Rules added Xyz, Pendulum and Link Monsters and changed no other deck-construction number (40–60 / 15 /
15, three copies, the Forbidden/Limited/Semi-Limited statuses). Each of those types is allowed from the day its
first card was printed in the format, read from the card data, never written here: the data say when each era began.

A `Ruleset` (deckcheck.model) names what was applied and carries a note wherever the answer reaches beyond
the 2008 rules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping
from types import MappingProxyType

from deckcheck.data import Card, CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.model import FORMATS, Format, Ruleset

RULES_DATE = dt.date(2008, 3, 15)  # the date of the 2008 OCG tournament rules
RULES_ID = f"ocg-{RULES_DATE.isoformat()}"  # those rules as written
RULES_TYPES = ("fusion", "synchro")  # TR 1: the extra deck holds 融合モンスター and シンクロモンスター
LATER_TYPES = ("xyz", "pendulum", "link")  # in the order the Master Rules added them
# TR 1: 遊戯王OCG (ja), the TCG in English, French, Italian, Spanish, Portuguese, German, and the Korean OCG.
OCG_LANGUAGES = ("ja", "en", "fr", "it", "es", "pt", "de", "ko")
# A TCG event takes TCG cards only: Japanese and Korean cards are OCG cards.
TCG_LANGUAGES = ("en", "fr", "it", "es", "pt", "de")


def first_printing(card: Card, fmt: Format) -> dt.date | None:
    """The card's first printing in the format: Japanese for the OCG, any TCG language for the TCG."""
    return card.ja_first_print if fmt == "ocg" else card.tcg_first_print


def first_printing_exact(card: Card, fmt: Format) -> bool:
    """Whether the day of `first_printing` is the printing's own, or one the card came after (`printed_by`)."""
    return card.ja_first_print_exact if fmt == "ocg" else card.tcg_first_print_exact


def first_day_printed(card: Card, fmt: Format) -> dt.date | None:
    """The first day `printed_in` holds: the day of the card's first printing in the format, or the day after one
    that is not exact; None when it never does."""
    first = first_printing(card, fmt)
    if first is None or (fmt == "tcg" and not card.tcg):
        return None
    return first if first_printing_exact(card, fmt) else first + dt.timedelta(days=1)


def printed_by(first: dt.date | None, exact: bool, day: dt.date) -> bool:
    """Whether a card whose first printing (in a format) is `first` had been printed by `day` (TR 1 ※: only cards
    printed by the day of the event may be used). An exact date is the day of the printing itself; one that is not
    exact is a day the card came after, at a day unknown (`first_printing_date_exact`: false), so it is printed on
    no day up to and including it. The bundled data give that date to every card whose first printing they do not
    know: the day the printing data end (cards/printings.json, scripts/build_data.py), on which they are complete.
    After that day the data cannot tell, and the card is taken as printed: what the answers say of printings that
    may be missing (CardIndex.may_lack_printings, rules/checks.py `_printings_until`) covers the same days."""
    return first is not None and (first <= day if exact else first < day)


def printed_in(card: Card, fmt: Format, day: dt.date) -> bool:
    """Whether the card existed in the format on `day`: printed by then (`printed_by`), and for the TCG a TCG
    card."""
    if fmt == "ocg":
        return printed_by(first_printing(card, fmt), first_printing_exact(card, fmt), day)
    return card.tcg and printed_in_tcg(card, day)


def printed_in_tcg(card: Card, day: dt.date) -> bool:
    """Whether the card had a TCG printing, in any TCG language, by `day` (`printed_by`): what TR 3 代用カード holds
    a card presented in a TCG language to."""
    return printed_by(card.tcg_first_print, card.tcg_first_print_exact, day)


def types_in_force(card: Card, types: Collection[str]) -> bool:
    """Whether every type of `card` is among `types`, the card types of a ruleset."""
    return all(kind in types for kind in card.types())


@kept_with(maxsize=4)
def era_starts(cards: CardIndex) -> Mapping[Format, Mapping[str, dt.date]]:
    """Per format, the first printing of a card of each later type: the day that type came into force."""
    starts: dict[Format, dict[str, dt.date]] = {fmt: {} for fmt in FORMATS}
    for passcode in cards.aliases:  # canonical cards only
        card = cards.by_passcode[passcode]
        for kind in card.types():
            if kind not in LATER_TYPES:
                continue
            for fmt in FORMATS:
                printed = first_printing(card, fmt)
                if printed is not None and (kind not in starts[fmt] or printed < starts[fmt][kind]):
                    starts[fmt][kind] = printed
    return MappingProxyType({fmt: MappingProxyType(found) for fmt, found in starts.items()})


@kept_with(maxsize=1024)
def ruleset_for(cards: CardIndex, fmt: Format, day: dt.date) -> Ruleset:
    """The rules in force for an event of the format `fmt` on `day`."""
    starts = era_starts(cards)[fmt]
    since = {kind: starts[kind] for kind in LATER_TYPES if kind in starts and starts[kind] <= day}
    began = max(since.values(), default=RULES_DATE)
    notes = []
    if day < RULES_DATE:
        notes.append("before_seeds")
    if since:
        notes.append("later_card_types")
    if fmt == "tcg":
        notes.append("tcg_event")
    return Ruleset(
        id=f"{fmt}-{began.isoformat()}",
        format=fmt,
        card_types=(*RULES_TYPES, *since),
        languages=OCG_LANGUAGES if fmt == "ocg" else TCG_LANGUAGES,
        since=MappingProxyType(since),
        notes=tuple(notes),
    )


def eras(cards: CardIndex, fmt: Format) -> list[tuple[dt.date | None, dt.date | None, Ruleset]]:
    """The rule eras of the format, oldest first: (from, until, the rules in force), from None for the first."""
    starts = sorted(set(era_starts(cards)[fmt].values()))
    bounds = [None, *starts]
    return [
        (start, until, ruleset_for(cards, fmt, start or RULES_DATE))
        for start, until in zip(bounds, [*starts, None], strict=True)
    ]
