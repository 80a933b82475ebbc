"""Deck lists on paper and on screen as players hand them in, read by the service's reader: `python -m
bench.paper_forms [--decks N] [--kinds ocg,tcg,…] [--degradations 300dpi,…] [--held-out] [--json FILE]
[--failures N] [--save DIR] [--no-read]`.

The corpus (issue 34, item 6). Its decks are real (bench/paper_decks.py): eight tournament decks of 2019–2025 turn
about with decks of 2008 from bench/corpus.py. Each deck is drawn in every kind of page below, in a face of the
kind's language that turns over the decks (every face of a kind comes round within a few decks, each lap shifted by
one so that no face keeps to the decks of one era), and each drawing degraded in the ways the kind is handed in
(bench/paper_degrade.py):

- `ocg`, `tcg`, `site`, `blog` (bench/paper_forms_draw.py): Konami's OCG デッキレシピ, the TCG Deck Registration
  Sheet, a deck-builder site's page as a browser prints it and a Japanese blog post; `ocg-bars`, `tcg-bars`,
  `site-bars`, `blog-bars`: the same with every section and kind heading white on a dark bar (black, navy, grey or
  red, turning over the decks), as printed forms often set them. Scanned at 300 and 150 dpi (the forms with bars in
  colour), photographed, faxed, scanned to PDF, and the PDF as typed.
- `app-dark`, `app-light` (bench/paper_app.py): a phone's screenshot of a deck-building app, the whole deck in one
  long capture, Japanese and English apps in turn. As captured, and as a messenger passes it on.
- `notebook`, `blank-form` (bench/paper_hand.py): a deck written by hand on a ruled notebook page, and into a
  shop's printed blank form, in handwriting faces with every glyph jittered. Scanned in colour at 300 and 150 dpi
  and photographed (the notebook), or scanned, photographed and faxed (the form).
- `pdf2` (bench/paper_pdf2.py): a two-page document typed in a word processor, the main deck on page 1, the extra
  and side decks on page 2: its PDF as typed, and scanned to a PDF of images (at 300 dpi, every other deck at 200).

Two more kinds are held out (bench/paper_held_out.py): drawn with the rest, so that the decks are the same whichever
kinds are asked for, but read and shown only with --held-out, in tables of their own, and never saved. They stand for
pages nobody drew the reader for.

Every page is read in this one process on one core (Tesseract held to one thread by OMP_THREAD_LIMIT=1), every
line scored against the truth, section included, as bench/paper.py scores: a line is right when its card, count
and section are; right and in the deck when it also needs no review; wrong and not flagged when it is in the deck
but no true line. A failed read (PaperError or any other exception) counts every line missed. Seconds are given a
page: a file's seconds divided by its pages. The figures come as a Markdown table, a row a kind × degradation, then
as a matrix, a row a kind and a column a degradation, each cell the lines right and in the deck (the lines wrong and
not flagged in brackets where there are any), the last the kind's seconds a page (median / max); the held-out kinds'
under a heading of their own. The faces are Debian's (scripts/bench-deps installs them): the bench names the package
of any it lacks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from bench.paper import Failure, Page, Tally, pair, read, score, warm_up
from bench.paper_app import dark_app, light_app
from bench.paper_decks import form_decks
from bench.paper_degrade import FAX_FONT, PDF_DEGRADATIONS, SCREEN_DEGRADATIONS, degrade
from bench.paper_forms_draw import (
    EN_FONTS,
    JA_FONTS,
    RGB,
    DoesNotFit,
    Drawn,
    Font,
    FormDeck,
    blog_page,
    missing_fonts,
    ocg_form,
    site_print,
    tcg_form,
)
from bench.paper_hand import HAND_FONTS, blank_form, notebook
from bench.paper_held_out import (
    CHAT_DEGRADATIONS,
    CHAT_FONTS,
    SHEET_DEGRADATIONS,
    SHEET_FONTS,
    chat_screen,
    sheet_print,
)
from bench.paper_pdf2 import PDF2_FONTS, two_pages
from bench.paper_screen import SCREEN_FONTS
from deckcheck import Data, load_data
from deckcheck.data import CardIndex
from deckcheck.paper.read import Reading
from deckcheck.versions import data_version

SEED = 2024
Draw = Callable[[FormDeck, Font, int], Drawn]
BARS: tuple[RGB, ...] = ((0, 0, 0), (23, 35, 66), (70, 70, 70), (112, 22, 28))  # black, navy, grey, red


def _barred(draw: Callable[[FormDeck, Font, int, RGB | None], Drawn]) -> Draw:
    """A layout with its headings on bars, their colour turning over the variants."""
    return lambda deck, font, variant: draw(deck, font, variant, BARS[variant % len(BARS)])


def _turns(pattern: str) -> Callable[[int], str]:
    """The language of the `n`th deck by `pattern`, a letter a deck in turn: `j` Japanese, `e` English."""
    return lambda number: "ja" if pattern[number % len(pattern)] == "j" else "en"


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of page: how a deck is drawn in it, the faces it is set in by language, which language the `n`th deck
    takes, the degradations it is handed in with, its pages, whether it is scanned in colour, whether two decks in a
    row share a variant, whether a deck's variant is its place among the kind's decks of its language (so that no
    variant keeps to one language), and whether it is held out."""

    draw: Draw
    faces: Mapping[str, tuple[Font, ...]]
    lang: Callable[[int], str]
    degradations: tuple[str, ...]
    pages: int = 1
    colour: bool = False
    pair: int = 1
    by_language: bool = False
    held_out: bool = False


