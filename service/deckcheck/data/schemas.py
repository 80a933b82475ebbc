"""The schemas of the data files and the bounds on them. Every file of a data or updates folder (a Forbidden/Limited
list, a card file's header, cards/printings.json, provenance/imports.ndjson) and every list JSON an operator imports
is read through these, at start-up, on a reload, by `deckcheck data check` and by every import: a key misspelled, a
value of the wrong kind or a file past a bound is refused alike everywhere, naming the file, the entry and the key.
The bounds, which docs/operators/data.md quotes, are far above anything a release has held: only a broken or hostile
file meets them. The data modules import this one as they read a file, so the engine loads no pydantic
(tests/test_layout.py)."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PlainValidator, ValidationError
from pydantic_core import PydanticCustomError

from deckcheck.errors import DataError, InvalidInput, SourceError
from deckcheck.input_files import FileTooLarge, NotRegular, read_bounded
from deckcheck.limits import MAX_NAME_CHARS, MAX_PASSCODE

_MIB = 1024 * 1024
# Cards (rows) one import (a cards.cdb, a card CSV) or one folder's card files may hold: the bundle, every card since
# 1999 with its alternate artworks, is some 14,400 rows, as is EDOPro's cdb; a million would cost gigabytes.
MAX_CARDS = 50_000
MAX_CDB_BYTES = 64 * _MIB  # a cards.cdb: EDOPro's full one, effect texts and all, is some 20 MiB
MAX_CARD_FILE_BYTES = 64 * _MIB  # a card CSV: the bundled one is 1.6 MiB; 50,000 rows of the longest names fit
MAX_CARD_NAME_CHARS = MAX_NAME_CHARS  # a deck may give no longer a name (deckcheck.limits); the longest is 63
MAX_LISTS = 1_000  # list files in one folder: the bundle's 133 are two formats' lists since 1999
MAX_LIST_NAME_CHARS = 100  # as an lflist.conf's (data/lflist.py): repeated in every message about the list
MAX_JSON_BYTES = 4 * _MIB  # a list file or printings.json: a list naming every card is some 0.9 MiB
MAX_JSON_DEPTH = 8  # lists and objects within each other: a list file nests 2 deep, an import record 2
MAX_RECORDS_BYTES = 16 * _MIB  # provenance/imports.ndjson: tens of thousands of imports
MAX_READINGS_BYTES = 4 * _MIB  # cards/readings.tsv: the bundled one is some 60 KiB
MAX_TEXT_CHARS = 4096  # a word of a recorded command, a file name: as long as a path may be
MAX_RECORD_ITEMS = 1_000  # words of a recorded command, files of one import

# Never printed or taken as they are: C0 and C1 controls, DEL (an ESC starts a terminal's escape sequences), and what
# reorders or breaks the text around it (bidirectional marks and overrides, line and paragraph separators).
_BIDI = r"\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(rf"[\x00-\x1f\x7f-\x9f{_BIDI}]")
_UNSAFE_IN_TEXT = re.compile(rf"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f{_BIDI}]")  # a text file's tabs and line ends
_STRING, _NOT_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S), re.compile(r"[^\[\]{}]+")  # in JSON


class Invalid(InvalidInput):
    """What is wrong with a file, as (entry, problem) pairs, the most telling first: the entry is `file` for the
    whole file, a key (`semi-limited`), an item (`limited[3]`) or a line (`line 7`)."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{entry}: {problem}" for entry, problem in problems))
        self.problems = list(problems)

    def data_error(self, file: str) -> DataError:
        """The first problem, as the DataError of a load of `file`."""
        entry, problem = self.problems[0]
        return DataError(file, entry, problem)

    def source_error(self, source: str) -> SourceError:
        """Every problem, as the SourceError of an import of `source`."""
        shown = [problem if entry == "file" else f"{entry}: {problem}" for entry, problem in self.problems]
        return SourceError(source, shown)


def _escape(char: str) -> str:
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def printable(text: str, limit: int) -> str:
    """`text` safe to print: every control character (C0, C1, DEL, so an ESC sequence too), bidirectional mark and
    line separator written as its escape (`\\x1b`, `\\u202e`); at most `limit` (>= 1) characters, ending in `…`
    where cut, never within an escape. Text safe and short enough comes back as it is."""
    pieces = [_escape(char) if _UNSAFE.match(char) else char for char in text[:limit]]
    total = sum(map(len, pieces))
    if len(text) > limit or total > limit:
        while total > limit - 1:
            total -= len(pieces.pop())
        pieces.append("…")
    return "".join(pieces)


