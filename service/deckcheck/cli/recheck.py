"""`deckcheck recheck`: many stored decks against one list, as NDJSON results, a summary, and the CSV of the decks
to contact (--report FILE.csv, or --out FILE.csv for the CSV alone)."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import orjson
from pydantic import ValidationError
from rich.console import Console
from rich.padding import Padding
from rich.progress import BarColumn, GetTimeCallable, Progress, ProgressColumn, Task, TextColumn
from rich.text import Text

from deckcheck.batch import BatchSpec, Rechecker, Summary, deck_lines, run_batch
from deckcheck.cli.cluster import run_on_dask
from deckcheck.cli.contacts import ContactList
from deckcheck.cli.output import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK, EXIT_UNCHECKED, indented, table, words
from deckcheck.config import Settings
from deckcheck.data import Data
from deckcheck.days import today
from deckcheck.errors import Error

CAUSES_SHOWN = 20  # cards the summary names as causes of newly illegal decks


def run_recheck(args: argparse.Namespace, settings: Settings, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck recheck …`; return the exit code."""
    if problem := _outputs(args):
        print(f"deckcheck: {problem}", file=stderr)
        return EXIT_ERROR
    day = args.date or today()
    spec = BatchSpec(day, args.banlist, args.previous, args.lang, args.format or "ocg")
    try:
        checker = Rechecker(data, spec.setup(data))
    except (Error, ValidationError) as exc:
        print(f"deckcheck: {exc}", file=stderr)
        return EXIT_ERROR
    if args.dask is not None:
        started = time.monotonic()
        summary = run_on_dask(args, settings, checker, spec, stderr)
        if isinstance(summary, int):
            return summary
        return finish(summary, checker, args, stderr, time.monotonic() - started)
    paths = [Path(p) for p in args.paths]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        print(f"deckcheck: no such file or folder: {', '.join(missing)}", file=stderr)
        return EXIT_ERROR
    return _run_here(args, checker, settings=settings, spec=spec, paths=paths, stdout=stdout, stderr=stderr)


def _outputs(args: argparse.Namespace) -> str | None:
    """Settle where the results and the CSV of decks to contact go (`args.results_to` names the results' place in
    words, or is None when they go nowhere); what is wrong with the command line's choice, if anything."""
    if args.dask is None and args.results_format is not None:
        return "--results-format is the form of the results files of --dask"
    if args.out is not None and Path(args.out).suffix.lower() == ".csv":
        if args.report is not None or args.dask is not None:
            return "--out names the results; give the CSV of the decks to contact as --report"
        args.report, args.out = args.out, None  # the CSV alone: the result lines go nowhere
        args.results_to = None
    else:
        args.results_to = args.out or words(args.lang, "standard_output")
    if args.report is not None and not Path(args.report).parent.is_dir():  # said now, not after the whole recheck
        return f"no such folder for the CSV of decks to contact: {Path(args.report).parent}"
    return None


def _run_here(
    args: argparse.Namespace,
    checker: Rechecker,
    *,
    settings: Settings,
    spec: BatchSpec,
    paths: list[Path],
    stdout: IO[str],
    stderr: IO[str],
) -> int:
    """The recheck in this process and its --workers."""
    sink: IO[bytes] | None = Path(args.out).open("wb") if args.out else None  # noqa: SIM115 - closed below
    results: Callable[[bytes], Any] = sink.write if sink else _text_writer(stdout) if args.results_to else _unseen
    contacts = ContactList(Path(args.report), args.lang) if args.report else None

    def write(lines: bytes) -> None:
        results(lines)
        if contacts:
            contacts.add(lines)

    started = time.monotonic()
    # Progress only for a person watching: on a terminal, or when asked for; never in a pipe or a log by default,
    # nor on the terminal the results themselves are written to, where the two would mix.
    watched = stderr.isatty() and not (sink is None and args.results_to and stdout.isatty())
    shown = RecheckProgress(stderr, args.lang, forced=args.progress) if args.progress or watched else None
    try:
        with shown or contextlib.nullcontext(), contacts or contextlib.nullcontext():
            if shown:
                shown.count(paths)
            summary = run_batch(
                paths,
                checker=checker,
                spec=spec,
                workers=args.workers or 1,
                write=write,
                progress=shown.advance if shown else _unseen,
                source=settings.data_source(),
            )
            results(orjson.dumps(summary.as_json(checker.setup, checker.data)) + b"\n")
            if contacts:
                contacts.write()
            if shown:
                shown.finish(summary.lines)
    except BrokenPipeError:
        raise  # the reader of the results has gone: the command ends quietly (cli.output.exit_quietly_on_closed_pipe)
    except OSError as exc:
        print(f"deckcheck: {exc}", file=stderr)
        return EXIT_ERROR
    finally:
        if sink:
            sink.close()
    return finish(summary, checker, args, stderr, time.monotonic() - started)


