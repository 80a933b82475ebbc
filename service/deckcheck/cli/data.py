"""`deckcheck data`: what data the service judges by and how current they are, and new lists and cards added to an
updates folder (DECKCHECK_UPDATES_DIR, or --dir) from the files the ecosystem publishes, each previewed, checked as a
start-up would check it, and recorded. A service watching the folder takes them within seconds (it looks at the files
every DECKCHECK_UPDATES_POLL seconds); each command waits for the services of this machine that watch it, and says
which took the change (cli/watch.py).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any

import orjson

from deckcheck.cli.banlist import print_changes
from deckcheck.cli.output import EXIT_ERROR, EXIT_FAILED, EXIT_OK, table, words
from deckcheck.cli.watch import await_services, reload_services
from deckcheck.config import Settings
from deckcheck.data import Data, DataSource, make_banlist
from deckcheck.data.folder import live, path_text, writing
from deckcheck.data.imports import (
    cards_files,
    cards_plan,
    cdb_rows,
    csv_rows,
    is_cdb,
    list_change,
    list_name,
    read_list,
    removal,
    taken_in,
)
from deckcheck.data.schemas import printable, valid_list_name
from deckcheck.data.status import data_status
from deckcheck.data.updates import Change, carry_out, file_sha256, record, sha256
from deckcheck.data.watchers import watchers
from deckcheck.days import today
from deckcheck.errors import Error, SourceError
from deckcheck.versions import data_version

# The days a list may take effect or cards be first printed on: none before the game's first year, and none so late
# that the day a list after it is due cannot be written.
FIRST_DAY, LAST_DAY = dt.date(1999, 1, 1), dt.date(2999, 12, 31)


def add_data_parser(commands: Any, day: Callable[[str], dt.date]) -> None:
    """The `data` command and its subcommands; `day` reads a date argument."""
    game_day = _within(day, FIRST_DAY, LAST_DAY)
    data = commands.add_parser("data", help="the data judged by: status, and new lists and cards added live")
    actions = data.add_subparsers(dest="action", required=True, parser_class=type(data))
    status = actions.add_parser("status", help="data version, updates, newest lists and what looks out of date")
    status.add_argument("--date", type=day, help="the day to weigh staleness by (default: today in Japan)")
    status.add_argument("--json", action="store_true", help="print JSON for machines")
    add_list = actions.add_parser("add-list", help="add a Forbidden/Limited list (lflist.conf, Konami CSV, JSON)")
    add_list.add_argument("source", help="FILE#LIST of an lflist.conf, a Konami OCG list CSV, or a list JSON")
    add_list.add_argument("--format", choices=("ocg", "tcg"), required=True, help="the list's format")
    add_list.add_argument("--from", dest="start", type=game_day, required=True, help="the day the list takes effect")
    add_list.add_argument("--name", help="the list's name (default: e.g. OCG 2026.10)")
    add_cards = actions.add_parser("add-cards", help="add cards from an EDOPro/ygopro cards.cdb or a cards CSV")
    add_cards.add_argument("source", type=Path, help="a cards.cdb (SQLite) or a CSV in the project's card columns")
    add_cards.add_argument("--ocg-date", type=game_day, help="the day the cards were first printed in Japanese")
    add_cards.add_argument("--tcg-date", type=game_day, help="the day the cards were first printed in the TCG")
    add_cards.add_argument("--names", choices=("en", "ja"), default="en", help="the language of a cdb's names")
    for command in (add_list, add_cards):
        command.add_argument(
            "--replace", action="store_true", help="replace a list or cards of the same id or passcode"
        )
        command.add_argument("--dry-run", action="store_true", help="print what would change, change nothing")
    remove = actions.add_parser("remove", help="take an added list (by id) or card (by passcode) out again")
    remove.add_argument("what", help="a list id (ocg-2026-10-01) or a passcode")
    reload = actions.add_parser("reload", help="tell the services watching the updates folder to load it again now")
    for command in (add_list, add_cards, remove):
        command.add_argument(
            "--lock-wait",
            type=float,
            default=30.0,
            metavar="SECONDS",
            help="how long to wait while another command changes the folder (default 30)",
        )
    for command in (add_list, add_cards, remove, reload):
        command.add_argument(
            "--wait",
            type=float,
            default=20.0,
            metavar="SECONDS",
            help="how long to wait for the services watching the folder to serve the change (default 20; 0: not)",
        )
    check = actions.add_parser("check", help="check an updates folder as a start-up would, without serving")
    check.add_argument("folder", type=Path, help="the updates folder")
    for command in (status, add_list, add_cards, remove, reload):
        command.add_argument(
            "--dir", type=Path, help="the updates folder (default: DECKCHECK_UPDATES_DIR, else the user's data folder)"
        )
    for command in (status, add_list, add_cards, remove, reload, check):
        command.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the text")


def _within(day: Callable[[str], dt.date], first: dt.date, last: dt.date) -> Callable[[str], dt.date]:
    """An argument type: a date `day` reads, from `first` to `last`, else a usage error naming the range."""

    def within(text: str) -> dt.date:
        found = day(text)
        if not first <= found <= last:
            raise argparse.ArgumentTypeError(f"not a day from {first} to {last}: {text!r}")
        return found

    return within


def run_data(args: argparse.Namespace, argv: list[str], settings: Settings, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck data …`; return the exit code."""
    source = settings.data_source()
    try:
        if args.action == "check":
            data = DataSource(source.root, args.folder, source.cadence).load()
            print(
                words(
                    args.lang,
                    "data_checked",
                    folder=path_text(args.folder),
                    cards=len(data.cards),
                    lists=len(data.banlists.by_id),
                ),
                file=stdout,
            )
            return EXIT_OK
        folder = args.dir or settings.updates_folder()
        if args.action == "status":
            where = source if args.dir is None else DataSource(source.root, args.dir, source.cadence)
            return _status(args, where, stdout)
        if args.action == "reload":
            return EXIT_OK if reload_services(folder, args.wait, args.lang, stdout) else EXIT_FAILED
        target = _target(source, folder)
        # One writer at a time, the plan read from the folder it changes; a dry run writes nothing and waits for no one.
        with nullcontext() if getattr(args, "dry_run", False) else writing(folder, args.lock_wait, argv):
            change = _plan(args, argv, target, folder, stdout)
            if change is None:
                return EXIT_OK
            before = watchers(folder)  # as they were before the change: each is waited for until it serves it
            carry_out(change, folder, target)
    except (Error, OSError) as exc:
        print(f"deckcheck: {_problem(exc)}", file=stderr)
        return EXIT_ERROR
    for said, files in (("data_written", change.writes), ("data_removed", change.removes)):
        if files:
            print(words(args.lang, said, folder=path_text(folder), files=path_text(", ".join(files))), file=stdout)
    if args.wait > 0:
        await_services(before, folder, args.wait, args.lang, stdout)
    return EXIT_OK


