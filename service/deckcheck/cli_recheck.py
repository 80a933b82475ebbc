"""`deckcheck recheck`: many stored decks against one list, as NDJSON results and a summary."""

from __future__ import annotations

import argparse
import datetime as dt
import time
from collections.abc import Callable
from typing import IO, Any

import orjson
from pydantic import ValidationError

from deckcheck.batch import BatchSpec, Rechecker, Summary, deck_lines, run_batch
from deckcheck.config import Settings
from deckcheck.data import Data
from deckcheck.errors import RequestError
from deckcheck.wire import JAPAN

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_ERROR = 0, 1, 2


def run_recheck(args: argparse.Namespace, settings: Settings, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck recheck …`; return the exit code."""
    day = args.date or dt.datetime.now(JAPAN).date()
    spec = BatchSpec(day, args.banlist, args.previous, args.lang, args.format or "ocg")
    try:
        checker = Rechecker(data, spec.setup(data))
    except (RequestError, ValidationError) as exc:
        print(f"deckcheck: {exc}", file=stderr)
        return EXIT_ERROR
    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        print(f"deckcheck: no such file or folder: {', '.join(missing)}", file=stderr)
        return EXIT_ERROR
    sink = args.out.open("wb") if args.out else None
    write = sink.write if sink else _text_writer(stdout)
    show = args.progress or stderr.isatty()
    started = time.monotonic()

    def progress(done: int) -> None:
        if show:
            rate = done / max(time.monotonic() - started, 1e-9)
            stderr.write(f"\rrechecked {done:,} decks ({rate:,.0f}/s)")
            stderr.flush()

    try:
        summary = run_batch(
            deck_lines(args.paths),
            checker=checker,
            spec=spec,
            workers=args.workers,
            write=write,
            progress=progress,
            data_dir=settings.data_dir,
        )
        write(orjson.dumps(summary.as_json(checker.setup, data)) + b"\n")
    except OSError as exc:
        print(f"\ndeckcheck: {exc}", file=stderr)
        return EXIT_ERROR
    finally:
        if sink:
            sink.close()
    if show:
        stderr.write("\n")
    _print_summary(summary, checker, stderr, time.monotonic() - started)
    if summary.errors:
        return EXIT_ERROR
    return EXIT_ILLEGAL if summary.illegal else EXIT_LEGAL


def _text_writer(stdout: IO[str]) -> Callable[[bytes], Any]:
    binary = getattr(stdout, "buffer", None)
    if binary is not None:
        stdout.flush()
        return binary.write  # type: ignore[no-any-return]
    return lambda chunk: stdout.write(chunk.decode())


def _print_summary(summary: Summary, checker: Rechecker, out: IO[str], seconds: float) -> None:
    setup = checker.setup
    listed = setup.banlist.name if setup.banlist else "no list"
    rows = [
        ("decks", summary.lines),
        ("legal", summary.legal),
        ("illegal", summary.illegal),
        ("errors", summary.errors),
    ]
    print(f"recheck against {listed} on {setup.date} in {seconds:.1f} s", file=out)
    for label, value in rows:
        print(f"  {label:<28}{value:>12,}", file=out)
    for code, count in sorted(summary.by_code.items()):
        print(f"  {code:<28}{count:>12,}", file=out)
    if setup.previous is not None:
        print(f"  newly illegal since {setup.previous.name:<8}{summary.newly:>12,}", file=out)
        for passcode, decks in sorted(summary.causes.items(), key=lambda item: (-item[1], item[0]))[:20]:
            print(f"    {checker.data.cards.by_passcode[passcode].name_en:<26}{decks:>12,}", file=out)
