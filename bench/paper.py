"""Benchmark reading paper deck lists: `python -m bench.paper [--quick] [--decks N] [--ocr-decks M] [--json FILE]`.

Run by hand, never as a timed test; the figures go in docs/benchmarks.md. Reads, in one process on one core (Tesseract's
own threads held to one by OMP_THREAD_LIMIT=1), the pages bench/paper_corpus.py makes, each set against the true
decks, and prints one row a set:
1. registration sheets with their QR code: at 300 dpi, at 150 dpi, and as a phone photographs them (N decks);
2. the same sheets with the QR code painted out, read by OCR (the first M decks);
3. the same decks in other printed layouts, with no QR code (the first M decks).
Then, for the OCR sets, up to 10 lines each that were read wrong and not flagged, or missed, and where room is
left, lines read wrong and flagged.

A set's figures: the decks read exactly (the sure lines give the true deck, by canonical card and count per
section, and no line needs review); the true lines read right (card, count and section, flagged or not); the lines
flagged for review; the lines read wrong and not flagged (a sure line that is no true line of the deck, or a second
reading of one: the safety figure, which must be 0); the true lines missed (no line read for them); and seconds a
page, median and max.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import orjson
from PIL import Image, ImageDraw, ImageFont

from bench.paper_corpus import (
    LIST_FONT,
    Printed,
    TrueLine,
    blank_qr,
    layout,
    list_pdf,
    phone_photo,
    png,
    rasterise,
    sheet_decks,
)
from deckcheck import load_data
from deckcheck.data import CardIndex
from deckcheck.errors import PaperError
from deckcheck.model import SECTIONS
from deckcheck.paper.lines import ReadLine
from deckcheck.paper.read import Reading, read_paper
from deckcheck.versions import data_version

SEED = 2008  # the phone photos' seeds: SEED plus the deck's number
SECONDS = 120.0  # the deadline given each read: far above any page's time, so every page is read
EXAMPLES = 10  # failures shown per OCR set
QR_SETS = ("sheet 300 dpi (QR)", "sheet 150 dpi (QR)", "sheet phone-degraded (QR)")
OCR_SETS = ("sheet 300 dpi OCR-only", "sheet 150 dpi OCR-only", "sheet degraded OCR-only", "other layouts (OCR)")


class Page(NamedTuple):
    """One page to read: its set, the deck's id and language, the deck's true lines in print order, the file, and
    how it was printed where that is not the sheet."""

    set: str
    deck: str
    lang: str
    lines: tuple[TrueLine, ...]
    content: bytes
    note: str


def deck_pages(number: int, printed: Printed, pdf: bytes, ocr: bool, cards: CardIndex) -> Iterator[Page]:
    """The `number`th deck's pages (from 0): its sheet `pdf` in every QR set, and where `ocr`, in every OCR set
    too, the last the deck printed in the `number`th other layout."""
    at, lang, lines, sheet = printed.id, printed.lang, printed.lines, f"sheet, {printed.lang}"
    high, low = rasterise(pdf, 300), rasterise(pdf, 150)
    yield Page(QR_SETS[0], at, lang, lines, png(high), sheet)
    yield Page(QR_SETS[1], at, lang, lines, png(low), sheet)
    yield Page(QR_SETS[2], at, lang, lines, phone_photo(high, SEED + number), sheet)
    if not ocr:
        return
    yield Page(OCR_SETS[0], at, lang, lines, png(blank_qr(high, 300)), sheet)
    yield Page(OCR_SETS[1], at, lang, lines, png(blank_qr(low, 150)), sheet)
    yield Page(OCR_SETS[2], at, lang, lines, phone_photo(blank_qr(high, 300), SEED + number), sheet)
    how = layout(number)
    other, other_lines = list_pdf(printed.deck, cards, how)
    yield Page(OCR_SETS[3], at, how.lang, other_lines, png(rasterise(other, 300)), str(how))


@dataclass(frozen=True, slots=True)
class Failure:
    """A line read wrong (flagged or not), or a true line missed: what it truly is, and what was read and why it
    needs review."""

    deck: str
    what: str
    truth: str
    read: str
    confidence: float | None
    text: str
    note: str


@dataclass(frozen=True, slots=True)
class Score:
    """One page's figures against its true deck."""

    exact: bool
    true_lines: int
    right: int
    flagged: int
    wrong: int
    missed: int
    failures: tuple[Failure, ...]


