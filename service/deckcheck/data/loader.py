"""Everything the rules read, loaded at start-up (and again on a reload) and never changed afterwards.

The bundled data (or a whole replacement, DECKCHECK_DATA_DIR) may have an updates folder laid over them
(DECKCHECK_UPDATES_DIR, data/updates.py): its card files and lists join the ones beneath, and replace one of the
same passcode or id only where they say so.
"""

from __future__ import annotations

import datetime as dt
import gc
import hashlib
import os
import threading
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck.data.banlists import Banlists, banlist_paths, load_banlists
from deckcheck.data.cards import CardIndex, index_cards, layered_rows, read_card_file
from deckcheck.data.folder import live
from deckcheck.data.freshness import Cadence
from deckcheck.data.readings import READINGS, read_readings_file
from deckcheck.errors import DataError

_PACKAGE = Path(__file__).resolve().parents[1]
# An installed wheel carries cards/ and banlists/ inside the package, in bundled/ (pyproject.toml maps them there);
# a checkout, installed editable or not at all, has them at the repository root, beside service/.
_IN_WHEEL = _PACKAGE / "bundled"
_IN_CHECKOUT = _PACKAGE.parents[1]
# A wheel without its data is named as such, not as a folder of site-packages that lacks cards/.
DEFAULT_DATA_DIR = _IN_CHECKOUT if not _IN_WHEEL.is_dir() and (_IN_CHECKOUT / "cards").is_dir() else _IN_WHEEL
IMPORTS = "provenance/imports.ndjson"  # each folder's record of what was imported into it, one JSON object a line
PRINTINGS = Path("cards") / "printings.json"  # until when the card printings of the folder are complete


@dataclass(frozen=True, slots=True)
class Data:
    """The card catalogue and the Forbidden/Limited lists."""

    cards: CardIndex
    banlists: Banlists
    digest: str  # SHA-256 of the files the data were read from, to tell one data release from another
    imports: tuple[Mapping[str, Any], ...] = ()  # the record of every import into the folders, oldest first
    cadence: Cadence = field(default_factory=Cadence)
    # What is worked out from these data as a whole (data/memo.py), kept with them and gone with them.
    memo: dict[Hashable, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True, slots=True)
class DataSource:
    """Where the data are read from: a data folder, an updates folder over it, and the cadence of new lists."""

    root: Path = DEFAULT_DATA_DIR
    updates: Path | None = None
    cadence: Cadence = field(default_factory=Cadence)

    def load(self) -> Data:
        """The data, read afresh."""
        return load_data(self.root, self.updates, self.cadence)

    def folders(self) -> list[Path]:
        """The folders the data are read from, bottom first: an updates folder as the snapshot in force
        (data/folder.py), looked up anew at each call."""
        return [self.root] if self.updates is None else [self.root, live(self.updates)]


def load_data(root: Path = DEFAULT_DATA_DIR, updates: Path | None = None, cadence: Cadence | None = None) -> Data:
    """Load cards/*.csv and banlists/*/*.json under `root`, then under `updates`; raise DataError on any broken
    entry, naming its file.

    The data never change and form no cycles, so they are made with the collector off and then moved out of its
    sight (`settle`): otherwise every full collection walks a quarter of a million objects, and a reload beside
    running checks would stop them for each. Data a reload replaced are freed by their reference counts once the
    last request judged by them ends.
    """
    with settle():
        return _load(DataSource(root, updates, cadence or Cadence()))


_settling = threading.local()  # whether this thread is within `settle`


@contextmanager
def settle() -> Iterator[None]:
    """Make data with the collector off (the quarter of a million objects of a load would set off collections, each
    a pause of every thread), then move what was made out of its sight (gc.freeze), as start-up's is: at start-up
    after a full collection; on a reload after the young garbage (a request's cycles, which a serving process's
    thresholds, collector.py, leave for longer), which frozen would never be freed, is collected: the young and
    middle generations only, as a full collection would stop every thread for longer. Nothing is frozen when the
    block raises. Within another `settle` of the same thread the outer one does this once for both: a reload
    (api/live_data.py) makes the data and then the tables of the day, and one collection walks them all."""
    if getattr(_settling, "on", False):
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    _settling.on = True
    try:
        yield
        gc.collect(1 if gc.get_freeze_count() else 2)
        gc.freeze()
    finally:
        _settling.on = False
        if enabled:
            gc.enable()


def _load(source: DataSource) -> Data:
    folders = source.folders()
    try:
        return _load_from(source, folders)
    except DataError as exc:  # named as the folder shows it, not as the snapshot it is read from
        file = Path(exc.file)
        if source.updates is None or folders[1] == source.updates or not file.is_relative_to(folders[1]):
            raise
        raise DataError(str(source.updates / file.relative_to(folders[1])), exc.entry, exc.problem) from None


