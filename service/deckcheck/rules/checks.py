"""The deck rules of the 2008 OCG tournament rules, one small function each.

A check sees the resolved deck lines and the event context and yields what it finds; the engine attaches the
penalty and citation from the registry. Every check is independent, so a deck gets every violation at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

from deckcheck.data import MAX_COPIES, Banlist, Card, normalize_name
from deckcheck.limits import NameBudget
from deckcheck.model import SECTIONS, CardRef, Context, Entry, Finding, Loc, Section

# TR 3 デッキの枚数制限 and TR 1 エクストラデッキ / サイドデッキ.
MAIN_MIN, MAIN_MAX, EXTRA_MAX, SIDE_MAX = 40, 60, 15, 15
# TR 1: the extra deck is made of 融合モンスターカード and シンクロモンスターカード; nothing else existed in 2008.
EXTRA_DECK_TYPES = frozenset({"fusion", "synchro"})
# TR 1: 遊戯王OCG (ja), the TCG in English, French, Italian, Spanish, Portuguese, German, and the Korean OCG.
LANGUAGES = ("ja", "en", "fr", "it", "es", "pt", "de", "ko")
_LIMIT_CODES = {0: "forbidden_card", 1: "limited_card_exceeded", 2: "semi_limited_card_exceeded"}


class Line(NamedTuple):
    """One input entry with its card resolved (None when it names no official card) and whether the card rules
    apply to it (an official card of a type these rules know)."""

    section: Section
    position: int
    entry: Entry
    card: Card | None
    language: str
    playable: bool
    unknown_reason: str | None = None

    @property
    def loc(self) -> Loc:
        """Where the entry stands in the input."""
        return (self.section, self.position)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A deck with every entry resolved, and what several rules read, worked out in one pass."""

    lines: tuple[Line, ...]
    by_card: dict[Card, list[Line]]  # lines of each card the card rules apply to, in input order
    copies: dict[Card, int]  # copies of each such card over main, extra and side
    misplaced: dict[Card, list[Line]]  # lines of extra-deck cards in the main deck and of others in the extra deck
    sizes: dict[str, int]  # cards in each section
    languages: dict[str, int]  # cards in each language


def resolved(lines: Sequence[Line]) -> Resolved:
    """Group `lines` by card and count copies, section sizes and languages in one pass."""
    by_card: dict[Card, list[Line]] = {}
    copies: dict[Card, int] = {}
    misplaced: dict[Card, list[Line]] = {}
    sizes: dict[str, int] = dict.fromkeys(SECTIONS, 0)
    languages: dict[str, int] = {}
    for line in lines:
        count = line.entry.count
        sizes[line.section] += count
        languages[line.language] = languages.get(line.language, 0) + count
        card = line.card
        if not line.playable or card is None:
            continue
        if card in by_card:
            by_card[card].append(line)
            copies[card] += count
        else:
            by_card[card] = [line]
            copies[card] = count
        if line.section == ("extra" if card.extra_deck_type == "none" else "main"):
            misplaced.setdefault(card, []).append(line)
    return Resolved(tuple(lines), by_card, copies, misplaced, sizes, languages)


Check = Callable[[Resolved, Context], Iterator[Finding]]


def disallowed_type(card: Card) -> str | None:
    """The card type these rules do not know (xyz, link, pendulum), or None for a card they know."""
    if card.extra_deck_type not in EXTRA_DECK_TYPES | {"none"}:
        return card.extra_deck_type
    return "pendulum" if card.pendulum else None


def _ref(card: Card, count: int, limit: int | None = None) -> CardRef:
    return CardRef(card.passcode, card.name_en, card.name_ja, count, limit)


def _by_card(pairs: Iterable[tuple[Line, Card]]) -> dict[Card, list[Line]]:
    groups: dict[Card, list[Line]] = {}
    for line, card in pairs:
        groups.setdefault(card, []).append(line)
    return groups


def _total(lines: Iterable[Line]) -> int:
    return sum(line.entry.count for line in lines)


def _card_finding(code: str, card: Card, lines: list[Line], allowed: int | None = None, **ctx: object) -> Finding:
    """A finding about one card, pointing at every entry of it; `allowed` is the copies its limit allows."""
    ref = _ref(card, _total(lines), allowed)
    return Finding(code, lines[0].section, tuple(line.loc for line in lines), (ref,), dict(ctx))