def unsafe_character(text: str) -> str | None:
    """The first character of `text` that `printable` escapes, escaped; None when there is none."""
    return None if (found := _UNSAFE.search(text)) is None else _escape(found[0])


def _list_name(name: str | None) -> str | None:
    if name is not None and not 1 <= len(name) <= MAX_LIST_NAME_CHARS:
        problem = f"a list's name must be 1 to {MAX_LIST_NAME_CHARS} characters, not {len(name):,}"
        raise PydanticCustomError("list_name", problem)
    if name is not None and unsafe_character(name) is not None:
        problem = f"a list's name may not hold the control character {unsafe_character(name)}"
        raise PydanticCustomError("list_name", problem)
    return name


def valid_list_name(name: str) -> str:
    """`name` (a list's `--name`) when it may name a list: 1 to MAX_LIST_NAME_CHARS characters and no control
    character (it is printed, logged and served as written); else SourceError naming `--name` and why."""
    try:
        _list_name(name)
    except PydanticCustomError as exc:
        raise SourceError("--name", [exc.message()]) from None
    return name


def read_file(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path`; Invalid (entry `file`) when it cannot be read, is not a regular file
    (a pipe is never waited on) or holds more than `limit` bytes, refused by its size before it is read."""
    try:
        return read_bounded(path, limit, "a file of its kind may hold", regular_only=True)
    except NotRegular:
        raise Invalid([("file", "is not a regular file")]) from None
    except FileTooLarge:
        raise Invalid([("file", f"holds more than the {limit:,} bytes a file of its kind may hold")]) from None
    except OSError as exc:
        raise Invalid([("file", f"cannot be read: {exc.strerror or exc}")]) from None


def decoded(raw: bytes, *, text_file: bool) -> str:
    """`raw` as UTF-8 text, a BOM dropped; Invalid naming the line of the first byte that is not UTF-8, and in a
    `text_file` (a card CSV, a readings table) of the first control character but a tab or a line end."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise Invalid([(f"line {line}", f"byte {raw[exc.start]:#04x} is not UTF-8 text")]) from None
    found = _UNSAFE_IN_TEXT.search(text) if text_file else None
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise Invalid([(f"line {line}", f"holds the control character {_escape(found[0])}")])
    return text


def json_value(raw: bytes) -> Any:
    """The JSON value `raw` holds; Invalid when it is not UTF-8 JSON, or nests lists and objects deeper than
    MAX_JSON_DEPTH (counted before it is parsed, so a file of a hundred thousand `[` costs one pass)."""
    text = decoded(raw, text_file=False)
    depth = 0
    for bracket in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_JSON_DEPTH:
            raise Invalid([("file", f"lists and objects nest more than {MAX_JSON_DEPTH} deep")])
    try:
        return json.loads(text)
    except ValueError as exc:
        raise Invalid([("file", f"not JSON: {exc}")]) from None


_Model = TypeVar("_Model", bound=BaseModel)
_MESSAGES = {  # the problem a check of the models below names, by pydantic's error type
    "missing": "is required",
    "model_type": "must hold a JSON object",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "int_type": "must be a passcode number",
    "greater_than_equal": f"must be a passcode number from 0 to {MAX_PASSCODE:,}",
    "less_than_equal": f"must be a passcode number from 0 to {MAX_PASSCODE:,}",
    "date_type": "must be a date written YYYY-MM-DD",
    "string_too_long": "must be at most {max_length:,} characters",
    "too_long": "must hold at most {max_length:,} entries",
    "literal_error": "must be one of {expected}, not {given}",
    "extra_forbidden": "is not a key of this file; its keys are {keys}",
    "string_pattern_mismatch": "must be a SHA-256 in 64 lower-case hexadecimal digits",  # the only pattern
}


def _entry(loc: Iterable[int | str]) -> str:
    entry = "".join(f"[{part}]" if isinstance(part, int) else f".{printable(part, 60)}" for part in loc)
    return entry.removeprefix(".") or "file"


def validated(model: type[_Model], value: Any) -> _Model:
    """`value` read as `model`; Invalid naming every entry at fault, an unknown key first (a misspelled key also
    leaves the key it stands for missing)."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            kind, given = error["type"], printable(repr(error["input"]), 40)
            context = {**error.get("ctx", {}), "keys": ", ".join(model.model_fields), "given": given}
            problem = _MESSAGES[kind].format(**context) if kind in _MESSAGES else error["msg"]
            problems.append((kind != "extra_forbidden", _entry(error["loc"]), problem))
        raise Invalid([(entry, problem) for _, entry, problem in sorted(problems, key=lambda p: p[0])]) from None


def _date(value: Any) -> Any:
    if value is None or isinstance(value, dt.date):
        return value
    if isinstance(value, str) and len(value) == 10:
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise PydanticCustomError("bad_date", "bad date {given}: write YYYY-MM-DD", {"given": printable(repr(value), 40)})


def _listed(what: str) -> BeforeValidator:
    def check(value: Any) -> Any:
        if not isinstance(value, list):
            raise PydanticCustomError("list_type", "must be a list of {what}", {"what": what})
        return value

    return BeforeValidator(check)


def _passcode_or_name(value: Any) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_PASSCODE:
        return value
    if isinstance(value, str) and 1 <= len(value) <= MAX_CARD_NAME_CHARS:
        return value
    problem = f"must be a passcode up to {MAX_PASSCODE:,} or a name of 1 to {MAX_CARD_NAME_CHARS} characters"
    raise PydanticCustomError("passcode_or_name", problem)


def _utc_time(value: str) -> str:
    try:
        dt.datetime.fromisoformat(value[:40])
    except ValueError:
        raise PydanticCustomError("bad_time", "must be a time in ISO 8601, e.g. 2026-12-01T06:00:00Z") from None
    return value


class _Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Date = Annotated[dt.date, BeforeValidator(_date)]
OptionalDate = Annotated[dt.date | None, BeforeValidator(_date)]
Passcodes = Annotated[
    list[Annotated[int, Field(ge=0, le=MAX_PASSCODE)]], Field(max_length=MAX_CARDS), _listed("passcodes")
]
PasscodesOrNames = Annotated[
    list[Annotated[int | str, PlainValidator(_passcode_or_name)]],
    Field(max_length=MAX_CARDS),
    _listed("passcodes or names"),
]
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]


class ListFile(_Schema):
    """A Forbidden/Limited list of a data or updates folder, banlists/<format>/<day>.json: canonical passcodes under
    each status; `replaces` says it replaces the list of the same id in the data beneath."""

    name: Annotated[str, AfterValidator(_list_name)]
    format: Literal["OCG", "TCG"]
    effective_from: Date
    effective_until: OptionalDate = None
    forbidden: Passcodes
    limited: Passcodes
    semi_limited: Passcodes
    replaces: bool = False


class ListSource(_Schema):
    """The list JSON an operator imports (`data add-list`): passcodes or names under each status; a list file's other
    keys are checked but not taken (the command gives the format, the day and the name)."""

    name: Annotated[str | None, AfterValidator(_list_name)] = None
    format: Literal["OCG", "TCG"] | None = None
    effective_from: OptionalDate = None
    effective_until: OptionalDate = None
    forbidden: PasscodesOrNames = []
    limited: PasscodesOrNames = []
    semi_limited: PasscodesOrNames = []
    replaces: bool = False


class Printings(_Schema):
    """cards/printings.json: the last day the folder's card printings are known to be complete."""

    complete_until: Date


class ImportRecord(_Schema):
    """A line of provenance/imports.ndjson, the record of one command (data/updates.py `record`)."""

    time: Annotated[str, Field(max_length=40), AfterValidator(_utc_time)]
    action: Literal["add-list", "add-cards", "remove"]
    command: Annotated[list[Text], Field(max_length=MAX_RECORD_ITEMS)]
    source: Text | None = None
    sha256: Annotated[str, Field(pattern="^[0-9a-f]{64}$")] | None = None
    files: Annotated[list[Text], Field(max_length=MAX_RECORD_ITEMS)] | None = None
    removed: Text | None = None


def columns_problem(found: Sequence[str], known: Sequence[str]) -> str:
    """Why a header that is not one a file of its kind has is wrong: the first column not among `known`, if any."""
    unknown = [repr(column) for column in found if column not in known]
    return f"unknown column {printable(unknown[0], 60)}" if unknown else "columns lacking, repeated or out of order"
