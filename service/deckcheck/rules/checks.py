"""The deck rules of the 2008 OCG tournament rules, one small function each (the language rules are in
rules/languages.py, the printing rules in rules/printings.py).

A check sees the resolved deck lines and the event context and yields what it finds; the engine attaches the
penalty and citation from the registry. Every check is independent, so a deck gets every violation at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

from deckcheck.data import MAX_COPIES, Banlist, Card, CardIndex, normalize_name
from deckcheck.data.search import Hit
from deckcheck.deck_limits import NameBudget
from deckcheck.model import SECTIONS, CardRef, Context, Entry, Finding, Loc, Ruleset, Section

# TR 3 デッキの枚数制限 and TR 1 エクストラデッキ / サイドデッキ.
MAIN_MIN, MAIN_MAX, EXTRA_MAX, SIDE_MAX = 40, 60, 15, 15
_LIMIT_CODES = {0: "forbidden_card", 1: "limited_card_exceeded", 2: "semi_limited_card_exceeded"}


class Line(NamedTuple):
    """One input entry with its card resolved (None when it names no official card) and whether the card rules
    apply to it (an official card of a type the rules in force know)."""

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
    """A deck with every entry resolved, the rules in force, and what several rules read, worked out in one pass."""

    ruleset: Ruleset
    lines: tuple[Line, ...]
    by_card: dict[Card, list[Line]]  # lines of each card the card rules apply to, in input order
    copies: dict[Card, int]  # copies of each such card over main, extra and side
    misplaced: dict[Card, list[Line]]  # lines of extra-deck cards in the main deck and of others in the extra deck
    sizes: dict[str, int]  # cards in each section
    languages: dict[str, int]  # cards in each language


def resolved(lines: Sequence[Line], ruleset: Ruleset) -> Resolved:
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
    return Resolved(ruleset, tuple(lines), by_card, copies, misplaced, sizes, languages)


Check = Callable[[Resolved, Context], Iterator[Finding]]


def card_ref(card: Card, count: int, limit: int | None = None) -> CardRef:
    return CardRef(card.passcode, card.name_en, card.name_ja, count, limit)


def group_by_card(pairs: Iterable[tuple[Line, Card]]) -> dict[Card, list[Line]]:
    groups: dict[Card, list[Line]] = {}
    for line, card in pairs:
        groups.setdefault(card, []).append(line)
    return groups


def total(lines: Iterable[Line]) -> int:
    return sum(line.entry.count for line in lines)


def card_finding(code: str, card: Card, lines: list[Line], allowed: int | None = None, **ctx: object) -> Finding:
    """A finding about one card, pointing at every entry of it; `allowed` is the copies its limit allows."""
    ref = card_ref(card, total(lines), allowed)
    return Finding(code, lines[0].section, tuple(line.loc for line in lines), (ref,), dict(ctx))


def check_sizes(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 3 デッキの枚数制限: main 40–60, extra 0–15, side 0–15 (TR 4.14, 4.15)."""
    return size_findings(deck.sizes)


def size_findings(counts: dict[str, int]) -> Iterator[Finding]:
    """What check_sizes finds in a deck of these section sizes."""
    if counts["main"] < MAIN_MIN:
        yield Finding("main_deck_too_small", "main", (("main",),), ctx={"count": counts["main"], "min": MAIN_MIN})
    if counts["main"] > MAIN_MAX:
        yield Finding("main_deck_too_large", "main", (("main",),), ctx={"count": counts["main"], "max": MAIN_MAX})
    if counts["extra"] > EXTRA_MAX:
        yield Finding("extra_deck_too_large", "extra", (("extra",),), ctx={"count": counts["extra"], "max": EXTRA_MAX})
    if counts["side"] > SIDE_MAX:
        yield Finding("side_deck_too_large", "side", (("side",),), ctx={"count": counts["side"], "max": SIDE_MAX})


