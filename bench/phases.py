"""The engine's cost per deck, phase by phase, on decks read from an NDJSON file of `{"id", "ydke"}` lines.

Run by bench/compare.py in each of two checkouts in turn (PYTHONPATH names the checkout), so it imports nothing
from `bench` and only what every version of the package exports. Prints one JSON object: label -> µs per deck,
the best of five passes.

Usage: python bench/phases.py DECKS.ndjson
"""

from __future__ import annotations

import datetime as dt
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

from deckcheck import Context, load_data, validate
from deckcheck.batch.recheck import Rechecker
from deckcheck.batch.spec import RecheckSetup
from deckcheck.formats import parse_ydke, ydke_copies

EVENT, CHANGE = dt.date(2008, 6, 1), dt.date(2008, 9, 1)
PASSES = 5


def _best(run: Callable[[Sequence[Any]], object], items: Sequence[Any]) -> float:
    best = float("inf")
    for _ in range(PASSES):
        start = time.perf_counter()
        run(items)
        best = min(best, time.perf_counter() - start)
    return round(1e6 * best / max(len(items), 1), 2)


def _each(check: Callable[[Any], object]) -> Callable[[Sequence[Any]], None]:
    def run(items: Sequence[Any]) -> None:
        for item in items:
            check(item)

    return run


def _chunks(checker: Rechecker) -> Callable[[Sequence[bytes]], None]:
    """Lines checked in chunks of 2,000 as a recheck does: by the columnar verdict where the version has it
    (`check_lines`), else line by line."""
    check_lines = getattr(checker, "check_lines", None)

    def run(items: Sequence[bytes]) -> None:
        for first in range(0, len(items), 2000):
            chunk = items[first : first + 2000]
            if check_lines is not None:
                check_lines(first + 1, chunk)
            else:
                for offset, raw in enumerate(chunk):
                    checker.check(first + 1 + offset, raw)

    return run


def main(path: str) -> None:
    """Measure every phase and print the figures."""
    lines = Path(path).read_bytes().splitlines()
    links = [orjson.loads(line)["ydke"] for line in lines]
    data = load_data()
    context = Context(EVENT, data.banlists.in_force(EVENT), data.cards)
    decks = [parse_ydke(link) for link in links]
    legal = [deck for deck in decks if validate(deck, context).legal]
    illegal = [deck for deck in decks if not validate(deck, context).legal]
    setup = RecheckSetup(CHANGE, data.banlists.in_force(CHANGE), data.banlists.get("ocg-2008-03-01"), "en")
    checker = Rechecker(data, setup)
    after = Context(CHANGE, setup.banlist, data.cards)
    broken = [not validate(deck, after).legal for deck in decks]  # the decks the list change leaves illegal
    legal_lines = [line for line, bad in zip(lines, broken, strict=True) if not bad]
    illegal_lines = [line for line, bad in zip(lines, broken, strict=True) if bad]
    phases: list[tuple[str, Callable[[Sequence[Any]], object], Sequence[Any]]] = [
        ("ydke_copies", _each(ydke_copies), links),
        ("validate, legal", _each(lambda deck: validate(deck, context)), legal),
        ("validate, illegal", _each(lambda deck: validate(deck, context)), illegal),
        ("validate, mix", _each(lambda deck: validate(deck, context)), decks),
        ("recheck line, two lists", lambda items: [checker.check(i, raw) for i, raw in enumerate(items)], lines),
        ("recheck chunk, two lists", _chunks(checker), lines),
        ("recheck chunk, legal lines", _chunks(checker), legal_lines),
        ("recheck chunk, illegal lines", _chunks(checker), illegal_lines),
    ]
    print(orjson.dumps({label: _best(run, items) for label, run, items in phases}).decode())


if __name__ == "__main__":
    main(sys.argv[1])
