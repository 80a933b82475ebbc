"""One card as the rules see it: names, kind, extra-deck type and first printings."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One canonical card. Alternate passcodes resolve to the same object, and there is one object per card, so
    cards compare and hash by identity (hashing every field would make it the engine's hottest line)."""

    passcode: int
    name_ja: str
    name_en: str
    kind: str
    extra_deck_type: str
    pendulum: bool
    official_passcode: bool
    ocg: bool
    tcg: bool
    ja_first_print: dt.date | None
    ja_first_print_exact: bool
    tcg_first_print: dt.date | None
    tcg_first_print_exact: bool
    provisional: bool = False  # a pre-release card under a provisional passcode, until its final one is imported

    def types(self) -> tuple[str, ...]:
        """The monster types that decide where the card goes and from when it exists: its extra-deck type (fusion,
        synchro, xyz, link) and pendulum."""
        kind = () if self.extra_deck_type == "none" else (self.extra_deck_type,)
        return (*kind, "pendulum") if self.pendulum else kind

    def name(self, lang: str) -> str:
        """The card's name in `lang` (ja or en); TCG-only cards have no Japanese name."""
        if lang == "ja" and self.name_ja:
            return self.name_ja
        return self.name_en or self.name_ja  # a card imported with Japanese names only has no English one
