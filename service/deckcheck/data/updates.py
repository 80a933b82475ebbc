"""Writing an updates folder (or the bundle itself): a new list or new cards become files beside the data, each
import recorded with its source, SHA-256, command and time, and nothing is written unless the data with the change
load as the bundle does.

An updates folder holds `banlists/<format>/<day>.json` (the bundled list form, with `"replaces": true` where it
replaces a list of the data beneath), `cards/<name>.csv` (the bundled card columns, then `provisional` and
`replaces`) and `provenance/imports.ndjson`, the record.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck.data.banlists import STATUS_LIMITS
from deckcheck.data.cards import UPDATE_CARD_COLUMNS, read_card_file
from deckcheck.data.folder import STATE, live, path_text, publish
from deckcheck.data.loader import IMPORTS, Data, DataSource, card_paths
from deckcheck.data.names import normalize_name
from deckcheck.errors import DataError

_STATUS_OF = {limit: status for status, limit in STATUS_LIMITS.items()}


@dataclass(frozen=True, slots=True)
class Change:
    """What one command writes into a folder (paths relative to it, with their new bytes) and removes, and what it
    says it did: the record appended to the folder's imports.ndjson."""

    writes: Mapping[str, bytes] = field(default_factory=dict)
    removes: tuple[str, ...] = ()
    record: Mapping[str, Any] = field(default_factory=dict)


def list_file(
    fmt: str, day: dt.date, name: str, limits: Mapping[int, int], *, replaces: bool = False
) -> tuple[str, bytes]:
    """A list in the bundled form, and the path it is kept under."""
    body: dict[str, Any] = {"name": name, "format": fmt.upper(), "effective_from": day.isoformat()}
    body["effective_until"] = None
    for status, limit in STATUS_LIMITS.items():
        body[status] = sorted(passcode for passcode, copies in limits.items() if copies == limit)
    if replaces:
        body["replaces"] = True
    text = json.dumps(body, ensure_ascii=False, indent=1) + "\n"
    return f"banlists/{fmt.lower()}/{day.isoformat()}.json", text.encode()


def card_file(rows: Iterable[Mapping[str, str]]) -> bytes:
    """Card rows as an updates folder's card file."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=UPDATE_CARD_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def imported_cards(folder: Path, skip: str) -> dict[str, tuple[str, list[dict[str, str]]]]:
    """Per passcode, the card file of `folder` (as in force) other than `skip` that defines it, and that file's
    rows: the cards earlier imports brought."""
    held = live(folder)
    found: dict[str, tuple[str, list[dict[str, str]]]] = {}
    for path in card_paths(held):
        relative = path.relative_to(held).as_posix()
        if relative != skip:
            rows = [row for row, _, _ in read_card_file(path)]
            found |= {row["passcode"]: (relative, rows) for row in rows}
    return found


def superseded(
    imported: Mapping[str, tuple[str, list[dict[str, str]]]], rows: Sequence[Mapping[str, str]], taken: set[str]
) -> dict[str, list[dict[str, str]]]:
    """Per card file of `imported` (data/updates.py `imported_cards`), its rows without the cards of passcodes in
    `taken` (an import takes them over, with --replace) and without the provisional cards that `rows` give under
    their final passcodes (the same name, another passcode); only files that lose a row are named."""
    finals = {
        (normalize_name(row[key]), row["passcode"])
        for row in rows
        if row.get("provisional") != "1"
        for key in ("name_en", "name_ja")
        if row[key]
    }
    names = {name for name, _ in finals}
    files = dict(imported.values())
    kept: dict[str, list[dict[str, str]]] = {}
    for relative, held in files.items():
        left = [row for row in held if row["passcode"] not in taken and not _replaced(row, names, finals)]
        if len(left) != len(held):
            kept[relative] = left
    return kept


def _replaced(row: Mapping[str, str], names: set[str], finals: set[tuple[str, str]]) -> bool:
    if row.get("provisional") != "1":
        return False
    own = {normalize_name(row[key]) for key in ("name_en", "name_ja") if row[key]}
    return any(name in names and (name, row["passcode"]) not in finals for name in own)


def sha256(raw: bytes) -> str:
    """The SHA-256 of a source file, as the record keeps it."""
    return hashlib.sha256(raw).hexdigest()


def file_sha256(path: Path) -> str:
    """The SHA-256 of the file at `path`, read a block at a time (a cards.cdb may be large), as the record keeps
    it."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def record(action: str, argv: Sequence[str], source: str | None, digest: str | None, **more: Any) -> dict[str, Any]:
    """The record of one import: what was done, the command, the source file's name and SHA-256 (`digest`), and
    when. Names and words that are not UTF-8 (a file named so) are kept with their bytes escaped (`path_text`):
    the record is UTF-8 JSON."""
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    found: dict[str, Any] = {"time": now, "action": action, "command": ["deckcheck", "data", *map(path_text, argv)]}
    if source is not None and digest is not None:
        found |= {"source": path_text(source), "sha256": digest}
    return found | {key: _text(value) for key, value in more.items()}


def _text(value: Any) -> Any:
    """A record's value, each name in it as text (`path_text`)."""
    if isinstance(value, str):
        return path_text(value)
    return [path_text(item) for item in value] if isinstance(value, list) else value


def carry_out(change: Change, folder: Path, source: DataSource, *, keep_record: bool = True) -> None:
    """Make `change` in `folder`, the updates folder of `source` or its data folder itself, once the data load with
    it as a start-up would load them (DataError otherwise, naming the file as the folder will hold it, and the
    source it came from). An updates folder changes as one step (data/folder.py), the caller holding its lock; the
    data folder itself (the bundle, rebuilt by scripts/build_data.py) file by file, after a trial in a copy."""
    if source.updates is None:
        with tempfile.TemporaryDirectory(prefix="deckcheck-update-") as scratch:
            copy = Path(scratch) / "folder"
            shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("provenance", "*.tmp", STATE))
            _write(change, copy)
            _checked(change, copy, folder, DataSource(copy, None, source.cadence))
        _write(change, folder)
        if keep_record:
            _record(change, folder)
        return

    def make(staging: Path) -> None:
        _write(change, staging)
        if keep_record:
            _record(change, staging)

    publish(folder, make, lambda staging: _checked(change, staging, folder, DataSource(source.root, staging)))


def _checked(change: Change, staging: Path, folder: Path, source: DataSource) -> Data:
    """The data `source` loads, its folder `staging` a copy of `folder` with `change` made; a DataError names the
    file as `folder` will hold it, and the source file of the change."""
    try:
        return source.load()
    except DataError as exc:
        file = Path(exc.file)
        if not file.is_relative_to(staging):
            raise
        relative = file.relative_to(staging).as_posix()
        named = str(folder / relative)
        if relative in change.writes and change.record.get("source"):
            named = f"{change.record['source']} (as {named})"
        raise DataError(named, exc.entry, exc.problem) from None


def _record(change: Change, folder: Path) -> None:
    """Append the change's record to the folder's imports.ndjson."""
    if change.record:
        (folder / IMPORTS).parent.mkdir(parents=True, exist_ok=True)
        with (folder / IMPORTS).open("a", encoding="utf-8") as out:
            out.write(json.dumps(change.record, ensure_ascii=False) + "\n")


def _write(change: Change, folder: Path) -> None:
    for relative, raw in change.writes.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_bytes(raw)
        os.replace(temporary, path)
    for relative in change.removes:
        (folder / relative).unlink(missing_ok=True)
