"""What an operator asks of the data: their version, the updates laid over them, the newest list of each format with
the day a newer one may be due, the list in force on a day, until when the card printings are complete, and what
looks out of date on that day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from deckcheck.data.banlists import FORMATS
from deckcheck.data.loader import Data
from deckcheck.data.memo import kept_with


def newest_lists(data: Data, day: dt.date) -> list[dict[str, Any]]:
    """Per format, the list that starts last, when a list after it may be due, and whether on `day` one may be."""
    found = []
    for fmt in (name.lower() for name in FORMATS):
        lists = data.banlists.of_format(fmt)
        if not lists:
            continue
        newest = lists[-1]
        due = data.cadence.next_list(newest)
        found.append(
            {
                "format": fmt,
                "id": newest.id,
                "name": newest.name,
                "effective_from": None if newest.effective_from is None else newest.effective_from.isoformat(),
                "next_list_due": None if due is None else due.isoformat(),
                "may_be_outdated": data.cadence.may_be_outdated(newest, day),
            }
        )
    return found


def lists_in_force(data: Data, day: dt.date) -> list[dict[str, Any]]:
    """Per format, the list in force on `day`, the day it began, and whether a newer one may be in force (only the
    newest list may be outdated: a later one is held)."""
    found = []
    for fmt in (name.lower() for name in FORMATS):
        banlist = data.banlists.in_force(day, fmt)
        if banlist is None or banlist.effective_from is None:
            continue
        newest = data.banlists.of_format(fmt)[-1]
        found.append(
            {
                "format": fmt,
                "id": banlist.id,
                "name": banlist.name,
                "effective_from": banlist.effective_from.isoformat(),
                "may_be_outdated": banlist is newest and data.cadence.may_be_outdated(newest, day),
            }
        )
    return found


@kept_with(2)  # today's, and yesterday's for a request that began before midnight
def data_status(data: Data, day: dt.date) -> Mapping[str, Any]:
    """Everything above, for /healthz and `deckcheck data status`: worked out once a day per load of the data (every
    /healthz asks for it), so never to be changed by a caller."""
    until = data.cards.printings_until
    return {
        "cards": len(data.cards),
        "banlists": len(data.banlists.by_id),
        "imports": len(data.imports),
        "lists_in_force": lists_in_force(data, day),
        "newest_lists": newest_lists(data, day),
        "printings_complete_until": None if until is None else until.isoformat(),
        "printings_may_be_missing": data.cards.may_lack_printings(day),
    }