def _problem(exc: Error | OSError) -> str:
    """What went wrong, in one line: an error's message; the file and the system's reason of an OSError (the updates
    folder's own writes raise FolderUnwritable, an Error; this is what the system refuses beyond them: the private
    copy of a source, the data folder itself when it is the folder written)."""
    if isinstance(exc, Error):
        return path_text(str(exc))  # it may name a file, or repeat a word of the command, that is not UTF-8
    where = "" if exc.filename is None else f"{path_text(exc.filename)}: "
    return f"{where}{exc.strerror or type(exc).__name__}"


def replay(command: list[str], source: Path, folder: Path) -> None:
    """Carry out a recorded `data add-…` command (its words after `deckcheck data`) again into `folder`, the source
    file read from `source`, without recording it again: how the bundle is rebuilt (scripts/build_data.py)."""
    parser = argparse.ArgumentParser(prog="deckcheck")
    add_data_parser(parser.add_subparsers(dest="command"), dt.date.fromisoformat)
    args = parser.parse_args(["data", *command])
    if args.action == "add-list":  # FILE#LIST: the same list of the file found
        _, mark, name = args.source.partition("#")
        args.source = f"{source}{mark}{name}"
    else:
        args.source = source
    args.dry_run = False
    target = DataSource(folder)
    change = _plan(args, command, target, folder, io.StringIO())
    assert change is not None
    carry_out(change, folder, target, keep_record=False)


def _target(source: DataSource, folder: Path) -> DataSource:
    """The data an updates folder lies over; the data folder itself, when that is the folder written."""
    if folder.resolve() == source.root.resolve():
        return DataSource(source.root, None, source.cadence)
    return DataSource(source.root, folder, source.cadence)


def _plan(args: argparse.Namespace, argv: list[str], target: DataSource, folder: Path, out: IO[str]) -> Change | None:
    """The change the command asks for, its preview printed; None on a dry run. Only the data a preview needs are
    loaded here (none for a removal); `carry_out` loads the data with the change made before it writes."""
    if args.action == "remove":
        writes, removes = removal(folder, args.what)
        return Change(writes, removes, record("remove", argv, None, None, removed=args.what))
    if args.action == "add-list":
        change = _list(args, argv, target, folder, out)
    else:
        with taken_in(args.source) as copy:
            change = _cards(args, argv, folder, copy, beneath=_beneath(target) or target.load(), out=out)
    if args.dry_run:
        print(words(args.lang, "data_dry_run"), file=out)
        return None
    return change