def check_sizes(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 3 デッキの枚数制限: main 40–60, extra 0–15, side 0–15 (TR 4.14, 4.15)."""
    counts = deck.sizes
    if counts["main"] < MAIN_MIN:
        yield Finding("main_deck_too_small", "main", (("main",),), ctx={"count": counts["main"], "min": MAIN_MIN})
    if counts["main"] > MAIN_MAX:
        yield Finding("main_deck_too_large", "main", (("main",),), ctx={"count": counts["main"], "max": MAIN_MAX})
    if counts["extra"] > EXTRA_MAX:
        yield Finding("extra_deck_too_large", "extra", (("extra",),), ctx={"count": counts["extra"], "max": EXTRA_MAX})
    if counts["side"] > SIDE_MAX:
        yield Finding("side_deck_too_large", "side", (("side",),), ctx={"count": counts["side"], "max": SIDE_MAX})


def check_card_types(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1: a card of a type the 2008 rules do not know gets card_type_not_allowed and no other card rule."""
    # An official card the card rules do not apply to is one of a type these rules do not know.
    unknown_types = ((line, line.card) for line in deck.lines if line.card is not None and not line.playable)
    for card, group in _by_card(unknown_types).items():
        yield _card_finding("card_type_not_allowed", card, group, type=disallowed_type(card))


def check_placement(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1 エクストラデッキ: Fusion and Synchro Monsters go in the extra deck and nothing else does."""
    for card, lines in deck.misplaced.items():
        if card.extra_deck_type != "none":
            yield _card_finding("extra_deck_card_in_main_deck", card, lines, type=card.extra_deck_type)
        else:
            yield _card_finding("main_deck_card_in_extra_deck", card, lines)


def check_copies(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 3 枚数制限のあるカード, PR 3.A.2–4: copies of one card over main, extra and side, by the list in force."""
    banlist = context.banlist
    limits = {} if banlist is None else banlist.limits
    for card, count in deck.copies.items():
        if count <= MAX_COPIES and count <= limits.get(card.passcode, MAX_COPIES):
            continue
        yield copy_finding(card, count, tuple(line.loc for line in deck.by_card[card]), banlist)


def copy_finding(card: Card, count: int, locs: tuple[Loc, ...], banlist: Banlist | None) -> Finding:
    """The one copy rule `count` copies of `card` break: the list's status, else the three-copy rule."""
    limit = MAX_COPIES if banlist is None else min(MAX_COPIES, banlist.limit(card.passcode))
    ref = (_ref(card, count, limit),)
    section = cast(Section, locs[0][0])
    if banlist is not None and limit in _LIMIT_CODES:
        ctx: dict[str, object] = {"count": count, "limit": limit, "banlist": banlist.id, "banlist_name": banlist.name}
        return Finding(_LIMIT_CODES[limit], section, locs, ref, ctx)
    return Finding("too_many_copies", section, locs, ref, {"count": count, "limit": limit})


def _unknown_key(entry: Entry) -> tuple[int | None, str | None]:
    return entry.passcode, None if entry.name is None else normalize_name(entry.name)


def check_unknown(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 3 代用カードの使用禁止: every card must be an official card; unresolved entries are named with hints (the
    closest names, for the first SUGGESTED_NAMES distinct names of the deck)."""
    groups: dict[tuple[int | None, str | None], list[Line]] = {}
    for line in deck.lines:
        if line.card is None:
            groups.setdefault(_unknown_key(line.entry), []).append(line)
    budget = NameBudget()  # bounded work per deck: the first names get suggestions, the rest say they have none
    for group in groups.values():
        entry = group[0].entry
        hits, omitted = budget.suggestions(entry.name, context.cards.search)
        label = entry.name if entry.name is not None else str(entry.passcode)
        yield Finding(
            "unknown_card",
            group[0].section,
            tuple(line.loc for line in group),
            (CardRef(entry.passcode, label, label, _total(group)),),
            {
                "passcode": entry.passcode,
                "name": entry.name,
                "reason": group[0].unknown_reason,
                "suggestions": [
                    {"passcode": h.card.passcode, "name_en": h.card.name_en, "name_ja": h.card.name_ja} for h in hits
                ],
                "suggestions_omitted": omitted,
            },
        )


def check_languages(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1: only cards of the OCG (ja), the TCG (en fr it es pt de) and the Korean OCG (ko) may be used."""
    groups: dict[str, list[Line]] = {}
    for line in deck.lines:
        if line.language not in LANGUAGES:
            groups.setdefault(line.language, []).append(line)
    for language, group in sorted(groups.items()):
        cards = _by_card((line, line.card) for line in group if line.card is not None)
        refs = tuple(_ref(card, _total(card_lines)) for card, card_lines in cards.items())
        ctx = {"language": language, "count": _total(group), "allowed": list(LANGUAGES)}
        yield Finding("language_not_allowed", group[0].section, tuple(line.loc for line in group), refs, ctx)


def check_japanese_printing(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1 ※: a card with no Japanese version, or none yet on the event date, may not be used in any language."""
    for card, group in deck.by_card.items():
        first = card.ja_first_print
        if first is None or first > context.date:
            yield _card_finding(
                "no_japanese_printing",
                card,
                group,
                date=context.date.isoformat(),
                first_japanese_printing=None if first is None else first.isoformat(),
                first_printing_date_exact=card.ja_first_print_exact,
            )


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


CHECKS: tuple[Check, ...] = (
    check_sizes,
    check_card_types,
    check_placement,
    check_copies,
    check_unknown,
    check_languages,
    check_japanese_printing,
    check_protectors,
)

# Every code the checks above yield; the catalogue must describe exactly these and the roster's.
CODES = frozenset(
    {
        "main_deck_too_small",
        "main_deck_too_large",
        "extra_deck_too_large",
        "side_deck_too_large",
        "card_type_not_allowed",
        "extra_deck_card_in_main_deck",
        "main_deck_card_in_extra_deck",
        "too_many_copies",
        *_LIMIT_CODES.values(),
        "unknown_card",
        "language_not_allowed",
        "no_japanese_printing",
        "opaque_protectors_required",
        "protectors_not_uniform",
    }
)
