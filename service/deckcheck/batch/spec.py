"""What every deck of a batch is checked against, and the same as settings that cross to worker processes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from deckcheck.data import Banlist, Data
from deckcheck.model import Format
from deckcheck.wire.inputs import date_notes, named_list


@dataclass(frozen=True, slots=True)
class RecheckSetup:
    """What every deck of a batch is checked against."""

    date: dt.date
    banlist: Banlist | None
    previous: Banlist | None = None
    lang: str = "en"
    format: Format = "ocg"
    notes: tuple[str, ...] = ()  # as Context.notes


@dataclass(frozen=True, slots=True)
class BatchSpec:
    """A recheck's settings in a form that crosses to worker processes: list ids or inline lists as JSON."""

    date: dt.date
    banlist: str | None
    previous: str | None
    lang: str = "en"
    format: Format = "ocg"
    notes: tuple[str, ...] = ()  # as Context.notes

    def setup(self, data: Data, where: tuple[str, ...] = ()) -> RecheckSetup:
        """The setup these settings name; an unknown list id, a list of the other format or a bad inline list
        raises RequestError located under `where` (("query",) for the HTTP route's parameters)."""
        fmt = self.format
        chosen = named_list(self.banlist, fmt, data, [*where, "banlist"])
        notes: tuple[str, ...] = ()
        if chosen is None:
            chosen = data.banlists.in_force(self.date, fmt)
            notes = date_notes(chosen, self.date, data)
        previous = named_list(self.previous, fmt, data, [*where, "previous"])
        return RecheckSetup(self.date, chosen, previous, self.lang, fmt, notes)
