"""Time deckcheck's batch verdict against ydeck's on the same decks: `python -m bench.peer [--decks N] [--rounds R]`.

ydeck (npm, TypeScript on Node; pinned by bench/peer/package-lock.json, installed by `npm ci` into the git-ignored
bench/peer/node_modules) parses ydke links and validates a deck against an "allow vector": main 40–60, extra and side
0–15 cards, and copies per card (aliases counted under the card they name) against the list, a card the vector
leaves out (Forbidden, or unknown) being allowed none. deckcheck's fast verdict checks more: those sizes and copies
counted per *name*, and also card placement, the card types in force, printing dates, languages and protectors.

One corpus of decks (bench/corpus.py: real cards, one deck in ten broken on purpose) is judged against the OCG list
in force on 2008-09-01, which ydeck gets converted into its index and allow vector (`ydeck_cards`). Each round runs
bench/peer/run.mjs (ydeck, timed by Node's clock) and this process (the columnar verdict, batch/columnar.py, on the
corpus as one chunk; and the recheck's whole path, NDJSON lines in and result lines out, in chunks of 2,000) in turn,
alternating the order, all pinned to one core; each side reports the best of three passes, for parse + verdict and
for the verdict on decks decoded beforehand. Prints decks/s (best and median round) and the ratios to ydeck, then
whether ydeck and deckcheck agree where they check the same rules. Run by hand, never as a timed test. Needs Node
and npm; says so and stops without them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson

from bench.corpus import Corpus
from deckcheck import Context, Data, Report, load_data, validate
from deckcheck.batch import Rechecker, RecheckSetup
from deckcheck.batch.chunk import decode
from deckcheck.batch.columnar import verdict
from deckcheck.data import Banlist, CardIndex
from deckcheck.formats import parse_ydke
from deckcheck.rules.facts import card_arrays, name_limits

PEER = Path(__file__).resolve().parent / "peer"
DAY = dt.date(2008, 9, 1)
PASSES = 3
# The rules both sides check, as deckcheck names them; ydeck's errors are mapped onto these by `ydeck_findings`.
SHARED = frozenset(
    {
        "main_deck_too_small",
        "main_deck_too_large",
        "extra_deck_too_large",
        "side_deck_too_large",
        "too_many_copies",
        "forbidden_card",
        "limited_card_exceeded",
        "semi_limited_card_exceeded",
        "unknown_card",
    }
)
CHECKS = """\
ydeck checks: main 40–60, extra and side at most 15 cards, copies per card (aliases counted under their card)
  against the list, passcodes it knows. deckcheck checks those (copies per name), and card placement, the card
  types in force, printing dates, languages and protectors. Ratios are each deckcheck side / ydeck."""
_LIMIT_CODES = {0: "forbidden_card", 1: "limited_card_exceeded", 2: "semi_limited_card_exceeded", 3: "too_many_copies"}
Finding = tuple[str, int | None]  # a rule code and the name (CardIndex.name_id) or unknown passcode it is about


def ydeck_cards(cards: CardIndex, banlist: Banlist) -> list[tuple[int, str, int, int]]:
    """ydeck's card index for `banlist`: every passcode deckcheck knows, its English name, its alias (the passcode
    copies of its name count under, which ydeck's allow vector gets as -1; 0 for that passcode itself) and the
    copies the list allows of its name."""
    rows = []
    for passcode, card in sorted(cards.by_passcode.items()):
        name = cards.name_id(card.passcode)
        rows.append((passcode, card.name_en, 0 if passcode == name else name, banlist.name_limit(name)))
    return rows


def ydeck_findings(errors: Iterable[dict[str, Any]], cards: CardIndex) -> set[Finding]:
    """ydeck's errors for one deck as deckcheck's findings: a size error by section and bound, a limit error by the
    copies allowed (0: Forbidden, or no card deckcheck knows)."""
    found: set[Finding] = set()
    for error in errors:
        if error["type"] == "size":
            bound = "small" if error["actual"] < error.get("min", 0) else "large"
            found.add((f"{error['target']}_deck_too_{bound}", None))
        elif error["target"] not in cards.by_passcode:
            found.add(("unknown_card", error["target"]))
        else:
            found.add((_LIMIT_CODES[error["max"]], error["target"]))
    return found


def deckcheck_findings(report: Report, cards: CardIndex) -> set[Finding]:
    """The findings of deckcheck's report on the rules ydeck checks too, each card by its name."""
    found: set[Finding] = set()
    for violation in report.violations:
        if violation.code not in SHARED:
            continue
        if not violation.cards:
            found.add((violation.code, None))
        for ref in violation.cards:
            card = None if ref.passcode is None else cards.by_passcode.get(ref.passcode)
            found.add((violation.code, ref.passcode if card is None else cards.name_id(card.passcode)))
    return found