Key = tuple[str, int | None, int | None]


def _key(line: ReadLine) -> Key:
    """A read line as (section, canonical passcode, count); the card's canonical passcode, not the one read."""
    return line.section, None if line.card is None else line.card.passcode, line.count


def pair(truth: Sequence[TrueLine], read: Sequence[ReadLine]) -> dict[int, int]:
    """Which read line stands for each true line (by index): first the read lines that equal a true line, then
    those of a true line's card (a wrong count or section), then, between two lines paired, the lines left paired
    in order (a misread name). A true line paired with nothing was missed."""
    keys = [_key(line) for line in read]
    pairs: dict[int, int] = {}
    free = list(range(len(read)))

    def take(t: int, r: int) -> None:
        pairs[t] = r
        free.remove(r)

    for t, line in enumerate(truth):
        r = next((r for r in free if keys[r] == tuple(line)), None)
        if r is not None:
            take(t, r)
    for t, line in enumerate(truth):
        r = next((r for r in free if keys[r][1] == line.passcode), None)
        if t not in pairs and r is not None:
            take(t, r)
    for t in range(len(truth)):
        if t in pairs:
            continue
        before = max((r for u, r in pairs.items() if u < t), default=-1)
        after = min((r for u, r in pairs.items() if u > t), default=len(read))
        r = next((r for r in free if before < r < after), None)
        if r is not None:
            take(t, r)
    return pairs


def _said(line: TrueLine | ReadLine, cards: CardIndex, lang: str) -> str:
    """A line as `section count name`."""
    if isinstance(line, ReadLine):
        name = "(no card)" if line.card is None else line.card.name(lang)
        return f"{line.section} {'?' if line.count is None else line.count} {name}"
    return f"{line.section} {line.copies} {cards.by_passcode[line.passcode].name(lang)}"


def _deck_counts(lines: Sequence[tuple[str, int, int]], cards: CardIndex) -> dict[str, Counter[int]]:
    counts: dict[str, Counter[int]] = {section: Counter() for section in SECTIONS}
    for section, passcode, count in lines:
        card = cards.by_passcode.get(passcode)
        counts[section][passcode if card is None else card.passcode] += count
    return counts


def score(page: Page, reading: Reading | None, cards: CardIndex) -> Score:
    """The page's figures, `reading` None where the read failed (every line missed)."""
    read = () if reading is None else reading.lines
    pairs = pair(page.lines, read)
    right = {r for t, r in pairs.items() if _key(read[r]) == tuple(page.lines[t])}
    truth_of = {r: t for t, r in pairs.items()}
    failures = []
    for r, line in enumerate(read):
        if r in right:
            continue
        t = truth_of.get(r)
        what = "wrong, flagged" if line.needs_review else "wrong, not flagged"
        truth = "–" if t is None else _said(page.lines[t], cards, page.lang)
        said = _said(line, cards, page.lang) + "".join(f" [{reason}]" for reason in line.reasons)
        failures.append(Failure(page.deck, what, truth, said, line.confidence, line.text, page.note))
    missed = [t for t in range(len(page.lines)) if t not in pairs]
    for t in missed:
        failures.append(Failure(page.deck, "missed", _said(page.lines[t], cards, page.lang), "–", None, "", page.note))
    exact = reading is not None and reading.needs_review == 0
    if reading is not None:
        sure = [(s, e.passcode or 0, e.count) for s in SECTIONS for e in reading.deck().section(s)]
        exact = exact and _deck_counts(sure, cards) == _deck_counts(page.lines, cards)
    return Score(
        exact,
        len(page.lines),
        len(right),
        sum(line.needs_review for line in read),
        sum(f.what == "wrong, not flagged" for f in failures),
        len(missed),
        tuple(failures),
    )


