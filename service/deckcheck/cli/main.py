"""The `deckcheck` command: validate deck files, recheck stored decks against a list, compare and export lists, add
new lists and cards, draw a deck as a QR code, serve the API.

Exit codes: 0 every deck legal, 1 some deck illegal, 2 a usage or input error, 3 a recheck that could not be ended;
a recheck carried to its end adds 4 when some lines were no deck it could check: 4 (the decks checked legal) or 5.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import orjson

from deckcheck.batch import default_workers, validate_all
from deckcheck.cli.banlist import ListError, add_banlist_parser, run_banlist
from deckcheck.cli.data import add_data_parser, run_data
from deckcheck.cli.decks import add_qr_parser, deck_request, read_file, run_qr, why
from deckcheck.cli.event import add_event_parser, run_event
from deckcheck.cli.output import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK, exit_quietly_on_closed_pipe, words
from deckcheck.cli.recheck import run_recheck
from deckcheck.cli.sheet import add_sheet_parser, run_sheet
from deckcheck.config import Settings, load_settings
from deckcheck.data import Data
from deckcheck.data.lastgood import check_startable
from deckcheck.encoding import Encoding
from deckcheck.errors import Error
from deckcheck.input_files import FileTooLarge
from deckcheck.model import Context, Deck
from deckcheck.wire.inputs import context_for, deck_from
from deckcheck.wire.reports import report_json
from deckcheck.wire.requests import ValidateRequest

if TYPE_CHECKING:
    from fastapi import FastAPI


class _Usage(Exception):
    """A command line that cannot be carried out."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse would exit; run() returns 2 instead
        raise _Usage(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="deckcheck",
        description="Check Yu-Gi-Oh! OCG and TCG decks against the tournament rules of the event's date.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = commands.add_parser("validate", help="check deck files (.ydk, ydke link, .json, text)")
    check.add_argument("files", nargs="+", help="deck files, or ydke:// links")
    check.add_argument("--date", type=_date, help="event date (default: today in Japan)")
    check.add_argument("--banlist", help="list id of the format, e.g. ocg-2008-03-01, or inline list JSON")
    check.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the report and its messages")
    check.add_argument("--json", action="store_true", help="print JSON for machines")
    recheck = commands.add_parser("recheck", help="recheck many decks against one list")
    recheck.add_argument(
        "paths",
        nargs="+",
        help="NDJSON files, deck files or folders of them; with --dask, Parquet and NDJSON files "
        "or folders of them, as paths or fsspec URLs",
    )
    recheck.add_argument("--banlist", help="list id or inline list JSON (default: the list in force on --date)")
    recheck.add_argument("--previous", help="the list before, to learn which decks the change made illegal")
    recheck.add_argument("--date", type=_date, help="event date (default: today in Japan)")
    recheck.add_argument("--lang", choices=("en", "ja"), default="en", help="language of messages, progress, summary")
    recheck.add_argument(
        "--out",
        help="write NDJSON results here instead of standard output; with --dask, the folder (path or URL); a name "
        "ending in .csv writes the CSV of --report there instead of the results",
    )
    recheck.add_argument(
        "--report",
        metavar="FILE.csv",
        help="also write the decks that are not legal here as CSV for a spreadsheet: a row a deck, with the line's "
        "own fields, newly or still illegal, the penalty, each cause and its cards",
    )
    recheck.add_argument(
        "--workers", type=_whole(1, _MAX_WORKERS), help=f"processes (default 1; this machine: {default_workers()})"
    )
    recheck.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="check on a Dask cluster: tcp://SCHEDULER:8786, or local[:N] for N worker processes here "
        "(needs deckcheck[dask])",
    )
    recheck.add_argument(
        "--results-format",
        choices=("parquet", "ndjson"),
        help="with --dask: the form of each partition's results file (default parquet)",
    )
    recheck.add_argument("--progress", action="store_true", help="show progress even when stderr is not a terminal")
    for command in (check, recheck):
        command.add_argument(
            "--format", choices=("ocg", "tcg"), help="ocg (the default) or tcg: lists, printings, languages"
        )
        command.add_argument("--lflist", type=Path, help="take the list from this lflist.conf file instead")
        command.add_argument("--list", help="the `!` name of the list, when the lflist.conf file holds several")
    add_banlist_parser(commands)
    add_data_parser(commands, _date)
    add_qr_parser(commands)
    add_sheet_parser(commands)
    add_event_parser(commands, _date)
    serve = commands.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_whole(1, 65535), default=8000, help="TCP port (default 8000)")
    serve.add_argument(
        "--workers",
        type=_whole(1, _MAX_WORKERS),
        default=1,
        help="server processes sharing the port (default 1; one per core)",
    )
    return parser


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date written YYYY-MM-DD: {text!r}") from None


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from `low` to `high`, else a usage error naming the range (exit 2), never
    a traceback from whatever the number was handed to."""

    def whole(text: str) -> int:
        digits = text.strip()
        if not digits.isascii() or not digits.isdigit() or not low <= int(digits) <= high:
            raise argparse.ArgumentTypeError(f"not a whole number from {low} to {high}: {text!r}")
        return int(digits)

    return whole


_MAX_WORKERS = 256  # processes of one command: more than this is a typo, not a machine


def run(argv: Sequence[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run the command line `argv` (without the program name); return the exit code."""
    try:
        args = _parser().parse_args(argv)
        if getattr(args, "list", None) is not None and args.lflist is None:
            raise _Usage("deckcheck: --list names a list of an --lflist file; give the file too")
        if getattr(args, "lflist", None) is not None and args.banlist is not None:
            raise _Usage("deckcheck: give the list once: --banlist or --lflist")
    except _Usage as exc:
        print(exc, file=stderr)
        return EXIT_ERROR
    except SystemExit as exc:  # --help
        return EXIT_OK if exc.code in (0, None) else EXIT_ERROR
    try:
        settings = load_settings()
        if getattr(args, "lflist", None) is not None:  # read once, for every deck
            args.banlist = _lflist_spec(args.lflist, args.list, settings.max_body_bytes)
        if args.command == "data":  # it reads the data itself: broken ones are what `data check` reports
            return run_data(args, list(argv)[1:], settings, stdout, stderr)
        # Broken data stop every command here, with one line.
        if args.command == "serve":
            app = _app(settings, args.workers)
        else:
            data = settings.data_source().load()
    except Error as exc:  # settings that hold nonsense, broken data, a list that cannot be read: one line, no trace
        print(f"deckcheck: {exc}", file=stderr)
        return EXIT_ERROR
    if args.command == "serve":
        _serve(app, settings, args)
        return EXIT_OK
    runners: dict[str, Callable[[argparse.Namespace, Settings, Data, IO[str], IO[str]], int]] = {
        "validate": _validate,
        "banlist": run_banlist,
        "qr": run_qr,
        "sheet": run_sheet,
        "recheck": run_recheck,
        "event": run_event,
    }
    return runners[args.command](args, settings, data, stdout, stderr)