BOTH = {"ja": JA_FONTS, "en": EN_FONTS}
PDF, SCREEN, HAND = PDF_DEGRADATIONS, SCREEN_DEGRADATIONS, {"colour": True, "by_language": True}
KINDS: dict[str, Kind] = {
    "ocg": Kind(ocg_form, BOTH, _turns("j"), PDF, pair=2),
    "tcg": Kind(tcg_form, BOTH, _turns("e"), PDF),
    "site": Kind(site_print, BOTH, _turns("eej"), PDF),  # every third site in Japanese
    "blog": Kind(blog_page, BOTH, _turns("j"), PDF),
    "ocg-bars": Kind(_barred(ocg_form), BOTH, _turns("j"), PDF, pair=2, colour=True),
    "tcg-bars": Kind(_barred(tcg_form), BOTH, _turns("e"), PDF, colour=True),
    "site-bars": Kind(_barred(site_print), BOTH, _turns("eej"), PDF, colour=True),
    "blog-bars": Kind(_barred(blog_page), BOTH, _turns("j"), PDF, colour=True),
    "app-dark": Kind(dark_app, SCREEN_FONTS, _turns("je"), SCREEN, by_language=True),
    "app-light": Kind(light_app, SCREEN_FONTS, _turns("ej"), SCREEN, by_language=True),
    "notebook": Kind(notebook, HAND_FONTS, _turns("jej"), ("300dpi", "150dpi", "photo"), **HAND),
    "blank-form": Kind(blank_form, HAND_FONTS, _turns("jje"), ("300dpi", "photo", "fax"), **HAND),
    "pdf2": Kind(two_pages, PDF2_FONTS, _turns("ej"), ("text-pdf", "image-pdf"), pages=2, by_language=True),
    "sheet": Kind(sheet_print, SHEET_FONTS, _turns("je"), SHEET_DEGRADATIONS, by_language=True, held_out=True),
    "chat": Kind(chat_screen, CHAT_FONTS, _turns("jje"), CHAT_DEGRADATIONS, by_language=True, held_out=True),
}
VISIBLE = tuple(name for name, kind in KINDS.items() if not kind.held_out)
DEGRADATIONS = tuple(dict.fromkeys(d for kind in KINDS.values() for d in kind.degradations))


def _turn(kind: Kind, number: int) -> int:
    """The `number`th deck's place among the kind's decks of its language."""
    return sum(kind.lang(k) == kind.lang(number) for k in range(number))


