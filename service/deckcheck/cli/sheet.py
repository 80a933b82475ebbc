"""`deckcheck sheet FILE [--out x.pdf]`: a deck's registration sheet as a PDF, as POST /v1/decks/convert with
`to: sheet` prints it (paper/sheet.py), the player and event from the options and blank where none is given."""

from __future__ import annotations

import argparse
import datetime as dt
from functools import partial
from pathlib import Path
from typing import IO, Any

from deckcheck.cli.decks import deck_alone, why
from deckcheck.cli.output import EXIT_ERROR, EXIT_OK
from deckcheck.config import Settings
from deckcheck.data import Data
from deckcheck.errors import Error
from deckcheck.paper.sheet import SheetFields, sheet_pdf
from deckcheck.versions import data_version
from deckcheck.wire.inputs import deck_from, written


def add_sheet_parser(commands: Any) -> None:
    """`deckcheck sheet FILE [--out PATH] [--names ja|en] [--paper a4|letter] [--player …] …`."""
    sheet = commands.add_parser("sheet", help="print a deck as a registration sheet (PDF) that reads back exactly")
    sheet.add_argument("file", help="a deck file (.ydk, .ydke, .json, text), or a ydke:// link")
    sheet.add_argument("--out", type=_pdf_path, help="write the PDF here (default: deck-sheet.pdf)")
    sheet.add_argument("--names", choices=("ja", "en"), default="ja", help="card names and words (default ja)")
    sheet.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size (default a4)")
    sheet.add_argument("--player", help="the player's name (default: blank, to fill by hand)")
    sheet.add_argument("--furigana", help="the name's reading in kana")
    sheet.add_argument("--player-id", help="the player's ID (CARD GAME ID)")
    sheet.add_argument("--event", help="the event's name")
    sheet.add_argument("--event-date", type=dt.date.fromisoformat, help="the event's day, YYYY-MM-DD")
    sheet.add_argument("--event-format", choices=("ocg", "tcg"), help="the event's format")


def _pdf_path(text: str) -> Path:
    if Path(text).suffix.lower() != ".pdf":
        raise argparse.ArgumentTypeError(f"not a name ending in .pdf: {text!r}")
    return Path(text)


def run_sheet(args: argparse.Namespace, settings: Settings, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck sheet`; return the exit code (2 for a deck that cannot be read, names a card that is no
    official card's, or is too large for a sheet, and when the paper extra is not installed)."""
    out: Path = args.out or Path("deck-sheet.pdf")
    fields = SheetFields(
        args.player, args.furigana, args.player_id, args.event, args.event_date, args.event_format, args.paper
    )
    try:
        deck = deck_from(deck_alone(args.file, settings.max_body_bytes), data)
        write = partial(sheet_pdf, deck, data.cards, args.names, fields, data_version(data))
        out.write_bytes(written(deck, data.cards, write))
    except (Error, OSError) as exc:  # OSError: the PDF cannot be written; Error: the paper extra missing too
        message = why(exc)
    else:
        print(f"deckcheck: wrote {out}", file=stdout)
        return EXIT_OK
    print(f"deckcheck: {args.file}: {message}", file=stderr)
    return EXIT_ERROR