def _app(settings: Settings, workers: int) -> FastAPI | str:
    """The app `deckcheck serve` serves, its data loaded, or the last good data kept when they do not load; with
    several workers, its import string: each worker loads its own, so here the data are only read to prove that a
    worker can start, then let go."""
    if workers > 1:
        check_startable(settings.data_source(made=False))
        return "deckcheck.app:app"
    from deckcheck.api import create_app  # noqa: PLC0415 - FastAPI would slow every other command's start
    from deckcheck.logs import configure  # noqa: PLC0415 - as create_app

    configure()  # before the data load: a start on the last good data logs why, as uvicorn's lines, in JSON
    return create_app(settings)


def _serve(app: FastAPI | str, settings: Settings, args: argparse.Namespace) -> None:
    """Serve `app`: the app itself, or with several workers where each process imports it."""
    import uvicorn  # noqa: PLC0415 - the server alone needs it; it would slow every other command's start

    from deckcheck.api.server import serve_workers, server_options  # noqa: PLC0415 - as create_app above

    options = server_options(settings)
    if args.workers == 1:
        uvicorn.run(app, host=args.host, port=args.port, **options)
        return
    assert isinstance(app, str)
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        serve_workers(app, args.host, args.port, args.workers, options)
        return
    # Each worker keeps its own metrics; they write them here, and /metrics adds them up.
    with tempfile.TemporaryDirectory(prefix="deckcheck-metrics-") as metrics:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics
        serve_workers(app, args.host, args.port, args.workers, options)


