"""Turning the files new data arrive in into changes of an updates folder (data/updates.py): a list from an
lflist.conf, Konami's OCG list CSV or the project's own list JSON; cards from an EDOPro/ygopro cards.cdb or a CSV in
the project's card columns; and taking an added list or card out again; `taken_in`, the source file read once."""

from __future__ import annotations

import datetime as dt
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from deckcheck.data import schemas
from deckcheck.data.banlists import STATUS_LIMITS, Banlists, build_limits
from deckcheck.data.cards import UPDATE_CARD_COLUMNS, CardIndex, read_card_file
from deckcheck.data.cdb import CdbCard, read_cdb
from deckcheck.data.folder import live
from deckcheck.data.konami import read_konami_csv
from deckcheck.data.lflist import LflistError, read_lflist
from deckcheck.data.loader import card_paths
from deckcheck.data.names import loose_key
from deckcheck.data.updates import card_file, imported_cards, list_file, superseded
from deckcheck.errors import DataError, InvalidInput, SourceError
from deckcheck.input_files import FileTooLarge, NotRegular, read_bounded

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
    """The limits of a list JSON (a ListSource, data/schemas.py); SourceError naming every key and entry at fault."""
    try:
        body = schemas.validated(schemas.ListSource, schemas.json_value(raw))
    except schemas.Invalid as exc:
        raise exc.source_error(source) from None
    try:
        return build_limits({status: getattr(body, status) for status in STATUS_LIMITS}, cards)
    except InvalidInput as exc:
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
    try:
        rows = [row for row, _file, _entry in read_card_file(path)]
    except DataError as exc:
        raise SourceError(path.name, [f"{exc.entry}: {exc.problem}"]) from None
    return [
        {key: row.get(key) or "0" if key in ("provisional", "replaces") else row[key] for key in UPDATE_CARD_COLUMNS}
        for row in rows
    ]


def cards_plan(
    folder: Path, source: Path, digest: str, rows: Sequence[dict[str, str]], beneath: CardIndex | None, *, replace: bool
) -> CardsPlan:
    """Where the rows of `source` (of SHA-256 `digest`) go in `folder`: a card file of its own, named by the source
    and its hash; which of them are cards beneath already (kept, unless `replace`), and which cards of earlier
    imports they take over (refused, unless `replace`) or supersede (provisional cards now given under their final
    passcodes). A new card named as a card beneath is named, exactly or by the loose key, is refused: it would
    change how that name reads."""
    stem = _STEM.sub("-", source.stem.lower()).strip("-")[:60] or "cards"
    relative = f"cards/{stem}-{digest[:12]}.csv"
    known = beneath.by_passcode if beneath is not None else {}
    imported = imported_cards(folder, relative)
    taken, kept = [], []
    for row in rows:
        passcode = int(row["passcode"]) if row["passcode"].isdigit() else -1
        if passcode in known and not replace:
            kept.append(passcode)
            continue
        taken.append({**row, "replaces": str(int(passcode in known))})
    twice = [row["passcode"] for row in taken if row["passcode"] in imported]
    if twice and not replace:
        raise SourceError(
            source.name,
            [
                f"card {passcode} is a card of {imported[passcode][0]} already, from an earlier import; "
                "to take it from this file, say so (--replace)"
                for passcode in twice
            ],
        )
    if beneath is not None:
        clashes = name_clashes(taken, beneath)
        if clashes:
            raise SourceError(source.name, clashes)
    return CardsPlan(relative, tuple(taken), superseded(imported, taken, set(twice)), tuple(kept))


def name_clashes(rows: Sequence[Mapping[str, str]], beneath: CardIndex) -> list[str]:
    """Every name of a new card in `rows` that a card beneath has, exactly or by the loose key (`Pot of Greed!` for
    Pot of Greed): such a name would read as the new card, or as none, where it read as the card beneath. An
    alternate artwork (alias) of that card, or the card itself replaced, may share its name."""
    clashes = []
    for row in rows:
        own = {int(row[key]) for key in ("passcode", "alias") if row[key].isdigit() and int(row[key])}
        for key in ("name_en", "name_ja"):
            name = row[key]
            if not name:
                continue
            found = {card for _printed, card, _ends in beneath.search.named(loose_key(name))}
            exact = beneath.find_name(name)
            found |= {exact} if exact is not None else set()
            for card in sorted(found, key=lambda card: card.passcode):
                if card.passcode not in own:
                    clashes.append(
                        f"card {row['passcode']}: its name {name[:100]!r} is the name of card {card.passcode} "
                        f"({card.name_en or card.name_ja}) beneath, written {'alike' if exact is card else 'loosely'}; "
                        "a name may not change which card it reads as"
                    )
    return clashes


