"""The decks the golden cases are built from: real cards, a 40-card deck legal on a 2008 OCG event, and the blocks
to change it by."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

Loc = list[str | int]
Expected = list[tuple[str, str | None, list[Loc]]]

EVENT = "2008-06-01"  # OCG 2008.03 list in force; Stardust Dragon (first printed 2008-04-19) exists.

# Thirteen unlimited cards three times each and Monster Reborn (Limited): a 40-card deck legal on EVENT.
UNLIMITED = [
    46986414,  # Dark Magician
    73752131,  # Skilled Dark Magician
    69140098,  # Gemini Elf
    14898066,  # Vorse Raider
    97017120,  # Giant Rat
    83011277,  # Mystic Tomato
    80304126,  # Magician's Valkyria
    9156135,  # Apprentice Magician
    65240384,  # Big Shield Gardna
    98045062,  # Enemy Controller
    56120475,  # Sakuretsu Armor
    29401950,  # Bottomless Trap Hole
    28553439,  # Magical Dimension
]
MONSTER_REBORN = 83764718
MAIN_40 = [{"passcode": p, "count": 3} for p in UNLIMITED] + [{"passcode": MONSTER_REBORN}]
# Seven more unlimited cards, three each: with the 39 above, a 60-card main deck.
MORE_UNLIMITED = [45141844, 55713623, 69162969, 70342110, 41420027, 63391643, 38033121]
MAIN_60 = [{"passcode": p, "count": 3} for p in UNLIMITED + MORE_UNLIMITED]
EXTRA = [{"passcode": 44508094}, {"passcode": 35809262}]  # Stardust Dragon, Elemental HERO Flame Wingman
SIDE = [{"passcode": 63391643, "count": 3}, {"passcode": 70342110, "count": 3}, {"passcode": 55713623, "count": 2}]
# Five Fusion/Synchro monsters three each: a 15-card extra deck.
EXTRA_15 = [{"passcode": p, "count": 3} for p in (44508094, 35809262, 70902743, 66889139, 45231177)]
# Fifteen side-deck cards: five unlimited cards the main deck does not hold, three each.
SIDE_15 = [{"passcode": p, "count": 3} for p in (63391643, 70342110, 55713623, 41420027, 69162969)]


def request(**changes: Any) -> dict[str, Any]:
    """The legal base request with some fields replaced."""
    body: dict[str, Any] = {"main": MAIN_40, "extra": EXTRA, "side": SIDE, "date": EVENT}
    body.update(changes)
    return body


def main_with(*entries: dict[str, Any], drop: int = 0) -> list[dict[str, Any]]:
    """The 40-card main deck less `drop` copies of Magical Dimension (its 13th card), plus `entries`."""
    main = [dict(e) for e in MAIN_40]
    main[12]["count"] -= drop
    if main[12]["count"] == 0:
        del main[12]
    return main + list(entries)


def all_of(section: str, count: int) -> list[Loc]:
    return [[section, i] for i in range(count)]


Entries = Sequence[dict[str, Any]]


def ydke(main: Entries, extra: Entries = (), side: Entries = ()) -> str:
    """The ydke:// link of entry lists: each section the base64 of its passcodes as little-endian 32-bit numbers."""

    def section(entries: Entries) -> str:
        raw = b"".join(e["passcode"].to_bytes(4, "little") * e.get("count", 1) for e in entries)
        return base64.b64encode(raw).decode()

    return f"ydke://{section(main)}!{section(extra)}!{section(side)}!"
