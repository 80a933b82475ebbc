"""The decks the commands are given, read the same way by each (a .ydk, .ydke, .json or text file, or a ydke:// link
given as it is), and `deckcheck qr`, which draws one as a QR code of its ydke:// link."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import orjson
from pydantic import ValidationError

from deckcheck.data import Data
from deckcheck.errors import RequestError
from deckcheck.formats import DeckFormatError, DeckTooLargeForQr, deck_file_format, write_qr
from deckcheck.wire import ValidateRequest, deck_from

EXIT_OK, EXIT_ERROR = 0, 2
# What reading a deck (and the event its request names) may raise; `why` says each in one line.
READ_ERRORS = (OSError, UnicodeDecodeError, orjson.JSONDecodeError, TypeError, ValidationError, RequestError)


def deck_request(source: str, overrides: dict[str, Any]) -> ValidateRequest:
    """The validate request a file (or a ydke link) stands for, with `overrides` (the command line's date and list)
    in place of the file's own."""
    if source.startswith("ydke://"):
        return ValidateRequest.model_validate({"ydke": source, **overrides})
    path = Path(source)
    text = path.read_text(encoding="utf-8-sig")
    fmt = deck_file_format(path, text)
    if fmt == "json":
        return ValidateRequest.model_validate_json(orjson.dumps({**orjson.loads(text), **overrides}))
    return ValidateRequest.model_validate({fmt: text.strip() if fmt == "ydke" else text, **overrides})


def why(exc: Exception) -> str:
    """One line saying what went wrong reading a deck: each field error where it is, each bad line by number."""
    if isinstance(exc, ValidationError):
        return "; ".join(f"{_where(e['loc'])}{e['msg']}" for e in exc.errors())
    if isinstance(exc, RequestError):
        return "; ".join(_line_error(e) for e in exc.errors)
    return str(exc)


def _where(loc: Sequence[Any]) -> str:
    return ".".join(str(part) for part in loc) + ": " if loc else ""


def _line_error(error: dict[str, Any]) -> str:
    line = f"line {error['line']}: " if "line" in error else ""
    return f"{line}{_where(error['loc'][1:])}{error['msg']}"


def add_qr_parser(commands: Any) -> None:
    """`deckcheck qr FILE [--out PATH]`."""
    qr = commands.add_parser("qr", help="draw a deck as a QR code of its ydke:// link (SVG, or PNG)")
    qr.add_argument("file", help="a deck file (.ydk, .ydke, .json, text), or a ydke:// link")
    qr.add_argument(
        "--out",
        type=Path,
        help="write the code here: PNG when it ends in .png, else SVG (default: SVG to standard output)",
    )


def run_qr(args: argparse.Namespace, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck qr`; return the exit code (2 for a deck that cannot be read, names a card that is no
    official card's, or is too large for a QR code)."""
    out: Path | None = args.out
    try:
        deck = deck_from(deck_request(args.file, {}), data)
        drawn = write_qr(deck, data.cards, "png" if out is not None and out.suffix.lower() == ".png" else "svg")
        if out is None:
            stdout.write(drawn.decode("utf-8"))
        else:
            out.write_bytes(drawn)
    except READ_ERRORS as exc:
        message = why(exc)
    except (DeckFormatError, DeckTooLargeForQr) as exc:
        message = str(exc)
    else:
        return EXIT_OK
    print(f"deckcheck: {args.file}: {message}", file=stderr)
    return EXIT_ERROR