def finish(summary: Summary, checker: Rechecker, args: argparse.Namespace, stderr: IO[str], seconds: float) -> int:
    """Print the summary table, ending with where the decks to contact are listed; the exit code of the recheck:
    EXIT_ILLEGAL when some deck is illegal, with EXIT_UNCHECKED added when some line was no deck it could check."""
    _print_summary(summary, checker, args.lang, stderr, seconds)
    count = summary.illegal + summary.errors
    if args.report:
        print(words(args.lang, "contact_report", count=count, path=args.report), file=stderr)
    else:
        print(words(args.lang, "contact_lines", count=count, where=args.results_to), file=stderr)
    unchecked = EXIT_UNCHECKED if summary.errors else EXIT_OK  # the results are whole: no usage or input error
    return unchecked | (EXIT_ILLEGAL if summary.illegal else EXIT_OK)


def _unseen(done: int | bytes) -> None:
    """Progress nobody watches, or results nobody reads."""


def _text_writer(stdout: IO[str]) -> Callable[[bytes], Any]:
    binary = getattr(stdout, "buffer", None)
    if binary is not None:
        stdout.flush()
        return binary.write  # type: ignore[no-any-return]
    return lambda chunk: stdout.write(chunk.decode())


class RecheckProgress:
    """A live line on `out`: decks done of the total, a bar, decks a second and the time left. The total is counted
    beside the recheck, reading the same files, which costs little beside the recheck (docs/benchmarks.md, Figures
    the guides quote); until it is known the line shows `?` and no time left."""

    def __init__(self, out: IO[str], lang: str, *, forced: bool, get_time: GetTimeCallable | None = None) -> None:
        """A display on `out` in `lang`; `forced` draws it even where `out` is no terminal."""
        console = Console(file=out, force_terminal=forced or None, highlight=False)
        self.bar = Progress(
            TextColumn(words(lang, "rechecking")),
            BarColumn(),
            DoneOfTotal(),
            Rate(lang),
            TimeLeft(lang),
            console=console,
            auto_refresh=False,  # drawn as chunks finish: no thread of its own beside the worker processes
            redirect_stdout=False,  # standard output may be the results themselves
            redirect_stderr=False,
            get_time=get_time,
        )
        self.task = self.bar.add_task("", total=None)

    def __enter__(self) -> RecheckProgress:
        """Start drawing."""
        self.bar.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        """Draw the last state and leave it on its line."""
        self.bar.stop()

    def count(self, paths: Sequence[Path]) -> threading.Thread | None:
        """Count the decks of `paths` in a thread of its own, which sets the total once known; only where every
        input is a regular file or a folder, which can be read twice: a pipe's lines would be shared out between
        the count and the recheck. Otherwise the total stays unknown."""
        if not all(path.is_dir() or path.is_file() for path in paths):
            return None

        def counting() -> None:
            with contextlib.suppress(OSError, ValueError):  # unreadable input: the recheck itself will say so
                self.bar.update(self.task, total=sum(1 for _line in deck_lines(paths)), refresh=True)

        counter = threading.Thread(target=counting, name="deckcheck-count", daemon=True)
        counter.start()
        return counter

    def advance(self, done: int) -> None:
        """`done` decks are checked."""
        self.bar.update(self.task, completed=done, refresh=True)

    def finish(self, done: int) -> None:
        """Every deck is checked: `done` of `done`, whether or not the count is in."""
        self.bar.update(self.task, completed=done, total=done)


