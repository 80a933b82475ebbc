"""The readings of kanji card names and the short names players write for cards (`ブルーアイズ・ホワイト・ドラゴン` for
青眼の白龍, `うらら`, `ブラマジ`, `Ash`, `BLS`): a table in the data folder, cards/readings.tsv, its provenance in its
own opening comments. An updates folder may hold one too, whose rows join the bundle's; each counts into the data's
digest (data/loader.py), so a change to it is a new data version.

A reading or a short name is no card's name, and two cards may share one, so it only puts its card first among the
suggestions for a name no card has (data/search.py `NameSearch.guesses`): a deck that gives it is never read as that
card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from deckcheck.data.card import Card
from deckcheck.errors import DataError

READINGS = Path("cards") / "readings.tsv"
COLUMNS = ("written", "passcode", "name", "kind", "source")
# reading: the furigana printed over a card's name; short: a shortened or nicknamed form players write.
KINDS = frozenset({"reading", "short"})


class ReadingRow(NamedTuple):
    """One row of a readings file, with its file and the entry (line) it came from."""

    written: str
    passcode: str
    name: str
    kind: str
    source: str  # where the row comes from (the file's opening comments say how each is written)
    file: str
    entry: str


def read_readings_file(path: Path) -> list[ReadingRow]:
    """The rows of a readings file (tab-separated, `#` lines are comments, the first other line the header); none
    when the folder has no such file. A regular file of at most MAX_READINGS_BYTES of UTF-8 text with no control
    character but tabs and line ends (data/schemas.py); DataError naming the line, or the header's column, at fault."""
    from deckcheck.data import schemas  # noqa: PLC0415 - pydantic loads with the first file read, not the engine

    file = str(path)
    if not path.is_file():
        return []
    try:
        lines = schemas.decoded(schemas.read_file(path, schemas.MAX_READINGS_BYTES), text_file=True).split("\n")
    except schemas.Invalid as exc:
        raise exc.data_error(file) from None
    numbered = [(n, line.removesuffix("\r")) for n, line in enumerate(lines, start=1)]
    numbered = [(n, line) for n, line in numbered if line.strip() and not line.startswith("#")]
    header = numbered[0][1].split("\t") if numbered else []
    if tuple(header) != COLUMNS:
        wrong = schemas.columns_problem(header, COLUMNS)
        raise DataError(file, "header", f"expected columns {' '.join(COLUMNS)}, tab-separated; {wrong}")
    rows = []
    for number, line in numbered[1:]:
        fields = line.split("\t")
        if len(fields) != len(COLUMNS):
            raise DataError(file, f"line {number}", "wrong number of columns")
        written, passcode, name, kind, source = fields
        rows.append(ReadingRow(written, passcode, name, kind, source, file, f"line {number}"))
    return rows


def resolve_readings(rows: Sequence[ReadingRow], by_passcode: Mapping[int, Card]) -> list[tuple[str, Card]]:
    """(reading or short name, canonical card) of every row; raise DataError naming the row when its passcode is no
    card's, its name is not that card's Japanese or English name as printed (a check on the passcode), its kind is
    unknown, or it writes no name or no source."""
    resolved = []
    for row in rows:
        card = by_passcode.get(int(row.passcode)) if row.passcode.isdigit() else None
        if card is None:
            raise DataError(row.file, row.entry, f"passcode {row.passcode!r} is no card's")
        if row.name not in (card.name_ja, card.name_en):
            raise DataError(row.file, row.entry, f"{row.name!r} is not the name of card {row.passcode}")
        if row.kind not in KINDS:
            raise DataError(row.file, row.entry, f"kind must be one of {', '.join(sorted(KINDS))}, not {row.kind!r}")
        if not row.written.strip() or not row.source.strip():
            raise DataError(row.file, row.entry, "writes no name or no source")
        resolved.append((row.written, card))
    return resolved