def agreement(ydeck: Sequence[set[Finding]], deckcheck: Sequence[set[Finding]]) -> Counter[str]:
    """How the two sides' findings compare, deck by deck."""
    tally: Counter[str] = Counter()
    for theirs, ours in zip(ydeck, deckcheck, strict=True):
        if theirs == ours:
            tally["both valid" if not ours else "both invalid, same findings"] += 1
        elif theirs <= ours:
            tally["deckcheck finds more" if theirs else "deckcheck invalid, ydeck valid"] += 1
        else:
            tally["ydeck finds what deckcheck does not"] += 1
    return tally


def install() -> str | None:
    """Install the pinned ydeck into bench/peer/node_modules; the reason it cannot be, if it cannot."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found: the peer benchmark needs Node 20 and npm"
    installed = PEER / "node_modules" / "ydeck" / "package.json"
    wanted = orjson.loads((PEER / "package.json").read_bytes())["dependencies"]["ydeck"]
    if installed.exists() and orjson.loads(installed.read_bytes())["version"] == wanted:
        return None
    done = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        check=False,
        cwd=PEER,
        capture_output=True,
        text=True,
    )
    return None if done.returncode == 0 else f"npm ci failed in {PEER}: {done.stderr.strip()}"


def run_ydeck(folder: Path, *args: str) -> Any:
    """One run of bench/peer/run.mjs over the files in `folder`, its JSON answer."""
    done = subprocess.run(["node", str(PEER / "run.mjs"), str(folder), *args], capture_output=True, check=True)
    return orjson.loads(done.stdout)


def run_columnar(links: Sequence[str], context: Context, lines: Sequence[bytes], data: Data) -> dict[str, float]:
    """The columnar verdict's figures of one round (batch/columnar.py, the whole corpus as one chunk), decks/s of
    the best pass; the card arrays and list limits built beforehand, once per (date, list), as a recheck does. And
    the recheck's own path, NDJSON lines in and result lines out, in chunks of 2,000 (Rechecker.check_lines)."""
    name_limits(card_arrays(context.cards, context.date, context.format), context.banlist)
    chunk = decode(links)
    checker = Rechecker(data, RecheckSetup(context.date, context.banlist))

    def recheck() -> int:
        return sum(
            checker.check_lines(first + 1, lines[first : first + 2000])[1].legal for first in range(0, len(lines), 2000)
        )

    return {
        "parse_validate": _best(len(links), lambda: int(verdict(decode(links), context)[0].sum())),
        "validate": _best(len(links), lambda: int(verdict(chunk, context)[0].sum())),
        "recheck_lines": _best(len(lines), recheck),
    }


def _best(decks: int, run: Callable[[], int]) -> float:
    """Decks/s of the fastest of PASSES runs."""
    seconds = float("inf")
    for _ in range(PASSES):
        start = time.perf_counter()
        run()
        seconds = min(seconds, time.perf_counter() - start)
    return decks / seconds


def _pin_to_one_core() -> str:
    """Pin this process, and so the Node processes it starts, to one core where the system allows it."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def _report_speed(runs: dict[str, list[dict[str, Any]]]) -> None:
    """Decks/s of each side, best and median round, and each deckcheck side's ratios to ydeck."""
    labels = (("parse_validate", "parse ydke + verdict"), ("validate", "verdict, pre-parsed"))
    print(f"{'decks/s':<22}{'side':<20}{'best':>12}{'median':>12}{'/ ydeck best':>14}{'median':>8}")
    for key, label in labels:
        theirs = [run[key] for run in runs["ydeck"]]
        for side, figures in runs.items():
            ours = [run[key] for run in figures]
            line = f"{label:<22}{side:<20}{max(ours):>12,.0f}{statistics.median(ours):>12,.0f}"
            if side != "ydeck":
                ratio = statistics.median(ours) / statistics.median(theirs)
                line += f"{max(ours) / max(theirs):>14.2f}{ratio:>8.2f}"
            print(line)
    recheck = [run["recheck_lines"] for run in runs["columnar"]]
    print(f"{'recheck lines':<22}{'columnar':<20}{max(recheck):>12,.0f}{statistics.median(recheck):>12,.0f}")
    print("  (NDJSON lines in, result lines out: reading each line's JSON and writing each result line included)")


