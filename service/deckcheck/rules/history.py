"""A card's legality through time in one format: its status as periods, from the first day it was printed there
(TR 1 ※: only cards printed by the day of the event may be used; `first_day_printed`) to today and on, each period the
lists in force through it; and its status on one day. The list of a day is the one the checks use
(`Banlists.in_force`), so a period's status is the status every check of that day applies."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from deckcheck.data import Banlist, Banlists, Card, CardIndex
from deckcheck.model import Format
from deckcheck.rules.eras import first_day_printed, printed_in


@dataclass(frozen=True, slots=True)
class Period:
    """Days on which the card had one status: from `start` to the day before `until` (None: still so), under
    `lists` in turn; `limit` None for days no list of the format held covers (before the first held), on which the
    checks apply no list."""

    limit: int | None
    start: dt.date
    until: dt.date | None
    lists: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OnDay:
    """The card's status on one day: the list in force and the copies it allows (both None before the format's
    first list held), and whether the card was printed in the format by then."""

    banlist: Banlist | None
    limit: int | None
    printed: bool


def on_day(card: Card, cards: CardIndex, banlists: Banlists, fmt: Format, day: dt.date) -> OnDay:
    """The card's status in the format on `day` (a status reaches every card of the name)."""
    banlist = banlists.in_force(day, fmt)
    limit = None if banlist is None else banlist.name_limit(cards.name_id(card.passcode))
    return OnDay(banlist, limit, printed_in(card, fmt, day))


def periods(card: Card, cards: CardIndex, banlists: Banlists, fmt: Format) -> list[Period]:
    """The card's statuses in the format from its first printing there, oldest first, each as long as it held
    (lists in a row that give the same status make one period); none for a card never printed in the format."""
    start = first_day_printed(card, fmt)
    if start is None:
        return []
    bounds = {start}
    for banlist in banlists.of_format(fmt):
        bounds |= {day for day in (banlist.effective_from, banlist.effective_until) if day is not None and day > start}
    days = sorted(bounds)
    found: list[Period] = []
    for day, until in zip(days, [*days[1:], None], strict=True):
        status = on_day(card, cards, banlists, fmt, day)
        lists: tuple[str, ...] = () if status.banlist is None else (status.banlist.id,)
        begin = day
        if found and found[-1].limit == status.limit:
            last = found.pop()
            if last.lists[-1:] == lists:  # the same list again, split by another list's day
                lists = ()
            begin, lists = last.start, last.lists + lists
        found.append(Period(status.limit, begin, until, lists))
    return found
