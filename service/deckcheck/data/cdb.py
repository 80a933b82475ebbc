"""Reading an EDOPro/ygopro card database (`cards.cdb`): which cards it holds, of which kind, in which scopes.

A cdb is an SQLite file with the tables `datas` (id, ot, alias, setcode, type, atk, def, level, race, attribute,
category) and `texts` (id, name, desc, str1…str16). `type` holds ygopro-core's TYPE_* bits (common.h), `ot`
EDOPro's scope bits. An `alias` within CARD_ARTWORK_VERSIONS_OFFSET (20) of the id makes the row an alternate
artwork of card `alias`; further away it is a rule code (the card is treated as bearing another card's name) and
the card stays its own. The file is opened read-only and only the columns below are selected: effect text
(`desc`, `str*`) is never read, let alone kept. Rows of `texts` with no row in `datas` are not cards and are
ignored; whether an alternate's card exists is the caller's to check, as it may be in the catalogue already.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.data.schemas import MAX_CARD_NAME_CHARS, MAX_CARDS, MAX_CDB_BYTES, unsafe_character
from deckcheck.errors import SourceError

MAX_BYTES = MAX_CDB_BYTES  # a full EDOPro cards.cdb is some 20 MiB
MAX_VALUE_BYTES = 1 << 20  # no value read (a name) is longer; SQLite's default limit is 1 GB
MAX_PROBLEMS = 100  # reading stops there and says so
MAX_PASSCODE = 999_999_999
ARTWORK_OFFSET = 20  # ygopro's CARD_ARTWORK_VERSIONS_OFFSET
KINDS = {0x1: "monster", 0x2: "spell", 0x4: "trap"}
EXTRA_DECK = {0x40: "fusion", 0x2000: "synchro", 0x800000: "xyz", 0x4000000: "link"}
TOKEN, SKILL, PENDULUM = 0x4000, 0x8000000, 0x1000000
OCG, TCG, PRERELEASE = 0x1, 0x2, 0x100
_COLUMNS = {"datas": ("id", "ot", "alias", "type"), "texts": ("id", "name")}
_QUERY = (
    "SELECT datas.id, datas.ot, datas.alias, datas.type, texts.name"
    " FROM datas LEFT JOIN texts ON texts.id = datas.id ORDER BY datas.id"
)
_CLIP = 24  # a hostile value may be megabytes long: messages quote only its start


@dataclass(frozen=True, slots=True)
class CdbCard:
    """One card of a cdb, as the catalogue describes cards; never its effect text."""

    passcode: int
    alias: int  # the card an alternate artwork belongs to (|passcode - alias| < 20), else 0
    name: str
    kind: str  # "monster", "spell" or "trap"
    extra_deck_type: str  # "fusion", "synchro", "xyz", "link" or "none": Pendulum alone is main deck
    pendulum: bool
    ocg: bool  # ot & 0x1
    tcg: bool  # ot & 0x2
    provisional: bool  # ot & 0x100: a pre-release card under a provisional passcode


@dataclass(frozen=True, slots=True)
class CdbRead:
    """The cards taken, and every row not taken as (passcode, name, why); both sorted by passcode."""

    cards: tuple[CdbCard, ...]
    skipped: tuple[tuple[int, str, str], ...]


def _label(value: object) -> str:
    text = str(value) if isinstance(value, int) else repr(value)
    return text if len(text) <= _CLIP else text[:_CLIP] + "…"


def _lacking(conn: sqlite3.Connection) -> list[str]:
    """The tables and columns the query needs that the file lacks."""
    tables = {name for (name,) in conn.execute("SELECT lower(name) FROM sqlite_master WHERE type = 'table'")}
    problems = []
    for table, needed in _COLUMNS.items():
        held = {name for (name,) in conn.execute("SELECT lower(name) FROM pragma_table_info(?)", (table,))}
        lacking = [column for column in needed if column not in held]
        if table not in tables:  # a view could make the query cost anything
            problems.append(f"the file has no table {table!r}")
        elif lacking:
            problems.append(f"table {table!r} lacks the column(s) {', '.join(lacking)}")
    return problems


def _why(type_: int, ot: int, name: str, kinds: list[str]) -> str | None:
    """Why a sound row is not taken, or None to take it."""
    if type_ & TOKEN:
        return "a token"
    if type_ & SKILL:
        return "a skill"
    if not kinds:
        return f"type {type_:#x} is not a monster, spell or trap"
    if not ot & (OCG | TCG):
        return f"neither OCG nor TCG (ot {ot:#x})"
    return None if name.strip() else "no name in texts"


def _field_problems(entry: str, passcode: Any, numbers: tuple[tuple[str, Any], ...], name: Any) -> list[str]:
    """What is wrong with a row's fields each on its own: a number that is not a whole number in range, a name that
    is not text, too long, or holds a control character."""
    problems = [
        f"{entry}: {column} {_label(value)} is not a whole number of 0 or more"
        for column, value in numbers
        if not isinstance(value, int) or value < 0
    ]
    if not isinstance(passcode, int) or not 1 <= passcode <= MAX_PASSCODE:
        problems.insert(0, f"{entry}: the passcode is not a whole number from 1 to {MAX_PASSCODE:,}")
    if name is not None and not isinstance(name, str):
        problems.append(f"{entry}: the name is not text")
    elif name is not None and len(name) > MAX_CARD_NAME_CHARS:
        problems.append(f"{entry}: the name is {len(name):,} characters, more than the {MAX_CARD_NAME_CHARS} allowed")
    elif name is not None and unsafe_character(name) is not None:
        problems.append(f"{entry}: the name holds the control character {unsafe_character(name)}")
    return problems


def _row(passcode: Any, ot: Any, alias: Any, type_: Any, name: Any) -> CdbCard | tuple[int, str, str] | list[str]:
    """A row as a card, as a skipped entry, or as its problems, each naming its id."""
    entry = f"id {_label(passcode)}"
    problems = _field_problems(entry, passcode, (("ot", ot), ("alias", alias), ("type", type_)), name)
    if problems:
        return problems
    kinds = [kind for bit, kind in KINDS.items() if type_ & bit]
    extra = [deck for bit, deck in EXTRA_DECK.items() if type_ & bit] if kinds == ["monster"] else []
    artwork = alias != 0 and abs(passcode - alias) < ARTWORK_OFFSET
    if len(kinds) > 1:
        problems.append(f"{entry}: type {type_:#x} is both {' and '.join(kinds)}")
    if len(extra) > 1:
        problems.append(f"{entry}: type {type_:#x} is a {' and '.join(extra)} monster at once")
    if artwork and (alias == passcode or alias > MAX_PASSCODE):
        problems.append(f"{entry}: alias {alias} is not another card's passcode")
    if problems:
        return problems
    why = _why(type_, ot, name or "", kinds)
    if why is not None:
        return passcode, name or "", why
    deck, pendulum = extra[0] if extra else "none", kinds == ["monster"] and bool(type_ & PENDULUM)
    ocg, tcg, provisional = (bool(ot & bit) for bit in (OCG, TCG, PRERELEASE))
    return CdbCard(passcode, alias if artwork else 0, name, kinds[0], deck, pendulum, ocg, tcg, provisional)


def _read(rows: Iterable[tuple[Any, ...]]) -> tuple[list[CdbCard], list[tuple[int, str, str]], list[str]]:
    """The cards, the skipped rows and the problems of the query's rows; reading stops at MAX_PROBLEMS, or past
    MAX_CARDS rows."""
    cards: list[CdbCard] = []
    skipped: list[tuple[int, str, str]] = []
    problems: list[str] = []
    seen: set[int] = set()
    for row in rows:
        if len(seen) >= MAX_CARDS:
            problems.append(f"the file holds more than the {MAX_CARDS:,} cards an import may hold: reading stopped")
            break
        if len(problems) >= MAX_PROBLEMS:
            problems[MAX_PROBLEMS:] = [f"{MAX_PROBLEMS} problems found: reading stopped at id {_label(row[0])}"]
            break
        read = _row(*row)
        if isinstance(read, list):
            problems.extend(read)
            continue
        passcode = read.passcode if isinstance(read, CdbCard) else read[0]
        if passcode in seen:
            problems.append(f"id {passcode}: more than one row in datas or texts")
        elif isinstance(read, CdbCard):
            cards.append(read)
        else:
            skipped.append(read)
        seen.add(passcode)
    else:
        if len(problems) > MAX_PROBLEMS:
            problems[MAX_PROBLEMS:] = [f"{MAX_PROBLEMS} problems found: those of the last row are cut short"]
    return cards, skipped, problems


def read_cdb(path: Path, source: str | None = None) -> CdbRead:
    """The cards of the cdb at `path`; `source` (the file name unless given) names it in errors.

    Raise SourceError holding every problem, up to MAX_PROBLEMS and then where reading stopped, for a file over
    MAX_BYTES or of more than MAX_CARDS rows (data/schemas.py), one that is not an SQLite database or lacks the
    tables or columns read, or nonsense rows, names too long or holding control characters.
    """
    source = path.name if source is None else source
    try:
        size = path.stat().st_size
    except OSError as error:
        raise SourceError(source, [f"the file cannot be read: {error.strerror}"]) from error
    if size > MAX_BYTES:
        raise SourceError(source, [f"the file is {size:,} bytes, over the {MAX_BYTES:,} ({MAX_BYTES >> 20} MiB) read"])
    try:
        with closing(sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)) as conn:
            conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)  # nor may a generated column eat memory
            problems = _lacking(conn)
            if problems:
                raise SourceError(source, problems)
            cards, skipped, problems = _read(conn.execute(_QUERY))
    except sqlite3.Error as error:
        raise SourceError(source, [f"the file is not a readable SQLite database: {error}"]) from error
    if problems:
        raise SourceError(source, problems)
    return CdbRead(tuple(sorted(cards, key=lambda card: card.passcode)), tuple(sorted(skipped)))