def face(kind: str, number: int) -> Font:
    """The face of the `number`th deck (from 0) drawn in `kind`: the faces of its language in turn, each lap
    shifted by one so that no face keeps to the decks of one era."""
    how = KINDS[kind]
    faces = how.faces[how.lang(number)]
    turn = _turn(how, number)
    return faces[(turn + turn // len(faces)) % len(faces)]


def variant(kind: str, number: int) -> int:
    """The `number`th deck's variant of `kind`: the deck's number, or its place among the kind's decks of its
    language; two decks in a row alike where the kind pairs them (the OCG form: its two and three columns each come
    in both Gothic and Mincho)."""
    how = KINDS[kind]
    return (_turn(how, number) if how.by_language else number) // how.pair


class FormPage(NamedTuple):
    """One file of the corpus: its kind, its degradation, the face it was set in, its pages, and the file to read
    and score (bench/paper.py's page, its set `kind degradation`)."""

    kind: str
    degradation: str
    font: str
    pages: int
    page: Page


def pages(
    decks: int,
    kinds: Sequence[str] = VISIBLE,
    degradations: Sequence[str] = DEGRADATIONS,
    data: Data | None = None,
    skipped: list[str] | None = None,
) -> Iterator[FormPage]:
    """The files of `decks` decks, deck by deck, in each of `kinds` and each of its degradations that is among
    `degradations`. A deck that does not fit every kind (DoesNotFit) is passed over, named in `skipped` with why."""
    data = data or load_data()
    made = 0
    for deck in form_decks(data):
        if made == decks:
            return
        drawn: dict[str, tuple[Drawn, Font, int]] = {}
        try:
            for name, kind in KINDS.items():  # every kind, so that the decks are the same whichever are asked for
                font, shape = face(name, made), variant(name, made)
                drawn[name] = kind.draw(deck, font, shape), font, shape
        except DoesNotFit as why:
            if skipped is not None:
                skipped.append(f"{deck.id}: {name}: {why}")
            continue
        for name in kinds:
            kind = KINDS[name]
            (content, lines), font, shape = drawn[name]
            seed = SEED + 1000 * made + 10 * list(KINDS).index(name)
            wanted = [d for d in kind.degradations if d in degradations]
            dpi = 300 if kind.pages == 1 or made % 2 == 0 else 200
            for degradation, degraded in degrade(
                content, wanted, seed, deck.player.date, pages=kind.pages, colour=kind.colour, image_dpi=dpi
            ):
                note = f"{font.name}, variant {shape}"
                page = Page(f"{name} {degradation}", deck.id, font.lang, lines, degraded, note)
                yield FormPage(name, degradation, font.name, kind.pages, page)
        made += 1


@dataclass(slots=True)
class Row:
    """One kind × degradation's figures: bench/paper.py's tally (its seconds a page), with the lines right and in
    the deck, the lines in the deck under another section than their true line's, and the failures shown."""

    tally: Tally = field(default_factory=lambda: Tally("ocr"))
    in_deck: int = 0
    wrong_section: int = 0
    shown: list[tuple[str, Failure]] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """The figures as JSON."""
        return self.tally.figures() | {"lines_right_in_deck": self.in_deck, "wrong_section": self.wrong_section}


Rows = dict[tuple[str, str], Row]


def read_safely(page: Page, cards: CardIndex) -> tuple[Reading | None, float, str | None]:
    """bench/paper.py's `read`, any exception besides PaperError caught too and named as the error."""
    start = time.perf_counter()
    try:
        return read(page, cards)
    except Exception as error:  # a crash of the reader is a figure of the run, never its end
        return None, time.perf_counter() - start, f"{type(error).__name__}: {error}"


def in_deck(page: Page, reading: Reading | None) -> tuple[int, int]:
    """The true lines read right and needing no review, and the lines needing no review read under another
    section than the true line they stand for."""
    if reading is None:
        return 0, 0
    lines = reading.lines
    pairs = pair(page.lines, lines)
    right = 0
    elsewhere = 0
    for t, r in pairs.items():
        line, true = lines[r], page.lines[t]
        card = None if line.card is None else line.card.passcode
        if line.needs_review:
            continue
        right += (line.section, card, line.count) == tuple(true)
        elsewhere += line.section != true.section
    return right, elsewhere


def _suffix(content: bytes) -> str:
    return "pdf" if content.startswith(b"%PDF") else "jpg" if content.startswith(b"\xff\xd8") else "png"


def run(
    decks: int, kinds: Sequence[str], degradations: Sequence[str], save: Path | None, reading: bool
) -> tuple[Rows, list[str]]:
    """Every kind × degradation's figures over `decks` decks, and the decks passed over; every file of a kind not
    held out written to `save` where given, and read only where `reading`."""
    data = load_data()
    rows = {(k, d): Row() for k in kinds for d in KINDS[k].degradations if d in degradations}
    skipped: list[str] = []
    if reading:
        warm_up(data.cards)
    start, done = time.monotonic(), None
    for drawn in pages(decks, kinds, degradations, data, skipped):
        page = drawn.page
        if save is not None and not KINDS[drawn.kind].held_out:
            (save / f"{page.deck}-{drawn.kind}-{drawn.degradation}.{_suffix(page.content)}").write_bytes(page.content)
        if done != page.deck and done is not None:
            print(f"  {done} done, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
        done = page.deck
        if not reading:
            continue
        found, seconds, error = read_safely(page, data.cards)
        row = rows[drawn.kind, drawn.degradation]
        figures = score(page, found, data.cards)
        row.tally.add(figures, seconds / drawn.pages, None if found is None else found.source, error)
        right, elsewhere = in_deck(page, found)
        row.in_deck += right
        row.wrong_section += elsewhere
        row.shown += [(drawn.font, f) for f in figures.failures if f.what == "wrong, not flagged"]
    print(f"  {done} done, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return rows, skipped


def _percent(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.1f}%)" if whole else "–"


def _seconds(seconds: Sequence[float]) -> tuple[str, str]:
    """The median and the longest, or dashes for none."""
    return (f"{statistics.median(seconds):.2f}", f"{max(seconds):.2f}") if seconds else ("–", "–")


def table(rows: Rows) -> str:
    """The figures as a Markdown table, a row a kind × degradation, and a row of them all."""
    out = [
        "| kind | degradation | files | true lines | lines right | right & in deck | wrong & not flagged "
        "| of which wrong section | decks exact | errors | s/page median | s/page max |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    everything = Row()
    for (kind, degradation), row in [*rows.items(), (("all", ""), everything)]:
        t = row.tally
        if kind != "all":
            everything.tally.pages += t.pages
            everything.tally.true_lines += t.true_lines
            everything.tally.right += t.right
            everything.tally.wrong += t.wrong
            everything.tally.exact += t.exact
            everything.tally.seconds += t.seconds
            everything.tally.errors += t.errors
            everything.in_deck += row.in_deck
            everything.wrong_section += row.wrong_section
        median, longest = _seconds(t.seconds)
        out.append(
            f"| {kind} | {degradation} | {t.pages} | {t.true_lines} | {_percent(t.right, t.true_lines)} "
            f"| {_percent(row.in_deck, t.true_lines)} | {t.wrong} | {row.wrong_section} "
            f"| {_percent(t.exact, t.pages)} | {sum(t.errors.values())} | {median} | {longest} |"
        )
    return "\n".join(out)


def matrix(rows: Rows) -> str:
    """The figures as a Markdown matrix, a row a kind and a column a degradation: the lines right and in the deck
    (with the lines wrong and not flagged in brackets where there are any), and the kind's seconds a page."""
    kinds = list(dict.fromkeys(kind for kind, _ in rows))
    columns = [d for d in DEGRADATIONS if any(d == degradation for _, degradation in rows)]
    out = [
        f"| kind | {' | '.join(columns)} | s/page median / max |",
        f"|---|{'---:|' * len(columns)}---:|",
    ]
    for kind in kinds:
        cells = []
        for degradation in columns:
            row = rows.get((kind, degradation))
            if row is None or not row.tally.true_lines:
                cells.append("–")
                continue
            wrong = f" ({row.tally.wrong})" if row.tally.wrong else ""
            cells.append(f"{100 * row.in_deck / row.tally.true_lines:.1f}%{wrong}")
        median, longest = _seconds([s for (k, _), row in rows.items() if k == kind for s in row.tally.seconds])
        out.append(f"| {kind} | {' | '.join(cells)} | {median} / {longest} |")
    return "\n".join(out)


def failures(rows: Rows, count: int) -> str:
    """The first `count` lines read wrong and not flagged, as a Markdown table."""
    shown = [(kind, degradation, font, f) for (kind, degradation), row in rows.items() for font, f in row.shown]
    if not shown or count <= 0:
        return ""
    out = [
        "| kind | degradation | deck | face | true line | read as | confidence | text read |",
        "|---|---|---|---|---|---|---:|---|",
    ]
    for kind, degradation, font, f in shown[:count]:
        confidence = "–" if f.confidence is None else f"{f.confidence:.1f}"
        text = f.text.replace("|", "\\|")
        out.append(f"| {kind} | {degradation} | {f.deck} | {font} | {f.truth} | {f.read} | {confidence} | `{text}` |")
    return "\n".join(out)


def report(rows: Rows, shown: int) -> list[str]:
    """The long table, the matrix, the pages that failed and the first `shown` lines wrong and not flagged."""
    out = [table(rows), "", matrix(rows)]
    for (kind, degradation), row in rows.items():
        out += [f"- {kind} {degradation}: {n} files failed ({why})" for why, n in sorted(row.tally.errors.items())]
    return [*out, failures(rows, shown)]


def figures_json(rows: Rows) -> dict[str, Any]:
    """The rows and the lines wrong and not flagged, as JSON."""
    return {
        "rows": {f"{kind} {degradation}": row.figures() for (kind, degradation), row in rows.items()},
        "wrong_not_flagged": [
            {"kind": kind, "degradation": degradation, "face": font}
            | {name: getattr(f, name) for name in Failure.__slots__}
            for (kind, degradation), row in rows.items()
            for font, f in row.shown
        ],
    }


def _names(text: str, allowed: Sequence[str]) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    wrong = [name for name in names if name not in allowed]
    if wrong or not names:
        raise argparse.ArgumentTypeError(f"{', '.join(wrong) or 'none'}: choose from {', '.join(allowed)}")
    return names


def main() -> None:
    """Draw the pages, read them and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=8, help="decks, each drawn in every kind (default 8)")
    parser.add_argument(
        "--kinds", type=lambda t: _names(t, list(KINDS)), help=f"default every kind not held out: {','.join(VISIBLE)}"
    )
    parser.add_argument(
        "--degradations",
        type=lambda t: _names(t, DEGRADATIONS),
        default=list(DEGRADATIONS),
        help=f"of each kind's, those to make (default all): {','.join(DEGRADATIONS)}",
    )
    parser.add_argument("--held-out", action="store_true", help="read the held-out kinds too, in tables of their own")
    parser.add_argument("--json", type=Path, help="write the figures and failures to this file too")
    parser.add_argument("--failures", type=int, default=10, help="lines read wrong and not flagged shown (default 10)")
    parser.add_argument("--save", type=Path, help="write every file of the kinds not held out to this folder")
    parser.add_argument("--no-read", action="store_true", help="draw (and save) the pages only")
    args = parser.parse_args()
    kinds: list[str] = args.kinds or [k for k in KINDS if args.held_out or not KINDS[k].held_out]
    hidden = [k for k in kinds if KINDS[k].held_out]
    if hidden and not args.held_out:
        parser.error(f"{', '.join(hidden)} held out: give --held-out to read them")
    faces = {font for kind in KINDS.values() for fonts in kind.faces.values() for font in fonts}
    missing = missing_fonts({*faces, Font("DejaVu Sans Mono", FAX_FONT, "en")})
    if missing:
        parser.exit(1, "".join(f"bench.paper_forms: {why}\n" for why in missing))
    if "tesserocr" in sys.modules:
        raise RuntimeError("tesserocr was imported before OMP_THREAD_LIMIT was set")
    os.environ["OMP_THREAD_LIMIT"] = "1"  # read before Tesseract starts: one thread, one core
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, reads in one process, OMP_THREAD_LIMIT=1; "
        f"data {data_version(load_data())}; {args.decks} decks × {', '.join(kinds)} × {', '.join(args.degradations)}"
    )
    rows, skipped = run(args.decks, kinds, args.degradations, args.save, not args.no_read)
    for why in skipped:
        print(f"- deck passed over: {why}")
    if args.no_read:
        return
    visible = {key: row for key, row in rows.items() if not KINDS[key[0]].held_out}
    held_out = {key: row for key, row in rows.items() if KINDS[key[0]].held_out}
    print("\n".join(report(visible, args.failures)) if visible else "")
    if held_out:
        print("\n## held out\n")
        print("\n".join(report(held_out, args.failures)))
    if args.json is not None:
        figures = {"decks": args.decks, "skipped": skipped, **figures_json(visible)}
        if held_out:
            figures["held_out"] = figures_json(held_out)
        args.json.write_bytes(orjson.dumps(figures, option=orjson.OPT_INDENT_2))


if __name__ == "__main__":
    main()
