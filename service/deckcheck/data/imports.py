"""Turning the files new data arrive in into changes of an updates folder (data/updates.py): a list from an
lflist.conf, Konami's OCG list CSV or the project's own list JSON; cards from an EDOPro/ygopro cards.cdb or a CSV in
the project's card columns; and taking an added list or card out again."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from deckcheck.bounded import TooLarge, read_bounded
from deckcheck.data.banlists import STATUS_LIMITS, Banlists, build_limits
from deckcheck.data.cards import UPDATE_CARD_COLUMNS, CardIndex, read_card_file
from deckcheck.data.cdb import CdbCard, read_cdb
from deckcheck.data.konami import read_konami_csv
from deckcheck.data.lflist import LflistError, read_lflist
from deckcheck.data.loader import card_paths
from deckcheck.data.updates import card_file, list_file, superseded
from deckcheck.errors import DataError, SourceError

_STEM = re.compile(r"[^a-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class CardsPlan:
    """What an import of cards would write: the card file's path and rows, the rows of other card files that lose
    provisional cards now given under their final passcodes, and the cards beneath it leaves as they are."""

    path: str
    rows: tuple[Mapping[str, str], ...]
    superseded: Mapping[str, list[dict[str, str]]]
    kept: tuple[int, ...]  # passcodes already cards beneath, left as they are (no --replace)


def read_list(spec: str, cards: CardIndex) -> tuple[dict[int, int], str, bytes]:
    """The limits a list source holds, its file name and its bytes: `FILE#LIST` or a one-list lflist.conf, Konami's
    OCG list CSV (UTF-8 or CP932), or the project's list JSON (passcodes or names under forbidden, limited and
    semi_limited). Raise SourceError naming each problem."""
    path, _, name = spec.partition("#")
    raw, source = _read(Path(path)), Path(path).name
    text = raw.decode("utf-8-sig", errors="replace").lstrip()
    if text.startswith(("{", "[")) or path.endswith(".json"):
        return _list_json(raw, cards, source), source, raw
    if name or any(line.startswith("!") for line in text.splitlines()):
        try:
            read = read_lflist(raw.decode("utf-8-sig"), cards, name or None)
        except UnicodeDecodeError as exc:
            raise SourceError(source, [f"not UTF-8 text: {exc}"]) from None
        except LflistError as exc:
            problems = [p.msg if p.line is None else f"line {p.line}: {p.msg}" for p in exc.problems]
            raise SourceError(source, problems) from None
        if read.whitelist:
            raise SourceError(source, ["a $whitelist list names the only cards allowed; an event's list cannot be one"])
        return dict(read.limits), source, raw
    return read_konami_csv(raw, cards, source), source, raw


def _list_json(raw: bytes, cards: CardIndex, source: str) -> dict[int, int]:
    try:
        body = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise SourceError(source, [f"not JSON: {exc}"]) from None
    if not isinstance(body, dict):
        raise SourceError(source, ["must hold a JSON object"])
    statuses = {status: body.get(status, []) for status in STATUS_LIMITS}
    wrong = [status for status, given in statuses.items() if not isinstance(given, list)]
    if wrong:
        raise SourceError(source, [f"{status}: must be a list of passcodes or names" for status in wrong])
    try:
        return build_limits(statuses, cards)
    except ValueError as exc:
        raise SourceError(source, [str(exc)]) from None


def list_name(fmt: str, day: dt.date) -> str:
    """The name a list gets unless one is given, as the bundled lists are named: `OCG 2026.10`."""
    return f"{fmt.upper()} {day.year}.{day.month:02d}"


def list_change(
    fmt: str, day: dt.date, name: str, limits: Mapping[int, int], beneath: Banlists | None, *, replace: bool
) -> tuple[str, bytes]:
    """The file of a new list; it replaces a list of the same id in the data beneath only with `replace`."""
    list_id = f"{fmt}-{day.isoformat()}"
    replaces = beneath is not None and beneath.get(list_id) is not None
    if replaces and not replace:
        raise SourceError(list_id, [f"{list_id} is a list already; to replace it, say so (--replace)"])
    return list_file(fmt, day, name, limits, replaces=replaces)


def cdb_rows(
    path: Path, names: str, dates: Mapping[str, dt.date | None]
) -> tuple[list[dict[str, str]], list[tuple[int, str, str]]]:
    """The rows a cards.cdb gives, with its names in `names` (en or ja) and the day its set was first printed in
    each format; a card of a format with no day given is not printed in it. And the rows that are no card."""
    read = read_cdb(path)
    return [_cdb_row(card, names, dates) for card in read.cards], list(read.skipped)


def _cdb_row(card: CdbCard, names: str, dates: Mapping[str, dt.date | None]) -> dict[str, str]:
    ocg, tcg = dates.get("ocg") if card.ocg else None, dates.get("tcg") if card.tcg else None
    return {
        "passcode": str(card.passcode),
        "alias": str(card.alias),
        "official": "0" if card.provisional else "1",
        "name_ja": card.name if names == "ja" else "",
        "name_en": card.name if names == "en" else "",
        "kind": card.kind,
        "extra_deck_type": card.extra_deck_type,
        "pendulum": str(int(card.pendulum)),
        "ocg": str(int(card.ocg)),
        "tcg": str(int(card.tcg)),
        "ja_first_print": "" if ocg is None else ocg.isoformat(),
        "ja_first_print_exact": str(int(ocg is not None)),
        "tcg_first_print": "" if tcg is None else tcg.isoformat(),
        "tcg_first_print_exact": str(int(tcg is not None)),
        "provisional": str(int(card.provisional)),
    }


def csv_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV in the project's card columns (with or without `provisional` and `replaces`), read as a
    card file of the data is."""
    _bounded(path)
    try:
        rows = [row for row, _file, _entry in read_card_file(path)]
    except DataError as exc:
        raise SourceError(path.name, [f"{exc.entry}: {exc.problem}"]) from None
    return [
        {key: row.get(key) or "0" if key in ("provisional", "replaces") else row[key] for key in UPDATE_CARD_COLUMNS}
        for row in rows
    ]


