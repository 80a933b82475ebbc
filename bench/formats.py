"""Benchmark name resolution and deck parsing: `python -m bench.formats`. Run by hand; figures go in
docs/benchmarks.md.

Prints, in one run: exact name resolution per card (Japanese and English names, folded), search per query for
misspelt and partial names, and parse time of a 90-card list (60 main, 15 extra, 15 side) in every format.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from deckcheck import Data, Deck, Entry, load_data
from deckcheck.formats import parse, write

ROUNDS = 5


def _best(fn: Callable[[], object], repeat: int) -> float:
    """Seconds per call: the best of ROUNDS rounds of `repeat` calls."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def main() -> None:
    """Print the figures."""
    start = time.perf_counter()
    data = load_data()
    print(f"start-up: data loaded in {1000 * (time.perf_counter() - start):.0f} ms")
    rng = random.Random(2008)
    cards = sorted({card.passcode: card for card in data.cards.by_passcode.values()}.values(), key=lambda c: c.passcode)
    sample = rng.sample(cards, 1000)
    names = [c.name_ja or c.name_en for c in sample[:500]] + [c.name_en.upper() for c in sample[500:]]

    def resolve_all() -> None:
        for name in names:
            data.cards.find_name(name)

    per_name = _best(resolve_all, 3) / len(names)
    print(f"exact name resolution: {1e6 * per_name:.1f} µs per card ({len(names)} names, ja and en)")
    queries = ["Dark Magican", "ブラック・マジ", "ﾌﾞﾗｯｸ･ﾏｼﾞ", "Blue-Eyes Whte Dragon", "スターダスト", "pot of gred"]
    per_query = _best(lambda: [data.cards.search.search(q, 10) for q in queries], 3) / len(queries)
    print(f"search (exact, prefix, substring, fuzzy): {1000 * per_query:.2f} ms per query")

    main_cards = [c for c in cards if c.extra_deck_type == "none"]
    extra_cards = [c for c in cards if c.extra_deck_type in ("fusion", "synchro")]
    deck = Deck(
        tuple(Entry(c.passcode, count=3) for c in rng.sample(main_cards, 20)),
        tuple(Entry(c.passcode, count=3) for c in rng.sample(extra_cards, 5)),
        tuple(Entry(c.passcode, count=3) for c in rng.sample(main_cards, 5)),
    )
    sources = {
        "ydk": write("ydk", deck, data.cards),
        "ydke": write("ydke", deck, data.cards),
        "text (en names)": write("text", deck, data.cards, "en"),
        "text (ja names)": write("text", deck, data.cards, "ja"),
    }
    print("parse a 90-card list:")
    for label, source in sources.items():
        seconds = _best(_parser(label.split()[0], source, data), 200)
        print(f"  {label:16} {1e6 * seconds:8.0f} µs")


def _parser(fmt: str, source: str, data: Data) -> Callable[[], Deck]:
    return lambda: parse(fmt, source, data.cards)


if __name__ == "__main__":
    main()
