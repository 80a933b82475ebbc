"""The day the service judges on: today in Japan, where the OCG's lists take effect at the start of the day."""

from __future__ import annotations

import datetime as dt

JAPAN = dt.timezone(dt.timedelta(hours=9))


def today() -> dt.date:
    """Today in Japan: the event date when none is given, and the day staleness is weighed on."""
    return dt.datetime.now(JAPAN).date()


def seconds_left_today() -> int:
    """Seconds until the day ends in Japan, when an answer for `today()` stops being today's (at least 1)."""
    now = dt.datetime.now(JAPAN)
    midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), JAPAN)
    return max(1, int((midnight - now).total_seconds()))