def check_card_types(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1: a card of a type the rules in force do not know (the 2008 rules: Xyz, Pendulum and Link; later eras,
    rules/eras.py, fewer) gets card_type_not_allowed and no other card rule."""
    # An official card the card rules do not apply to is one of a type these rules do not know.
    unknown_types = ((line, line.card) for line in deck.lines if line.card is not None and not line.playable)
    for card, group in group_by_card(unknown_types).items():
        yield type_finding(card, tuple(line.loc for line in group), total(group), deck.ruleset)


def type_finding(card: Card, locs: tuple[Loc, ...], count: int, ruleset: Ruleset) -> Finding:
    """What check_card_types finds of `card`, whose `count` copies at `locs` are of a type `ruleset` does not know."""
    ctx: dict[str, object] = {"type": ruleset.disallowed_type(card)}
    return Finding("card_type_not_allowed", cast(Section, locs[0][0]), locs, (card_ref(card, count),), ctx)


def check_placement(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 1 エクストラデッキ: Fusion and Synchro Monsters (and, in their eras, Xyz and Link Monsters) go in the extra
    deck and nothing else does; a Pendulum Monster goes where its base type goes."""
    for card, lines in deck.misplaced.items():
        yield placement_finding(card, tuple(line.loc for line in lines), total(lines))


def placement_finding(card: Card, locs: tuple[Loc, ...], count: int) -> Finding:
    """What check_placement finds of `card`, whose `count` copies at `locs` stand where it may not."""
    section = cast(Section, locs[0][0])
    if card.extra_deck_type != "none":
        ctx: dict[str, object] = {"type": card.extra_deck_type}
        return Finding("extra_deck_card_in_main_deck", section, locs, (card_ref(card, count),), ctx)
    return Finding("main_deck_card_in_extra_deck", section, locs, (card_ref(card, count),), {})


def check_copies(deck: Resolved, context: Context) -> Iterator[Finding]:
    """TR 3 枚数制限のあるカード, PR 3.A.2–4: copies of one card over main, extra and side, by the list in force.
    同名カード are cards of one name: two cards that share a name count together, and a status reaches both."""
    banlist = context.banlist
    limits = {} if banlist is None else banlist.by_name
    unlisted = MAX_COPIES if banlist is None else banlist.unlisted
    namesakes = context.cards.namesakes
    shared: dict[int, list[Card]] = {}  # the few cards that share their name with another, by name
    for card, count in deck.copies.items():
        if card.passcode in namesakes:
            shared.setdefault(context.cards.name_id(card.passcode), []).append(card)
        elif count > MAX_COPIES or count > limits.get(card.passcode, unlisted):
            locs = tuple(line.loc for line in deck.by_card[card])
            yield copy_finding(((card, count),), locs, banlist, context.cards)
    for name_id, cards in shared.items():
        if sum(deck.copies[card] for card in cards) <= name_limit(name_id, banlist):
            continue
        lines = sorted((line for card in cards for line in deck.by_card[card]), key=_input_order)
        held = tuple((card, deck.copies[card]) for card in cards)
        yield copy_finding(held, tuple(line.loc for line in lines), banlist, context.cards)


def _input_order(line: Line) -> tuple[int, int]:
    return SECTIONS.index(line.section), line.position


def name_limit(name_id: int, banlist: Banlist | None) -> int:
    """How many copies of the cards of one name a deck may hold: three, or fewer if the list says so."""
    return MAX_COPIES if banlist is None else min(MAX_COPIES, banlist.name_limit(name_id))


def copy_finding(
    held: tuple[tuple[Card, int], ...], locs: tuple[Loc, ...], banlist: Banlist | None, cards: CardIndex
) -> Finding:
    """The one copy rule the copies `held` of the cards of one name break: the list's status, else the three-copy
    rule. Each card of the name is named with its own copies."""
    count = sum(copies for _card, copies in held)
    limit = name_limit(cards.name_id(held[0][0].passcode), banlist)
    refs = tuple(card_ref(card, copies, limit) for card, copies in held)
    section = cast(Section, locs[0][0])
    if banlist is not None and limit in _LIMIT_CODES:
        ctx: dict[str, object] = {"count": count, "limit": limit, "banlist": banlist.id, "banlist_name": banlist.name}
        return Finding(_LIMIT_CODES[limit], section, locs, refs, ctx)
    return Finding("too_many_copies", section, locs, refs, {"count": count, "limit": limit})


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
        locs = tuple(line.loc for line in group)
        yield unknown_finding(entry, locs, total(group), group[0].unknown_reason, context, hits=hits, omitted=omitted)


def unknown_finding(
    entry: Entry,
    locs: tuple[Loc, ...],
    count: int,
    reason: str | None,
    context: Context,
    *,
    hits: tuple[Hit, ...] = (),
    omitted: bool = False,
) -> Finding:
    """What check_unknown finds of the `count` copies at `locs` of an entry naming no official card, for `reason`,
    with the closest names (`hits`) or whether the deck's budget of names left it without them (`omitted`)."""
    label = entry.name if entry.name is not None else str(entry.passcode)
    return Finding(
        "unknown_card",
        cast(Section, locs[0][0]),
        locs,
        (CardRef(entry.passcode, label, label, count),),
        {
            "passcode": entry.passcode,
            "name": entry.name,
            "reason": reason,
            "suggestions": [
                {"passcode": h.card.passcode, "name_en": h.card.name_en, "name_ja": h.card.name_ja} for h in hits
            ],
            "suggestions_omitted": omitted,
            **(_printings_until(context) if reason == "unknown_passcode" else {}),
        },
    )


def _printings_until(context: Context) -> dict[str, str]:
    """The day the card data are complete until, when the event is later: a passcode no card has may be a card
    printed since."""
    cards = context.cards
    if cards.printings_until is None or not cards.may_lack_printings(context.date):
        return {}
    return {"printings_complete_until": cards.printings_until.isoformat()}


CHECKS: tuple[Check, ...] = (
    check_sizes,
    check_card_types,
    check_placement,
    check_copies,
    check_unknown,
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
    }
)
