"""Letting go of what the rules worked out from loaded data, when a reload replaces the data (api/served.py)."""

from __future__ import annotations

from deckcheck.rules import engine, facts, fast
from deckcheck.rules.eras import era_starts, ruleset_for


def forget_data() -> None:
    """Let go of everything the rules worked out from loaded data (card tables, limits per name, rule eras), so
    that data a reload replaced can be freed; the data now served work theirs out again on first use."""
    for cached in (
        engine.cards_by_passcode,
        fast.card_table,
        facts.card_arrays,
        facts.name_limits,
        era_starts,
        ruleset_for,
    ):
        cached.cache_clear()
