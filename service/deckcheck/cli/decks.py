"""The decks the commands are given, read the same way by each (a .ydk, .ydke, .json or text file, or a ydke:// link
given as it is; a file's text as the desk reads it, UTF-8 else Shift_JIS), and `deckcheck qr`, which draws one as a
QR code of its ydke:// link: of a JSON request it reads only the deck, since a code holds nothing of the event."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import IO, Any

import orjson
from pydantic import ValidationError

from deckcheck.cli.output import EXIT_ERROR, EXIT_OK
from deckcheck.config import Settings
from deckcheck.data import Data
from deckcheck.encoding import Encoding, decoded_text
from deckcheck.errors import Error, InvalidInput
from deckcheck.formats import QrImage, deck_file_format, write_qr
from deckcheck.input_files import read_bounded
from deckcheck.wire.inputs import deck_from, written
from deckcheck.wire.requests import DeckIn, ValidateRequest

# What reading a deck file raises from outside deckcheck: a file that cannot be opened, JSON that is not, JSON that
# holds no object, fields that do not fit a request. Each becomes an InvalidInput saying it in one line.
_FOREIGN = (OSError, orjson.JSONDecodeError, TypeError, ValidationError)
# The images `deckcheck qr --out` writes, by the name's suffix.
QR_IMAGES: dict[str, QrImage] = {".svg": "svg", ".png": "png"}


def read_file(path: Path, limit: int) -> bytes:
    """A deck or list file the command reads whole, of at most `limit` bytes (DECKCHECK_MAX_BODY_BYTES, the most a
    request body may hold), else FileTooLarge before any of it is read."""
    return read_bounded(path, limit, "DECKCHECK_MAX_BODY_BYTES allows")


def deck_request(source: str, overrides: dict[str, Any], limit: int) -> tuple[ValidateRequest, Encoding | None]:
    """The validate request a file (of at most `limit` bytes, or a ydke link) stands for, with `overrides` (the
    command line's date and list) in place of the file's own; and the encoding the file was read in (None for a
    link). Every failure is an Error, which `why` says in one line."""
    with _as_invalid_input():
        fields, encoding = _fields(source, limit)
        return ValidateRequest.model_validate_json(orjson.dumps({**fields, **overrides})), encoding


def deck_alone(source: str, limit: int) -> DeckIn:
    """The deck a file (of at most `limit` bytes, or a ydke link) gives, without the event: of a JSON request, only
    its deck's fields. Every failure is an Error, which `why` says in one line."""
    with _as_invalid_input():
        deck = {name: value for name, value in _fields(source, limit)[0].items() if name in DeckIn.model_fields}
        return DeckIn.model_validate_json(orjson.dumps(deck))


@contextmanager
def _as_invalid_input() -> Iterator[None]:
    """The block's failures of reading a file, decoding it or validating its fields, as InvalidInput saying why."""
    try:
        yield
    except _FOREIGN as exc:
        raise InvalidInput(why(exc)) from exc


def _fields(source: str, limit: int) -> tuple[dict[str, Any], Encoding | None]:
    """What a file (or a ydke link) holds, as a request's fields: a JSON file's own (a TypeError when it holds no
    object), else the deck in its form; and the encoding the file was read in."""
    if source.startswith("ydke://"):
        return {"ydke": source}, None
    path = Path(source)
    text, encoding = decoded_text(read_file(path, limit))
    fmt = deck_file_format(path, text)
    if fmt == "json":
        return {**orjson.loads(text)}, encoding
    return {fmt: text.strip() if fmt == "ydke" else text}, encoding


def why(exc: Exception) -> str:
    """One line saying what went wrong reading, checking or writing a deck: each bad line by number, each field
    where it is."""
    if isinstance(exc, Error) and exc.errors:
        return "; ".join(_line_error(e) for e in exc.errors)
    if isinstance(exc, ValidationError):
        return "; ".join(f"{_where(e['loc'])}{e['msg']}" for e in exc.errors())
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
        type=_image_path,
        help="write the code here: PNG for a name ending in .png, SVG for .svg (default: SVG to standard output)",
    )


def _image_path(text: str) -> Path:
    """An --out name `deckcheck qr` can write: one ending in .svg or .png, whatever the case."""
    if Path(text).suffix.lower() not in QR_IMAGES:
        raise argparse.ArgumentTypeError(f"not a name ending in .svg or .png: {text!r}")
    return Path(text)


def run_qr(args: argparse.Namespace, settings: Settings, data: Data, stdout: IO[str], stderr: IO[str]) -> int:
    """Carry out `deckcheck qr`; return the exit code (2 for a deck that cannot be read, names a card that is no
    official card's, or is too large for a QR code)."""
    out: Path | None = args.out
    image: QrImage = "svg" if out is None else QR_IMAGES[out.suffix.lower()]
    try:
        deck = deck_from(deck_alone(args.file, settings.max_body_bytes), data)
        drawn = written(deck, data.cards, partial(write_qr, deck, data.cards, image))
        if out is None:
            stdout.write(drawn.decode("utf-8"))
        else:
            out.write_bytes(drawn)
    except (Error, OSError) as exc:  # OSError: the --out file cannot be written
        message = why(exc)
    else:
        return EXIT_OK
    print(f"deckcheck: {args.file}: {message}", file=stderr)
    return EXIT_ERROR
