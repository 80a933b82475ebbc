"""The names the mixed load mistypes: real card names with one or two typing slips, and garbage names.

The load benchmark sends bodies holding three of these each; the search benchmark times one suggestion for each.
The same seed gives the same names.
"""

from __future__ import annotations

import random
import string

from deckcheck import Data

_SLIPS = ("drop", "double", "swap", "replace")


def _slip(name: str, rng: random.Random) -> str:
    """`name` with one typing slip: a letter dropped, doubled, swapped with the next, or replaced."""
    at = rng.randrange(len(name) - 1)
    kind = rng.choice(_SLIPS)
    if kind == "drop":
        return name[:at] + name[at + 1 :]
    if kind == "double":
        return name[: at + 1] + name[at:]
    if kind == "swap":
        return name[:at] + name[at + 1] + name[at] + name[at + 2 :]
    return name[:at] + rng.choice(string.ascii_lowercase) + name[at + 1 :]


def mistyped_names(data: Data, count: int, seed: int = 2008) -> list[str]:
    """`count` names no card has: three in four are English or Japanese card names with one or two slips, one in
    four random letters."""
    rng = random.Random(seed)
    cards = sorted(data.cards.by_passcode.values(), key=lambda c: c.passcode)
    out: list[str] = []
    while len(out) < count:
        if rng.random() < 0.25:
            name = "".join(rng.choice(string.ascii_letters + " ") for _ in range(rng.randint(6, 30))).strip()
        else:
            card = rng.choice(cards)
            name = card.name_ja if card.name_ja and rng.random() < 0.3 else card.name_en
            if name is None or len(name) < 4:
                continue
            for _ in range(rng.randint(1, 2)):
                name = _slip(name, rng)
        if name and data.cards.find_name(name) is None:
            out.append(name)
    return out
