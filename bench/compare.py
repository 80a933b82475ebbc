"""Time this checkout's engine against another revision's, side by side on the same decks.

Usage: python -m bench.compare REV [--decks 20000] [--rounds 3]

Makes a git worktree of REV in a temporary folder, writes one corpus of ydke decks (this checkout's bench.corpus),
then runs bench/phases.py in each checkout in turn, alternating, so that both meet the same machine noise. Prints
each phase's range per version and two ratios (this checkout / REV): of the best rounds, and of the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

from bench.corpus import Corpus
from deckcheck import load_data

ROOT = Path(__file__).resolve().parent.parent
PHASES = ROOT / "bench" / "phases.py"


def _measure(checkout: Path, decks: Path) -> dict[str, float]:
    """One run of bench/phases.py against the package of `checkout`."""
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'service'}{os.pathsep}{checkout}"}
    env.pop("DECKCHECK_DATA_DIR", None)
    done = subprocess.run(
        [sys.executable, str(PHASES), str(decks)], cwd=checkout, env=env, capture_output=True, check=True
    )
    figures: dict[str, float] = orjson.loads(done.stdout)
    return figures


def main() -> None:
    """Build the corpus and the worktree, measure both in turn, print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the revision to compare with, e.g. HEAD~3")
    parser.add_argument("--decks", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deckcheck-compare-") as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(other), args.rev], check=True)
        try:
            decks = Path(tmp) / "decks.ndjson"
            corpus = Corpus(load_data()).decks(args.decks)
            decks.write_bytes(b"".join(deck.line() + b"\n" for deck in corpus))
            runs: dict[str, list[dict[str, float]]] = {"this": [], args.rev: []}
            for round_number in range(args.rounds):
                for name, checkout in (("this", ROOT), (args.rev, other))[:: 1 if round_number % 2 == 0 else -1]:
                    runs[name].append(_measure(checkout, decks))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=True)
    print(f"{args.decks:,} decks, {args.rounds} rounds, µs per deck (best of 5 passes each round)")
    print(f"{'phase':<26}{'this':>16}{args.rev:>18}{'best':>8}{'median':>8}")
    for label in runs["this"][0]:
        mine = [run[label] for run in runs["this"]]
        theirs = [run[label] for run in runs[args.rev]]
        # The best round is the one the machine disturbed least: its ratio is the steadier of the two.
        best, median = min(mine) / min(theirs), statistics.median(mine) / statistics.median(theirs)
        ranges = f"{min(mine):>7.1f}–{max(mine):<7.1f}{min(theirs):>9.1f}–{max(theirs):<7.1f}"
        print(f"{label:<26}{ranges}{best:>8.2f}{median:>8.2f}")


if __name__ == "__main__":
    main()
