"""What every deck of a batch is checked against, and the same as settings that cross to worker processes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from deckcheck.data import Banlist, Data
from deckcheck.wire import named_list


@dataclass(frozen=True, slots=True)
class RecheckSetup:
    """What every deck of a batch is checked against."""

    date: dt.date
    banlist: Banlist | None
    previous: Banlist | None = None
    lang: str = "en"


@dataclass(frozen=True, slots=True)
class BatchSpec:
    """A recheck's settings in a form that crosses to worker processes: list ids or inline lists as JSON."""

    date: dt.date
    banlist: str | None
    previous: str | None
    lang: str = "en"

    def setup(self, data: Data) -> RecheckSetup:
        """The setup these settings name; an unknown list id or a bad inline list raises RequestError."""
        chosen = named_list(self.banlist, data, ["banlist"]) or data.banlists.in_force(self.date)
        return RecheckSetup(self.date, chosen, named_list(self.previous, data, ["previous"]), self.lang)