@dataclass(slots=True)
class Tally:
    """A set's figures, added up over its pages."""

    source: str  # the reader the set's pages are meant for: qr or ocr
    pages: int = 0
    exact: int = 0
    true_lines: int = 0
    right: int = 0
    flagged: int = 0
    wrong: int = 0
    missed: int = 0
    seconds: list[float] = field(default_factory=list)
    other_source: int = 0  # pages read by the other reader
    errors: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)

    def add(self, found: Score, seconds: float, source: str | None, error: str | None) -> None:
        """One page's figures."""
        self.pages += 1
        self.exact += found.exact
        self.true_lines += found.true_lines
        self.right += found.right
        self.flagged += found.flagged
        self.wrong += found.wrong
        self.missed += found.missed
        self.seconds.append(seconds)
        self.other_source += source is not None and source != self.source
        if error is not None:
            self.errors[error] += 1
        self.failures += found.failures

    def figures(self) -> dict[str, Any]:
        """The figures as JSON."""
        return {
            "pages": self.pages,
            "decks_exact": self.exact,
            "true_lines": self.true_lines,
            "lines_right": self.right,
            "flagged": self.flagged,
            "wrong_not_flagged": self.wrong,
            "missed": self.missed,
            "seconds_median": statistics.median(self.seconds) if self.seconds else None,
            "seconds_max": max(self.seconds, default=None),
            "read_by_other_reader": self.other_source,
            "errors": dict(self.errors),
        }


def read(page: Page, cards: CardIndex) -> tuple[Reading | None, float, str | None]:
    """The page read, the seconds it took and the kind of PaperError it raised, if any."""
    start = time.perf_counter()
    try:
        reading: Reading | None = read_paper(page.content, cards, SECONDS)
        error = None
    except PaperError as failed:
        reading, error = None, failed.kind
    return reading, time.perf_counter() - start, error


def warm_up(cards: CardIndex) -> None:
    """Read one small page by OCR, untimed: Tesseract's engine starts (0.2 s) and zxing-cpp loads before any page
    is timed."""
    image = Image.new("L", (900, 200), 255)
    ImageDraw.Draw(image).text((20, 60), "3 強欲な壺", fill=0, font=ImageFont.truetype(str(LIST_FONT), 48))
    out = io.BytesIO()
    image.save(out, "PNG")
    read_paper(out.getvalue(), cards, SECONDS)