def main() -> None:
    """Console entry point."""
    exit_quietly_on_closed_pipe(lambda: run(sys.argv[1:], sys.stdout, sys.stderr))


def _lflist_spec(path: Path, name: str | None, limit: int) -> str:
    """An --lflist file (of at most `limit` bytes) as the inline list --banlist takes: `{"lflist": text, "list":
    name}`."""
    try:
        text = read_file(path, limit).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError, FileTooLarge) as exc:
        raise ListError(f"{path}: {exc}") from None
    return orjson.dumps({"lflist": text, "list": name}).decode()


def _request(source: str, args: argparse.Namespace, limit: int) -> tuple[ValidateRequest, Encoding | None]:
    """The validate request a file (of at most `limit` bytes, or a ydke link) stands for, with the command line's
    date and list; and the encoding the file was read in."""
    overrides: dict[str, Any] = {}
    if args.date is not None:
        overrides["date"] = args.date.isoformat()
    if args.format is not None:
        overrides["format"] = args.format
    if args.banlist is not None:
        overrides["banlist"] = orjson.loads(args.banlist) if args.banlist.lstrip().startswith("{") else args.banlist
    return deck_request(source, overrides, limit)


def _validate(args: argparse.Namespace, settings: Settings, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    read: list[tuple[str, Encoding | None, Deck, Context]] = []
    failed = False
    for source in args.files:
        try:
            body, encoding = _request(source, args, settings.max_body_bytes)
            read.append((source, encoding, deck_from(body, data), context_for(body, data)))
        except Error as exc:
            print(f"deckcheck: {source}: {why(exc)}", file=stderr)
            failed = True
    reports = validate_all([(deck, context) for _, _, deck, context in read])
    results = [
        {"file": source, "encoding": encoding, **report_json(report, args.lang, deck, context.roster)}
        for (source, encoding, deck, context), report in zip(read, reports, strict=True)
    ]
    if args.json:
        stdout.write(orjson.dumps(results, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        for result in results:
            _print_report(result, args.lang, stdout)
    if failed:
        return EXIT_ERROR
    return EXIT_OK if all(r["legal"] for r in results) else EXIT_ILLEGAL


def _print_report(result: dict[str, Any], lang: str, out: IO[str]) -> None:
    """One deck's verdict and, when a newer list may be in force, that; then each violation: code, citations, where,
    message and remedy; then each name read loosely."""
    banlist = result["banlist"]["name"] if result["banlist"] else words(lang, "no_list")
    verdict = words(lang, "legal" if result["legal"] else "illegal")
    penalty = f" — {words(lang, result['penalty'])}" if result["penalty"] else ""
    fields = {
        "file": result["file"] + (words(lang, "read_as_cp932") if result["encoding"] == "cp932" else ""),
        "verdict": verdict,
        "penalty": penalty,
        "banlist": banlist,
        "date": result["date"],
    }
    print(words(lang, "report", **fields, **result["counts"]), file=out)
    for note in result["ruleset"]["notes"]:  # how current the data are is said at once, as on the desk
        if note["code"] == "list_may_be_outdated":
            print(f"  ! {note['message']}", file=out)
    separator = words(lang, "separator")
    for v in result["violations"]:
        where = separator.join(_place(loc, lang) for loc in v["loc"][:6])
        if v["lines"]:
            where += words(lang, "lines", lines=separator.join(map(str, v["lines"][:6])))
        print(f"  ✗ {v['code']} [{v['rule']} / {v['penalty_ref']}] {where}", file=out)
        print(f"    {v['message']}", file=out)
        print(f"    → {v['remedy']}", file=out)
    for read in result["read_loosely"]:
        where = _place(read["loc"], lang)
        if read["lines"]:
            where += words(lang, "lines", lines=separator.join(map(str, read["lines"])))
        print(f"  ≈ {where}", file=out)
        print(f"    {read['message']}", file=out)


def _place(loc: Sequence[str | int], lang: str) -> str:
    """An input place as people read it: `["main", 4]` is main #5, `["roster", "side", 0]` roster side #1."""
    return " ".join(words(lang, part) if isinstance(part, str) else f"#{part + 1}" for part in loc)