def cards_plan(
    folder: Path, source: Path, rows: Sequence[dict[str, str]], beneath: CardIndex | None, *, replace: bool
) -> CardsPlan:
    """Where the rows of `source` go in `folder`, which of them are cards beneath already (kept, unless `replace`),
    and which provisional cards of other files they supersede."""
    relative = f"cards/{_STEM.sub('-', source.stem.lower()).strip('-') or 'cards'}.csv"
    known = beneath.by_passcode if beneath is not None else {}
    taken, kept = [], []
    for row in rows:
        passcode = int(row["passcode"]) if row["passcode"].isdigit() else -1
        if passcode in known and not replace:
            kept.append(passcode)
            continue
        taken.append({**row, "replaces": str(int(passcode in known))})
    return CardsPlan(relative, tuple(taken), superseded(folder, taken, relative), tuple(kept))


def cards_writes(plan: CardsPlan) -> dict[str, bytes]:
    """The files a plan writes: its own card file and every card file that loses superseded rows."""
    return {plan.path: card_file(plan.rows), **{path: card_file(rows) for path, rows in plan.superseded.items()}}


def removal(folder: Path, what: str) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The files to rewrite and remove to take list `what` (an id, e.g. ocg-2026-10-01) or the card of passcode
    `what` out of `folder`; SourceError when the folder holds neither."""
    fmt, _, day = what.partition("-")
    if fmt in ("ocg", "tcg") and day:
        try:
            relative = f"banlists/{fmt}/{dt.date.fromisoformat(day).isoformat()}.json"
        except ValueError:
            raise SourceError(
                what, ["a list id is the format and the day it takes effect, e.g. ocg-2026-10-01"]
            ) from None
        if (folder / relative).is_file():
            return {}, (relative,)
        raise SourceError(what, [f"{folder} holds no list {what}"])
    for path in card_paths(folder):
        rows = [row for row, _, _ in read_card_file(path)]
        left = [row for row in rows if row["passcode"] != what]
        if len(left) != len(rows):
            relative = path.relative_to(folder).as_posix()
            return ({relative: card_file(left)}, ()) if left else ({}, (relative,))
    raise SourceError(what, [f"{folder} holds no list or card {what}"])


_MAX_SOURCE_BYTES = 64 * 1024 * 1024  # larger than any list or card file (a cards.cdb has its own bound)
_SOURCE_BOUND = "a list or card source may hold (64 MiB)"
_SQLITE = b"SQLite format 3\0"  # how an SQLite database, as a cards.cdb, begins


def is_cdb(path: Path) -> bool:
    """Whether the file at `path` is an SQLite database, by its first bytes; False for one that cannot be read (the
    reader of a CSV then says why)."""
    try:
        with path.open("rb") as f:
            return f.read(len(_SQLITE)) == _SQLITE
    except OSError:
        return False


def _bounded(path: Path) -> None:
    """Refuse a source that cannot be read or is larger than any list or card file, by its size."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SourceError(path.name, [f"cannot be read: {exc.strerror or exc}"]) from None
    if size > _MAX_SOURCE_BYTES:
        raise SourceError(path.name, [str(TooLarge(size, _MAX_SOURCE_BYTES, _SOURCE_BOUND))])


def _read(path: Path) -> bytes:
    try:
        return read_bounded(path, _MAX_SOURCE_BYTES, _SOURCE_BOUND)
    except OSError as exc:
        raise SourceError(path.name, [f"cannot be read: {exc.strerror or exc}"]) from None
    except TooLarge as exc:
        raise SourceError(path.name, [str(exc)]) from None