def _load_from(source: DataSource, folders: Sequence[Path]) -> Data:
    root = source.root
    if source.updates is not None:
        # Moved, unmounted or removed: its lists are not dropped in silence, the load fails (served data are kept).
        check_folder(source.updates, folders[1])
    layers = [[row for path in card_paths(folder) for row in read_card_file(path)] for folder in folders]
    if not layers[0]:
        raise DataError(str(root / "cards"), "directory", "holds no card files")
    readings = [row for folder in folders for row in read_readings_file(folder / READINGS)]
    cards = index_cards(layered_rows(layers), _printings_until(root), readings)
    banlists = load_banlists(root / "banlists", cards, [folder / "banlists" for folder in folders[1:]])
    imports = tuple(record for folder in folders for record in read_imports(folder))
    if source.updates is not None:
        # Looked at again once read: moved away while it was read, it read as a folder without updates.
        check_folder(source.updates, folders[1])
    return Data(cards, banlists, _digest(folders), imports, source.cadence)


def check_folder(updates: Path, held: Path) -> None:
    """Raise DataError naming the updates folder `updates` when it cannot be listed, or it or `held`, the folder its
    data are read from (data/folder.py `live`), is gone: read as it stands, it would be no updates at all."""
    try:
        os.listdir(updates)
        gone = not held.is_dir()
    except (FileNotFoundError, NotADirectoryError):
        gone = True
    except OSError as exc:
        raise DataError(str(updates), "folder", f"cannot be read: {exc.strerror}") from None
    if gone:
        raise DataError(str(updates), "folder", "is gone (moved, unmounted or removed)")


def card_paths(folder: Path) -> list[Path]:
    """The card files of a data or updates folder, in a fixed order."""
    return sorted((folder / "cards").glob("*.csv"))


def read_imports(folder: Path) -> list[Mapping[str, Any]]:
    """The record of the imports into `folder`, oldest first, each as written; DataError naming the line (and in it
    the key) of the first line that is not one ImportRecord (data/schemas.py): a byte that is not UTF-8, not JSON,
    an unknown key or a value of the wrong kind."""
    path = folder / IMPORTS
    if not path.is_file():
        return []
    from deckcheck.data import schemas  # noqa: PLC0415 - pydantic loads with the first file read, not the engine

    try:
        lines = schemas.read_file(path, schemas.MAX_RECORDS_BYTES).split(b"\n")
    except schemas.Invalid as exc:
        raise exc.data_error(str(path)) from None
    records: list[Mapping[str, Any]] = []
    for number, line in enumerate(lines[:-1] if lines[-1] == b"" else lines, start=1):
        try:
            records.append(schemas.json_value(line))
        except schemas.Invalid as exc:
            raise DataError(str(path), f"line {number}", exc.problems[0][1]) from None
        try:
            schemas.validated(schemas.ImportRecord, records[-1])
        except schemas.Invalid as exc:
            key, problem = exc.problems[0]  # `file`: the record as a whole
            raise DataError(str(path), f"line {number}", problem if key == "file" else f"{key}: {problem}") from None
    return records


def _printings_until(root: Path) -> dt.date | None:
    """The day the card printings of `root` are complete until (cards/printings.json, a Printings), if it says."""
    path = root / PRINTINGS
    if not path.is_file():
        return None
    from deckcheck.data import schemas  # noqa: PLC0415 - pydantic loads with the first file read, not the engine

    try:
        return schemas.validated(
            schemas.Printings, schemas.json_value(schemas.read_file(path, schemas.MAX_JSON_BYTES))
        ).complete_until
    except schemas.Invalid as exc:
        raise exc.data_error(str(path)) from None


def data_files(folders: Sequence[Path]) -> list[tuple[Path, Path]]:
    """Every file the data are read from, with the folder it is in: what the data's digest covers."""
    files: list[tuple[Path, Path]] = []
    for folder in folders:
        found = [*card_paths(folder), *banlist_paths(folder / "banlists"), folder / PRINTINGS, folder / READINGS]
        files += [(folder, path) for path in found if path.is_file()]
    return files


def _digest(folders: Sequence[Path]) -> str:
    """SHA-256 over the layer, name and bytes of every file the data are read from."""
    digest = hashlib.sha256()
    for folder, path in data_files(folders):
        layer = str(folders.index(folder)).encode()
        name = os.fsencode(path.relative_to(folder).as_posix())  # its bytes, UTF-8 or not
        digest.update(layer + b"\0" + name + b"\0" + path.read_bytes())
    return digest.hexdigest()
