"""How current the data are: when a newer Forbidden/Limited list may have taken effect than the newest one known, and
until when the card printings are complete. Neither is in the tournament rules: lists change by Konami's
announcements, and the service can only say when its own may be out of date."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from deckcheck.data.banlists import Banlist


@dataclass(frozen=True, slots=True)
class Cadence:
    """When new lists usually take effect: OCG lists on the first day of these months (1 January, April, July and
    October), TCG lists every few months, so one in force this many days may have been followed by another."""

    ocg_months: tuple[int, ...] = (1, 4, 7, 10)
    tcg_days: int = 180

    def next_list(self, banlist: Banlist) -> dt.date | None:
        """The first day on which a list after `banlist` may have taken effect by the cadence of its format."""
        start = banlist.effective_from
        if start is None:
            return None
        if banlist.format.lower() == "tcg":
            left = dt.date.max - start
            return start + dt.timedelta(days=self.tcg_days) if left.days >= self.tcg_days else None
        months = sorted(set(self.ocg_months))
        for year in range(start.year, min(start.year + 1, dt.MAXYEAR) + 1):
            for month in months:
                day = dt.date(year, month, 1)
                if day > start:
                    return day
        return None  # no months: no cadence, never stale; or no day after it in the calendar

    def may_be_outdated(self, banlist: Banlist | None, day: dt.date) -> bool:
        """Whether on `day` a newer list than `banlist` may be in force: `banlist` runs on with no end and a list
        after it was due by `day`."""
        if banlist is None or banlist.effective_until is not None:
            return False
        due = self.next_list(banlist)
        return due is not None and day >= due