def cards_files(plan: CardsPlan) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The files a plan writes, its own card file and every card file that keeps rows after losing some, and those
    it removes: the card files that lose every row."""
    writes = {plan.path: card_file(plan.rows)}
    writes |= {path: card_file(rows) for path, rows in plan.superseded.items() if rows}
    return writes, tuple(path for path, rows in plan.superseded.items() if not rows)


def removal(folder: Path, what: str) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The files to rewrite and remove to take list `what` (an id, e.g. ocg-2026-10-01) or the card of passcode
    `what` out of `folder`; SourceError when the folder holds neither."""
    held = live(folder)
    fmt, _, day = what.partition("-")
    if fmt in ("ocg", "tcg") and day:
        try:
            relative = f"banlists/{fmt}/{dt.date.fromisoformat(day).isoformat()}.json"
        except ValueError:
            raise SourceError(
                what, ["a list id is the format and the day it takes effect, e.g. ocg-2026-10-01"]
            ) from None
        if (held / relative).is_file():
            return {}, (relative,)
        raise SourceError(what, [f"{folder} holds no list {what}"])
    for path in card_paths(held):
        rows = [row for row, _, _ in read_card_file(path)]
        left = [row for row in rows if row["passcode"] != what]
        if len(left) != len(rows):
            relative = path.relative_to(held).as_posix()
            return ({relative: card_file(left)}, ()) if left else ({}, (relative,))
    raise SourceError(what, [f"{folder} holds no list or card {what}"])


_SQLITE = b"SQLite format 3\0"  # how an SQLite database, as a cards.cdb, begins


def is_cdb(path: Path) -> bool:
    """Whether the file at `path` is an SQLite database, by its first bytes; False for one that cannot be read (the
    reader of a CSV then says why)."""
    try:
        with path.open("rb") as f:
            return f.read(len(_SQLITE)) == _SQLITE
    except OSError:
        return False


def _read(path: Path) -> bytes:
    """The bytes of a source already taken in (`taken_in`: a regular file within its bound)."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SourceError(path.name, [f"cannot be read: {exc.strerror or exc}"]) from None


# The file an import reads (an lflist.conf, a list CSV or JSON, a cards.cdb or card CSV), taken in once: opened as a
# regular file only, so that a pipe, a device or a folder is refused at once instead of waited on for ever, and
# copied within a bound into a private folder, so that every reader of the import (and its SHA-256) reads the same
# bytes, however the file is changed or swapped while the command runs.

MAX_SOURCE_BYTES = 64 * 1024 * 1024  # larger than any list, card file or cards.cdb a release has held
SOURCE_BOUND = "a list or card source may hold (64 MiB)"


@contextmanager
def taken_in(path: Path) -> Iterator[Path]:
    """A private copy of the regular file at `path`, under the same name, for the block's time; SourceError naming
    the file when it cannot be opened, is not a regular file, or holds more than MAX_SOURCE_BYTES."""
    try:
        raw = read_bounded(path, MAX_SOURCE_BYTES, SOURCE_BOUND, regular_only=True)
    except NotRegular:
        raise SourceError(
            path.name, ["is not a regular file (a pipe, device or folder is never read as data)"]
        ) from None
    except FileTooLarge as exc:
        raise SourceError(path.name, [str(exc)]) from None
    except OSError as exc:
        raise SourceError(path.name, [f"cannot be read: {exc.strerror or exc}"]) from None
    with tempfile.TemporaryDirectory(prefix="deckcheck-source-") as scratch:
        copy = Path(scratch) / path.name
        copy.write_bytes(raw)
        yield copy