def run(decks: int, ocr_decks: int) -> tuple[dict[str, Tally], list[str]]:
    """Every set's figures over `decks` decks (`ocr_decks` of them in the OCR sets), and the decks passed over."""
    data = load_data()
    tallies = {name: Tally("qr") for name in QR_SETS} | {name: Tally("ocr") for name in OCR_SETS}
    skipped: list[str] = []
    warm_up(data.cards)
    start = time.monotonic()
    for number, (printed, pdf) in enumerate(sheet_decks(data, decks, skipped)):
        for page in deck_pages(number, printed, pdf, number < ocr_decks, data.cards):
            reading, seconds, error = read(page, data.cards)
            source = None if reading is None else reading.source
            tallies[page.set].add(score(page, reading, data.cards), seconds, source, error)
        if (number + 1) % 10 == 0 or number + 1 == decks:
            print(f"  {number + 1}/{decks} decks, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return tallies, skipped


def _percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "–"


def table(tallies: dict[str, Tally]) -> str:
    """The figures as a Markdown table, one row a set."""
    rows = [
        "| set | pages | decks exact | lines right | flagged | wrong & not flagged | missed | s/page median "
        "| s/page max |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t in tallies.items():
        median = f"{statistics.median(t.seconds):.2f}" if t.seconds else "–"
        longest = f"{max(t.seconds):.2f}" if t.seconds else "–"
        rows.append(
            f"| {name} | {t.pages} | {_percent(t.exact, t.pages)} | {_percent(t.right, t.true_lines)} | {t.flagged} "
            f"| {t.wrong} | {t.missed} | {median} | {longest} |"
        )
    return "\n".join(rows)


def notes(tallies: dict[str, Tally], skipped: list[str]) -> list[str]:
    """What the table does not say: pages read by the reader the set is not meant for, reads that failed, and the
    decks passed over because their sheet raised."""
    out = []
    for name, t in tallies.items():
        if t.other_source:
            other = "OCR (no QR code found)" if t.source == "qr" else "a QR code"
            out.append(f"{name}: {t.other_source} pages read by {other}")
        out += [f"{name}: {n} pages failed ({kind})" for kind, n in sorted(t.errors.items())]
    return out + [f"deck passed over, its sheet raised: {why}" for why in skipped]


ORDER = ("wrong, not flagged", "missed", "wrong, flagged")  # the failures shown first


def examples(tallies: dict[str, Tally]) -> str:
    """Up to EXAMPLES failures of each OCR set as Markdown tables: the lines read wrong and not flagged, then the
    true lines missed, then, where room is left, lines read wrong and flagged (why a deck was not read exactly)."""
    parts = []
    for name in OCR_SETS:
        failures = sorted(tallies[name].failures, key=lambda f: ORDER.index(f.what))[:EXAMPLES]
        if not failures:
            continue
        parts += [f"\n{name}:\n", "| deck | what | true line | read as | confidence | text | layout |"]
        parts.append("|---|---|---|---|---:|---|---|")
        for f in failures:
            confidence = "–" if f.confidence is None else f"{f.confidence:.1f}"
            text = f.text.replace("|", "\\|")
            parts.append(f"| {f.deck} | {f.what} | {f.truth} | {f.read} | {confidence} | `{text}` | {f.note} |")
    return "\n".join(parts)


def main() -> None:
    """Make the pages, read them and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=200, help="decks in the QR sets (default 200)")
    parser.add_argument("--ocr-decks", type=int, default=200, help="of those, decks in the OCR sets (default 200)")
    parser.add_argument("--quick", action="store_true", help="5 decks, 5 of them in the OCR sets")
    parser.add_argument("--json", type=Path, help="write the figures to this file too")
    args = parser.parse_args()
    decks, ocr_decks = (5, 5) if args.quick else (args.decks, min(args.ocr_decks, args.decks))
    if "tesserocr" in sys.modules:
        raise RuntimeError("tesserocr was imported before OMP_THREAD_LIMIT was set")
    os.environ["OMP_THREAD_LIMIT"] = "1"  # read before Tesseract starts: one thread, one core
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, reads in one process, OMP_THREAD_LIMIT=1; "
        f"data {data_version(load_data())}; {decks} decks, {ocr_decks} of them in the OCR sets"
    )
    tallies, skipped = run(decks, ocr_decks)
    print(table(tallies))
    for note in notes(tallies, skipped):
        print(f"- {note}")
    print(examples(tallies))
    if args.json is not None:
        figures = {"decks": decks, "ocr_decks": ocr_decks, "sets": {n: t.figures() for n, t in tallies.items()}}
        figures["failures"] = {n: [vars_of(f) for f in tallies[n].failures] for n in OCR_SETS}
        args.json.write_bytes(orjson.dumps(figures, option=orjson.OPT_INDENT_2))


def vars_of(failure: Failure) -> dict[str, Any]:
    """A failure as JSON."""
    return {name: getattr(failure, name) for name in Failure.__slots__}


if __name__ == "__main__":
    main()
