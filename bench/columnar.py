"""Time the columnar verdict beside the per-deck fast path: `python -m bench.columnar [--decks N] [--passes P]`.

The same corpus (bench/corpus.py) and list as bench/peer.py (OCG on 2008-09-01), one process pinned to one core.
Prints decks/s of the best pass for parse + verdict and for the verdict on decks parsed beforehand, for the
per-deck fast path (`ydke_copies`, `tally_copies`, `within_limits`, as `deckcheck recheck` reads a ydke line) and
for the columnar verdict (batch/columnar.py: `decode`, `verdict`, on the whole corpus as one chunk), and checks
the two give the same verdict for every deck. Run by hand, never as a timed test.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.corpus import Corpus
from bench.peer import DAY, _pin_to_one_core
from deckcheck import Context, load_data
from deckcheck.batch.chunk import decode
from deckcheck.batch.columnar import card_arrays, name_limits, verdict
from deckcheck.formats import ydke_copies
from deckcheck.rules import tally_copies, within_limits


def best(run: Callable[[], Any], passes: int) -> tuple[float, Any]:
    """The shortest time of `passes` runs, and the last run's answer."""
    seconds, answer = float("inf"), None
    for _ in range(passes):
        start = time.perf_counter()
        answer = run()
        seconds = min(seconds, time.perf_counter() - start)
    return seconds, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=20_000)
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    data = load_data()
    banlist = data.banlists.in_force(DAY)
    context = Context(DAY, banlist, data.cards)
    links = [deck.ydke() for deck in Corpus(data).decks(args.decks)]
    pinned = _pin_to_one_core()
    name_limits(card_arrays(data.cards, DAY, "ocg"), banlist)  # built once per (date, list, format), as a recheck does

    def fast(copies: list[Any]) -> list[bool]:
        return [(c := tally_copies(x, context)) is not None and within_limits(c[0], banlist) for x in copies]

    parsed = [ydke_copies(link) for link in links]
    chunk = decode(links)
    rows = [
        (
            "per-deck fast path",
            "parse ydke + verdict",
            best(lambda: fast([ydke_copies(x) for x in links]), args.passes),
        ),
        ("per-deck fast path", "verdict, pre-parsed", best(lambda: fast(parsed), args.passes)),
        ("columnar", "parse ydke + verdict", best(lambda: verdict(decode(links), context)[0], args.passes)),
        ("columnar", "verdict, pre-parsed", best(lambda: verdict(chunk, context)[0], args.passes)),
        ("columnar", "parse ydke only", best(lambda: decode(links), args.passes)),
    ]
    print(
        f"{args.decks:,} corpus decks against {context.banlist and context.banlist.id} on {DAY}, best of "
        f"{args.passes} passes, {pinned}"
    )
    for path, label, (seconds, _answer) in rows:
        print(f"  {path:<20}{label:<24}{args.decks / seconds:>12,.0f} decks/s")
    same = np.array_equal(np.array(rows[0][2][1]), rows[2][2][1])
    print(f"  same verdict for every deck: {same} ({int(rows[2][2][1].sum()):,} legal)")


if __name__ == "__main__":
    main()