def _beneath(target: DataSource) -> Data | None:
    """The data an updates folder lies over; None when the folder written is the data folder itself."""
    return DataSource(target.root, None, target.cadence).load() if target.updates is not None else None


def _list(args: argparse.Namespace, argv: list[str], target: DataSource, folder: Path, out: IO[str]) -> Change:
    """The change an import of a list makes, the changes from the list in force the day before printed."""
    title = list_name(args.format, args.start) if args.name is None else valid_list_name(args.name)
    data = target.load()
    path, mark, list_in = args.source.partition("#")
    with taken_in(Path(path)) as copy:
        limits, name, raw = read_list(f"{copy}{mark}{list_in}", data.cards)
    path, body = list_change(
        args.format, args.start, title, limits, (_beneath(target) or data).banlists, replace=args.replace
    )
    if (live(folder) / path).is_file() and target.updates is not None and not args.replace:
        raise SourceError(path, [f"{folder} holds this list already; to replace it, say so (--replace)"])
    before = data.banlists.in_force(args.start - dt.timedelta(days=1), args.format)
    new = make_banlist("new", title, args.format.upper(), dates=(args.start, None), limits=limits, cards=data.cards)
    if before is not None:
        print_changes(before, new, data.cards, args.lang, out)
    return Change({path: body}, (), record("add-list", argv, name, sha256(raw), files=[path]))


def _cards(
    args: argparse.Namespace, argv: list[str], folder: Path, copy: Path, *, beneath: Data, out: IO[str]
) -> Change:
    """The change an import of cards makes, from `copy`, the source file taken in (`taken_in` of data/imports.py)."""
    if is_cdb(copy):
        dates = {"ocg": args.ocg_date, "tcg": args.tcg_date}
        if args.ocg_date is None and args.tcg_date is None:
            raise SourceError(args.source.name, ["a cdb carries no printing dates: give --ocg-date or --tcg-date"])
        rows, skipped = cdb_rows(copy, args.names, dates)
    else:
        rows, skipped = csv_rows(copy), []
    digest = file_sha256(copy)  # read a block at a time, never whole
    plan = cards_plan(folder, args.source, digest, rows, beneath.cards, replace=args.replace)
    lang = args.lang
    print(
        words(
            lang,
            "data_cards",
            count=len(plan.rows),
            path=plan.path,
            provisional=sum(r["provisional"] == "1" for r in plan.rows),
        ),
        file=out,
    )
    for passcode, name, why in skipped:
        print(words(lang, "data_skipped", passcode=passcode, name=name, why=why), file=out)
    if plan.kept:
        print(words(lang, "data_kept", count=len(plan.kept), first=", ".join(map(str, plan.kept[:10]))), file=out)
    for path, left in plan.superseded.items():
        print(words(lang, "data_superseded", path=path, left=len(left)), file=out)
    writes, removes = cards_files(plan)
    return Change(writes, removes, record("add-cards", argv, args.source.name, digest, files=[*writes, *removes]))


_SHOWN = 300  # characters of a recorded source or command shown by `data status`


def _status(args: argparse.Namespace, source: DataSource, out: IO[str]) -> int:
    data = source.load()
    day = args.date or today()
    status: dict[str, Any] = {"data_dir": path_text(source.root)}
    status["updates_dir"] = None if source.updates is None else path_text(source.updates)
    status |= {"data_version": data_version(data), "date": day.isoformat(), **data_status(data, day)}
    status["updates"] = list(data.imports)
    if args.json:
        out.write(orjson.dumps(status, option=orjson.OPT_INDENT_2).decode() + "\n")
        return EXIT_OK
    lang = args.lang
    print(words(lang, "data_status", **status), file=out)
    for held in status["lists_in_force"]:
        print(words(lang, "data_in_force_stale" if held["may_be_outdated"] else "data_in_force", **held), file=out)
    rows = [
        (
            found["name"],
            found["effective_from"],
            words(lang, "data_due", day=found["next_list_due"]),
            words(lang, "data_stale" if found["may_be_outdated"] else "data_current"),
        )
        for found in status["newest_lists"]
    ]
    for line in table(rows, ("left", "left", "left", "left"), out):
        print(line, file=out)
    printings = "data_printings_missing" if status["printings_may_be_missing"] else "data_printings"
    print(words(lang, printings, day=status["printings_complete_until"]), file=out)
    for update in status["updates"]:
        print(
            words(
                lang,
                "data_update",
                **{
                    "sha256": "-",
                    **update,
                    # A record's words are an operator's, escape sequences and all: shown escaped, and cut.
                    "source": printable(str(update.get("source", "-")), _SHOWN),
                    "command": printable(" ".join(update.get("command", [])), _SHOWN),
                },
            ),
            file=out,
        )
    return EXIT_OK
