"""The last good data of an updates folder, kept on disk, and the look that tells a folder gone or wiped from one
that was changed.

After each good load (start-up and reload) a serving process keeps a copy of the updates folder's data files it
loaded in the user's state folder, `<state>/last-good/<key>/<digest>/` (key: SHA-256 of the updates folder's path;
digest: the loaded data's), named as the last good one by the file `latest` beside it. A process that starts while
the folder does not load starts on that copy instead (api/live_data.py `DataStore.start`): a worker replaced while the
folder is broken serves what the others serve, rather than failing to start again and again.

A writer holds an exclusive lock on `<key>/.lock`, a reader a shared one. A copy is made in a temporary folder,
moved into place by one rename, then named by replacing `latest` (another rename): a reader finds the copy before
or the copy after, never part of one, and a writer that dies leaves at most a temporary folder, removed by the next.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from deckcheck.data.loader import IMPORTS, Data, DataSource, check_folder, data_files
from deckcheck.data.watchers import state_dir
from deckcheck.errors import DataError

_LATEST = "latest"  # the name of the last good copy
_LOCK = ".lock"
_DIGEST = re.compile(r"[0-9a-f]{64}")
_PROBLEM_CHARS = 500  # of an unforeseen exception's text, in the log line and /healthz


@dataclass(frozen=True, slots=True)
class Stale:
    """Why the data served are not what the updates folder holds: since when (UTC, the first failed load since the
    last good one), and the last failure's problem, with the file and entry at fault where they are known."""

    since: str
    problem: str
    file: str | None
    entry: str | None


def stale(exc: Exception, was: Stale | None) -> Stale:
    """What a failed load raising `exc` says of the data kept: stale since `was` said, else since now."""
    file: str | None
    entry: str | None
    if isinstance(exc, DataError):
        file, entry, problem = exc.file, exc.entry, exc.problem
    elif isinstance(exc, OSError):
        file, entry, problem = None if exc.filename is None else str(exc.filename), None, exc.strerror or str(exc)
    else:  # none foreseen (the loader raises DataError): its kind and the start of its text
        file, entry, problem = None, None, f"{type(exc).__name__}: {exc}"[:_PROBLEM_CHARS]
    since = was.since if was else dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return Stale(since, problem, file, entry)


@dataclass(frozen=True, slots=True)
class Kept:
    """The last good data of an updates folder, loaded: the copy they were read from and its number of data files."""

    data: Data
    folder: Path
    files: int


def home(updates: Path) -> Path:
    """Where the last good data of the updates folder `updates` are kept."""
    key = hashlib.sha256(str(updates.resolve()).encode()).hexdigest()
    return state_dir() / "last-good" / key


def update_files(source: DataSource) -> list[tuple[Path, Path]]:
    """The data files `source` reads above its data folder (those of its updates folder): each one's path relative
    to the folder it is in, and its path."""
    folders = source.folders()
    return [(path.relative_to(folder), path) for folder, path in data_files(folders) if folder != folders[0]]


def check_present(source: DataSource, held: int) -> None:
    """Raise DataError, naming the updates folder of `source`, when it cannot be listed, is gone, or holds neither
    a data file nor a record of imports while the data served hold `held` data files of it: a folder moved,
    unmounted or wiped reads as no updates at all, and loading it would drop the operator's lists in silence. A
    folder whose lists `deckcheck data remove` took out keeps its record, and loads."""
    updates = source.updates
    if updates is None:
        return
    check_folder(updates, source.folders()[1])
    if held and not update_files(source) and not _records(source):
        raise DataError(
            str(updates), "folder", f"holds no data files and no record of imports, where the data served hold {held}"
        )


def keep(source: DataSource, digest: str, unchanged: Callable[[], bool]) -> bool:
    """Keep the updates folder's data files of `source`, and its record of imports, as its last good data, named
    by `digest` (the digest of the data loaded from them), unless that copy is the last good one already, or
    `unchanged()`, asked once they are copied, says they changed since they were loaded (what was copied may then
    not be what was loaded; the reload the change brings keeps them). True when a copy was made; OSError when the
    state folder cannot be written."""
    if source.updates is None or not _DIGEST.fullmatch(digest):
        return False
    place = home(source.updates)
    place.mkdir(parents=True, exist_ok=True)
    with _locked(place, exclusive=True):
        if _latest(place) == place / digest:
            return False
        temporary = Path(tempfile.mkdtemp(prefix=".copy-", dir=place))
        try:
            for relative, path in [*update_files(source), *_records(source)]:
                (temporary / relative).parent.mkdir(parents=True, exist_ok=True)
                try:
                    shutil.copyfile(path, temporary / relative)
                except FileNotFoundError:
                    return False  # taken away since it was loaded
            if not unchanged():
                return False
            shutil.rmtree(place / digest, ignore_errors=True)  # left by a writer that died before naming it latest
            temporary.rename(place / digest)
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
        named = place / f".{_LATEST}-{os.getpid()}"
        named.write_text(digest, encoding="utf-8")
        os.replace(named, place / _LATEST)
        for old in place.iterdir():  # the copies before, and what writers that died left
            if old.name not in (digest, _LATEST, _LOCK):
                if old.is_dir():
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    old.unlink(missing_ok=True)
    return True


def load_kept(source: DataSource) -> Kept | None:
    """The last good data kept for the updates folder of `source`, loaded over its data folder; None when none are
    kept, or when they no longer load (over a data folder changed since): a start-up then fails with the error of
    the folder itself, the one the operator has to mend."""
    if source.updates is None or not (home(source.updates) / _LATEST).is_file():
        return None
    place = home(source.updates)
    try:
        with _locked(place, exclusive=False):
            folder = _latest(place)
            if folder is None or not folder.is_dir():
                return None
            kept = DataSource(source.root, folder, source.cadence)
            return Kept(kept.load(), folder, len(update_files(kept)))
    except Exception:
        return None


def check_startable(source: DataSource) -> None:
    """Raise the load's own error unless the data of `source` load, or else the last good data kept for its updates
    folder do: whether a serving process can start (api/live_data.py `DataStore.start`), proved before the workers of
    `deckcheck serve --workers N` are started, each of which then starts as one process alone would."""
    try:
        source.load()
    except Exception:
        if load_kept(source) is None:
            raise


def _records(source: DataSource) -> list[tuple[Path, Path]]:
    """The record of imports of the updates folder, kept beside its data files: what /healthz counts."""
    folders = source.folders()[1:]
    return [(Path(IMPORTS), folder / IMPORTS) for folder in folders if (folder / IMPORTS).is_file()]


def _latest(place: Path) -> Path | None:
    """The copy `latest` names, if it names one."""
    try:
        name = (place / _LATEST).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return place / name if _DIGEST.fullmatch(name) else None


@contextmanager
def _locked(place: Path, *, exclusive: bool) -> Iterator[None]:
    descriptor = os.open(place / _LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(descriptor)
