"""A realistic corpus of stored decks built from real cards, for the recheck tests and benchmark.

Decks are made for the OCG 2008.03 list (in force from 2008-03-01): 40–60 main, 0–15 extra, 0–15 side, cards
printed in Japanese by 2008-03-01, each card within its 2008.03 limit, staples (the cards on the list) drawn
often. About one deck in ten is then broken on purpose (a Forbidden card, a fourth copy, a short main deck, an
unknown passcode, an Xyz in the extra deck). Every deck is a ydke:// link, the form deck-builder sites store.
"""

from __future__ import annotations

import base64
import datetime as dt
import random
import struct
from collections.abc import Iterator
from dataclasses import dataclass

import orjson

from deckcheck import Data

BUILT_FOR = dt.date(2008, 3, 1)


@dataclass(frozen=True, slots=True)
class CorpusDeck:
    """One generated deck: its id, its sections as passcodes (one per copy) and whether it was made legal."""

    id: str
    main: tuple[int, ...]
    extra: tuple[int, ...]
    side: tuple[int, ...]
    made_legal: bool

    def ydke(self) -> str:
        """The deck as a ydke:// link."""
        parts = [base64.b64encode(struct.pack(f"<{len(p)}I", *p)).decode() for p in (self.main, self.extra, self.side)]
        return "ydke://" + "!".join(parts) + "!"

    def line(self) -> bytes:
        """The deck as an NDJSON recheck line."""
        return orjson.dumps({"id": self.id, "ydke": self.ydke()})


class Corpus:
    """Draws decks; the same seed gives the same decks."""

    def __init__(self, data: Data, seed: int = 2008) -> None:
        self.rng = random.Random(seed)
        banlist = data.banlists.get("ocg-2008-03-01")
        assert banlist is not None
        self.limit = banlist.name_limit
        self.name_id = data.cards.name_id
        printed = sorted(
            {
                c.passcode: c
                for c in data.cards.by_passcode.values()
                if c.ja_first_print is not None and c.ja_first_print <= BUILT_FOR
            }.values(),
            key=lambda c: c.passcode,
        )
        self.main_pool = [c.passcode for c in printed if c.extra_deck_type == "none" and not c.pendulum]
        self.extra_pool = [c.passcode for c in printed if c.extra_deck_type in ("fusion", "synchro")]
        self.staples = [p for p in sorted(banlist.limits) if banlist.limit(p) > 0 and p in set(self.main_pool)]
        self.forbidden = [p for p in sorted(banlist.limits) if banlist.limit(p) == 0]

    def _fill(self, size: int, pool: list[int], copies: dict[int, int], staples: bool) -> list[int]:
        cards: list[int] = []
        while len(cards) < size:
            passcode = self.rng.choice(self.staples if staples and self.rng.random() < 0.12 else pool)
            name = self.name_id(passcode)  # copies count by name: two passcodes of one name share three
            room = min(3, self.limit(name)) - copies.get(name, 0)
            if room <= 0:
                continue
            take = min(room, self.rng.randint(1, 3), size - len(cards))
            copies[name] = copies.get(name, 0) + take
            cards += [passcode] * take
        return cards

    def deck(self, number: int) -> CorpusDeck:
        """Deck number `number`."""
        rng = self.rng
        copies: dict[int, int] = {}
        main = self._fill(rng.randint(40, 60), self.main_pool, copies, staples=True)
        extra = self._fill(rng.randint(0, 15), self.extra_pool, copies, staples=False)
        side = self._fill(rng.randint(0, 15), self.main_pool, copies, staples=True)
        legal = rng.random() >= 0.1
        if not legal:
            breakage = rng.randrange(5)
            if breakage == 0:
                main[0] = rng.choice(self.forbidden)
            elif breakage == 1:
                main += [main[0]] * 3
            elif breakage == 2:
                main = main[: rng.randint(20, 39)]
            elif breakage == 3:
                side.append(12345678)  # no card has this passcode
            else:
                extra.append(84013237)  # Number 39: Utopia, an Xyz Monster
        return CorpusDeck(f"deck-{number:07d}", tuple(main), tuple(extra), tuple(side), legal)

    def decks(self, count: int) -> Iterator[CorpusDeck]:
        """`count` decks, numbered from 1."""
        for number in range(1, count + 1):
            yield self.deck(number)
