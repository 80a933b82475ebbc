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
from deckcheck.data.loader import IMPORTS, Data, DataSource, card_paths
from deckcheck.data.names import normalize_name

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


def superseded(folder: Path, rows: Sequence[Mapping[str, str]], skip: str) -> dict[str, list[dict[str, str]]]:
    """Per card file of `folder` other than `skip`, its rows without the provisional cards that `rows` give under
    their final passcodes (the same name, another passcode); only files that lose a row are named."""
    finals = {
        (normalize_name(row[key]), row["passcode"])
        for row in rows
        if row.get("provisional") != "1"
        for key in ("name_en", "name_ja")
        if row[key]
    }
    names = {name for name, _ in finals}
    kept: dict[str, list[dict[str, str]]] = {}
    for path in card_paths(folder):
        relative = path.relative_to(folder).as_posix()
        if relative == skip:
            continue
        held = [row for row, _, _ in read_card_file(path)]
        left = [row for row in held if not _replaced(row, names, finals)]
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
    when."""
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    found: dict[str, Any] = {"time": now, "action": action, "command": ["deckcheck", "data", *argv]}
    if source is not None and digest is not None:
        found |= {"source": source, "sha256": digest}
    return found | more


def trial(change: Change, folder: Path, source: DataSource) -> Data:
    """The data as they would load with `change` made to `folder` (the updates folder of `source`, or its data
    folder itself), made in a copy; raise DataError as a start-up would."""
    with tempfile.TemporaryDirectory(prefix="deckcheck-update-") as scratch:
        copy = Path(scratch) / "folder"
        if folder.is_dir():
            shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("provenance", "*.tmp"))
        _write(change, copy)
        if source.updates is not None and folder.resolve() == source.updates.resolve():
            return DataSource(source.root, copy, source.cadence).load()
        return DataSource(copy, source.updates, source.cadence).load()


def commit(change: Change, folder: Path, *, keep_record: bool = True) -> None:
    """Make `change` in `folder`: each file replaced whole (a reader sees the old file or the new one), then the
    record appended."""
    _write(change, folder)
    if keep_record and change.record:
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
