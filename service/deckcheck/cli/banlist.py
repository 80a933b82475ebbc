"""`deckcheck banlist export` and `deckcheck banlist diff`: the bundled lists as lflist.conf text, and what changes
from one list to another. A list is named by its id, or by an lflist.conf file (`FILE`, or `FILE#NAME` for one of
the several lists a file holds)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO, Any

import orjson

from deckcheck.cli.decks import read_file
from deckcheck.cli.output import EXIT_ERROR, EXIT_OK, table, words
from deckcheck.config import Settings
from deckcheck.data import (
    STATUS_NAMES,
    Banlist,
    CardIndex,
    Data,
    LflistError,
    as_banlist,
    banlists_as_lflist,
    differences,
    read_lflist,
)
from deckcheck.errors import Error, InvalidInput
from deckcheck.input_files import FileTooLarge


class ListError(InvalidInput):
    """A list argument that names no list."""


def add_banlist_parser(commands: Any) -> None:
    """The `banlist` command and its two subcommands."""
    banlist = commands.add_parser("banlist", help="export Forbidden/Limited lists as lflist.conf, or compare two")
    actions = banlist.add_subparsers(dest="action", required=True, parser_class=type(banlist))
    export = actions.add_parser("export", help="print lists as lflist.conf text (EDOPro, ygopro)")
    export.add_argument("ids", nargs="*", help="bundled list ids, e.g. ocg-2008-03-01")
    export.add_argument("--format", choices=("ocg", "tcg"), help="every bundled list of this format")
    diff = actions.add_parser("diff", help="every card whose status changes from list A to list B")
    diff.add_argument("a", help="a list id, or an lflist.conf file (FILE or FILE#NAME)")
    diff.add_argument("b", help="a list id, or an lflist.conf file (FILE or FILE#NAME)")
    diff.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the card names and the text")
    diff.add_argument("--json", action="store_true", help="print JSON for machines")


def run_banlist(args: argparse.Namespace, settings: Settings, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck banlist …`; return the exit code."""
    try:
        if args.action == "export":
            return _export(args, data, stdout)
        return _diff(args, data, settings.max_body_bytes, stdout)
    except Error as exc:
        print(f"deckcheck: {exc}", file=stderr)
        return EXIT_ERROR


def _export(args: argparse.Namespace, data: Data, stdout: IO[str]) -> int:
    if not args.ids and args.format is None:
        raise ListError("name the lists to export, or give --format ocg or --format tcg")
    chosen = [_bundled(list_id, data) for list_id in args.ids]
    if args.format is not None:
        chosen += data.banlists.of_format(args.format)
    # A list named twice (by id and again by --format) is written once: a file may not hold one name twice.
    text = banlists_as_lflist(list(dict.fromkeys(chosen)), data.cards)
    # Line by line: a reader that leaves early (`| head`) is then noticed at the next write, where one large write
    # would only be cut short without a word.
    stdout.writelines(text.splitlines(keepends=True))
    return EXIT_OK


def _diff(args: argparse.Namespace, data: Data, limit: int, stdout: IO[str]) -> int:
    old, new = _named(args.a, data, limit), _named(args.b, data, limit)
    rows = [
        (data.cards.by_passcode[passcode].name(args.lang), passcode, STATUS_NAMES[was], STATUS_NAMES[now])
        for passcode, was, now in differences(old, new, data.cards)
    ]
    if args.json:
        changes = [{"passcode": p, "name": name, "from": was, "to": now} for name, p, was, now in rows]
        body = {"from": old.name, "to": new.name, "changes": changes}
        stdout.write(orjson.dumps(body, option=orjson.OPT_INDENT_2).decode() + "\n")
        return EXIT_OK
    print_changes(old, new, data.cards, args.lang, stdout)
    return EXIT_OK


def print_changes(old: Banlist, new: Banlist, cards: CardIndex, lang: str, stdout: IO[str]) -> None:
    """The table of every card whose status changes from `old` to `new`, with a line saying how many."""
    rows = [
        (cards.by_passcode[passcode].name(lang), passcode, STATUS_NAMES[was], STATUS_NAMES[now])
        for passcode, was, now in differences(old, new, cards)
    ]
    print(
        words(lang, "changes", old=old.name, new=new.name, count=len(rows)),
        file=stdout,
    )
    cells = [(name, str(p), words(lang, was), "→", words(lang, now)) for name, p, was, now in rows]
    for line in table(cells, ("left", "right", "left", "left", "left"), stdout):
        print(line, file=stdout)


def _bundled(list_id: str, data: Data) -> Banlist:
    found = data.banlists.get(list_id)
    if found is None:
        raise ListError(f"no bundled list is called {list_id!r}")
    return found


def _named(spec: str, data: Data, limit: int) -> Banlist:
    """A bundled list by id, else the list an lflist.conf file of at most `limit` bytes holds (FILE#NAME picks one
    of several)."""
    found = data.banlists.get(spec)
    if found is not None:
        return found
    path, _, name = spec.partition("#")
    if not Path(path).is_file():
        raise ListError(f"{spec!r} is neither a bundled list id nor an lflist.conf file")
    try:
        read = read_lflist(read_file(Path(path), limit).decode("utf-8-sig"), data.cards, name or None)
    except (OSError, UnicodeDecodeError, FileTooLarge) as exc:
        raise ListError(f"{path}: {exc}") from None
    except LflistError as exc:
        problems = "; ".join(("" if p.line is None else f"line {p.line}: ") + p.msg for p in exc.problems[:20])
        raise ListError(f"{path}: {problems}") from None
    # A file says nothing of its format or dates; a diff reads neither.
    return as_banlist(read, "file", "", data.cards)