def _report_agreement(folder: Path, links: Sequence[str], context: Context) -> None:
    """Compare ydeck's errors with deckcheck's full reports, deck by deck, and name every deck they disagree on."""
    cards = context.cards
    errors = dict(run_ydeck(folder, "1", "--errors"))
    reports = [validate(parse_ydke(link), context) for link in links]
    theirs = [ydeck_findings(errors.get(number, ()), cards) for number in range(len(links))]
    ours = [deckcheck_findings(report, cards) for report in reports]
    print(
        f"verdicts: ydeck valid {len(links) - len(errors):,}; deckcheck legal {sum(r.legal for r in reports):,} "
        f"(engine), {int(verdict(decode(links), context)[0].sum()):,} (columnar)"
    )
    print("agreement on the rules both check (sizes; copies per name against the list; passcodes known), in decks:")
    for label, count in sorted(agreement(theirs, ours).items()):
        print(f"  {label:<40}{count:>8,}")
    within = sum(1 for t, o in zip(theirs, ours, strict=True) if t and t <= o)
    print(f"  ydeck invalid {len(errors):,}; of these deckcheck illegal with the same findings or more: {within:,}")
    outside = [r for r, o in zip(reports, ours, strict=True) if not r.legal and not o]
    codes = Counter(v.code for r in outside for v in r.violations)
    print(f"  deckcheck illegal only for rules ydeck does not check: {len(outside):,} ({', '.join(sorted(codes))})")
    differ = [(n, t, o) for n, (t, o) in enumerate(zip(theirs, ours, strict=True)) if t != o]
    for number, t, o in differ[:20]:
        print(f"  differ, deck {number + 1}: ydeck {sorted(t, key=str)}, deckcheck {sorted(o, key=str)}")


def main() -> None:
    """Build the corpus, install ydeck, time both sides in alternating rounds, print the figures and the
    agreement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if (problem := install()) is not None:
        print(f"skipped: {problem}")
        return
    data = load_data()
    banlist = data.banlists.in_force(DAY)
    assert banlist is not None
    context = Context(DAY, banlist, data.cards)
    corpus = list(Corpus(data).decks(args.decks))
    links, lines = [deck.ydke() for deck in corpus], [deck.line() for deck in corpus]
    pinned = _pin_to_one_core()
    with tempfile.TemporaryDirectory(prefix="deckcheck-peer-") as tmp:
        folder = Path(tmp)
        (folder / "links.txt").write_text("\n".join(links) + "\n")
        (folder / "cards.json").write_bytes(orjson.dumps(ydeck_cards(data.cards, banlist)))
        sides: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("ydeck", lambda: run_ydeck(folder, str(PASSES))),
            ("columnar", lambda: run_columnar(links, context, lines, data)),
        ]
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in sides}
        for round_number in range(args.rounds):
            for name, measure in sides[:: 1 if round_number % 2 == 0 else -1]:
                runs[name].append(measure())
        node = runs["ydeck"][0]["node"]
        print(
            f"{args.decks:,} corpus decks against {banlist.id} on {DAY}, {args.rounds} rounds of best-of-{PASSES} "
            f"passes, {pinned}; python {sys.version.split()[0]}, node {node}, ydeck {_ydeck_version()}"
        )
        print(CHECKS)
        _report_speed(runs)
        _report_agreement(folder, links, context)


def _ydeck_version() -> str:
    """The version of ydeck installed in bench/peer/node_modules."""
    return str(orjson.loads((PEER / "node_modules" / "ydeck" / "package.json").read_bytes())["version"])


if __name__ == "__main__":
    main()