class DoneOfTotal(ProgressColumn):
    """`1,234/100,000`, or `1,234/?` while the total is being counted."""

    def render(self, task: Task) -> Text:
        """The column for `task`."""
        total = "?" if task.total is None else f"{int(task.total):,}"
        return Text(f"{int(task.completed):,}/{total}")


def _rate(task: Task) -> float | None:
    """Decks a second since the start: the whole run's average, steadier than the last chunks'."""
    elapsed = task.elapsed
    return task.completed / elapsed if elapsed and task.completed else None


class Rate(ProgressColumn):
    """`12,345 decks/s`."""

    def __init__(self, lang: str) -> None:
        """The column in `lang`."""
        super().__init__()
        self.lang = lang

    def render(self, task: Task) -> Text:
        """The column for `task`."""
        rate = _rate(task)
        return Text(words(self.lang, "per_second", rate="?" if rate is None else f"{rate:,.0f}"))


class TimeLeft(ProgressColumn):
    """`ETA 0:01:23` at the rate so far, once the total is known."""

    def __init__(self, lang: str) -> None:
        """The column in `lang`."""
        super().__init__()
        self.lang = lang

    def render(self, task: Task) -> Text:
        """The column for `task`."""
        rate = _rate(task)
        if task.total is None or rate is None:
            return Text(words(self.lang, "remaining", time="-:--:--"))
        seconds = round(max(task.total - task.completed, 0) / rate)
        return Text(words(self.lang, "remaining", time=str(dt.timedelta(seconds=seconds))))


def _print_summary(summary: Summary, checker: Rechecker, lang: str, out: IO[str], seconds: float) -> None:
    """The totals (with the lines read as Shift_JIS, where any was), each rule's count and the cards that made decks
    newly illegal, as a table aligned on `out`."""
    setup = checker.setup
    listed = setup.banlist.name if setup.banlist else words(lang, "no_list")
    print(words(lang, "recheck", banlist=listed, date=setup.date, seconds=seconds), file=out)
    rows: list[tuple[str | Padding, str]] = [(words(lang, "decks"), f"{summary.lines:,}")]
    if summary.cp932:  # named as `validate` names a deck file read so
        rows.append((indented(words(lang, "decks") + words(lang, "read_as_cp932")), f"{summary.cp932:,}"))
    rows += [
        (words(lang, "legal"), f"{summary.legal:,}"),
        (words(lang, "illegal"), f"{summary.illegal:,}"),
    ]
    if setup.previous is not None:  # the illegal decks parted: the change's doing, and those it found illegal
        before = setup.previous.name
        rows.append((indented(words(lang, "newly_illegal", banlist=before)), f"{summary.newly:,}"))
        rows.append((indented(words(lang, "still_illegal", banlist=before)), f"{summary.still:,}"))
    rows.append((words(lang, "errors"), f"{summary.errors:,}"))
    rows += [(code, f"{count:,}") for code, count in sorted(summary.by_code.items())]
    causes = sorted(summary.causes.items(), key=lambda item: (-item[1], item[0]))[:CAUSES_SHOWN]
    if causes:
        rows.append((words(lang, "newly_by_card"), ""))
        cards = checker.data.cards.by_passcode
        rows += [(indented(cards[passcode].name(lang)), f"{decks:,}") for passcode, decks in causes]
    for line in table(rows, ("left", "right"), out):
        print(line, file=out)
