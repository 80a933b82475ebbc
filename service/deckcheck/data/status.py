"""What an operator asks of the data: their version, the updates laid over them, the newest list of each format with
the day a newer one may be due, until when the card printings are complete, and what looks out of date on a day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.data.banlists import FORMATS
from deckcheck.data.loader import Data


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


def data_status(data: Data, day: dt.date) -> dict[str, Any]:
    """Everything above, for /healthz and `deckcheck data status`."""
    until = data.cards.printings_until
    return {
        "cards": len(data.cards),
        "banlists": len(data.banlists.by_id),
        "imports": len(data.imports),
        "newest_lists": newest_lists(data, day),
        "printings_complete_until": None if until is None else until.isoformat(),
        "printings_may_be_missing": data.cards.may_lack_printings(day),
    }
