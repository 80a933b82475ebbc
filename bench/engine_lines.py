"""Every result line of a recheck against the engine's: `python -m bench.engine_lines [--decks 1000000] [--workers 2]`.

Run by hand beside bench/recheck.py (the tests hold random decks and the corpora to the engine; this holds a whole
run). Writes the corpus as bench/recheck.py does, rechecks it with `deckcheck recheck` (2008-09-01, `--previous
ocg-2008-03-01`, `--workers N`: the columnar path, as a user runs it), then reads the input and the result file side
by side in `--workers` processes and makes each line's answer again with the engine alone (`Rechecker.check`, one
line at a time). Prints how many lines are the same, the first differences, and exits 1 if any line differs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

from bench.recheck import INSTALLED, RECHECK, corpus_file
from deckcheck import load_data
from deckcheck.batch.recheck import Rechecker
from deckcheck.batch.spec import BatchSpec

BATCH = BatchSpec(dt.date(2008, 9, 1), None, "ocg-2008-03-01")
SHOWN = 3  # differences printed per process


def _compare(job: tuple[Path, Path, int, int]) -> tuple[int, int, list[str]]:
    """Lines `share` of every `of` of the input made again by the engine: how many are the same, how many differ,
    and the first SHOWN differences."""
    corpus, results, share, of = job
    data = load_data()
    checker = Rechecker(data, BATCH.setup(data))
    same = different = 0
    shown: list[str] = []
    with corpus.open("rb") as lines, results.open("rb") as written:
        # The result file holds one line more, the summary.
        pairs = itertools.islice(enumerate(zip(lines, written, strict=False)), share, None, of)
        for index, (raw, line) in pairs:
            made, _outcome = checker.check(index + 1, raw.rstrip(b"\n"))
            if made == line:
                same += 1
                continue
            different += 1
            if len(shown) < SHOWN:
                shown.append(f"line {index + 1}:\n  recheck {line[:400]!r}\n  engine  {made[:400]!r}")
    return same, different, shown


def main() -> None:
    """Recheck the corpus, make every line again with the engine, print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deckcheck-engine-lines-") as tmp:
        folder = Path(tmp)
        corpus, results = corpus_file(args.decks, folder), folder / "results.ndjson"
        command = [sys.executable, "-m", "deckcheck", *RECHECK, "--workers", str(args.workers), "--out", str(results)]
        subprocess.run([*command, str(corpus_file(100, folder))], capture_output=True, check=False, env=INSTALLED)
        started = time.perf_counter()  # the run above compiled the modules' bytecode, as an install does
        done = subprocess.run([*command, str(corpus)], capture_output=True, check=False, env=INSTALLED)
        if done.returncode not in (0, 1):  # 1: a deck is illegal
            sys.exit(f"the recheck failed ({done.returncode}): {done.stderr.decode()}")
        print(f"recheck of {args.decks:,} decks, {args.workers} workers: {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        with Pool(args.workers) as pool:
            parts = pool.map(_compare, [(corpus, results, share, args.workers) for share in range(args.workers)])
    same, different = sum(part[0] for part in parts), sum(part[1] for part in parts)
    seconds = time.perf_counter() - started
    missing = args.decks - same - different  # lines the result file does not hold
    print(f"the engine, line by line: {seconds:.1f} s; {same:,} lines the same, {different:,} not,", end=" ")
    print(f"{missing:,} missing")
    for text in (text for part in parts for text in part[2]):
        print(text)
    if same != args.decks:
        sys.exit(1)


if __name__ == "__main__":
    main()
