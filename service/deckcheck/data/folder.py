"""An updates folder changed as a transaction: one writer at a time, and each change made visible whole.

The data of an updates folder live in snapshots, `.deckcheck/snapshots/<id>/` (banlists/, cards/, provenance/);
the folder's `current` is a symbolic link to the one in force, and its `banlists`, `cards` and `provenance` are links
into `current`, for people to read. A writer holds `.deckcheck/lock` (flock: the kernel lets it go when the writer
dies, however it dies), copies the snapshot in force into a staging folder, makes its change and appends its record
there, checks that the data load with it, and then replaces `current` by one rename. So a reader, and a command that
is killed at any point, sees the folder as it was or as it will be, never between: a list is never without its
provenance record. Readers resolve `current` once per load (`live`), so each load reads one snapshot.

A folder that never had a snapshot (files put there by hand, or by a release that kept no snapshots) is read as it is,
and the first change moves it into one.

A folder the system will not let a writer change (read-only, full, a file where a folder must be) raises
FolderUnwritable, naming the folder and the system's reason: up to the switch nothing is changed, and the staging
folder is removed.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from deckcheck.errors import FolderBusy, Unavailable

CURRENT = "current"
STATE = ".deckcheck"
ENTRIES = ("banlists", "cards", "provenance")  # what a folder's data are made of
_KEPT = 3  # snapshots kept: the one in force, and those a reader that began before the last changes may be reading
_LOCK_POLL = 0.05


class FolderUnwritable(Unavailable):
    """An updates folder that could not be changed: the folder, the system's reason and the file it names; and
    whether the change was made nonetheless (`made`: it failed after the switch, tidying up)."""

    def __init__(self, folder: Path, exc: OSError, *, made: bool = False) -> None:
        reason = exc.strerror or type(exc).__name__
        where = "" if exc.filename is None else f" ({path_text(exc.filename)})"
        said = "changed, but could not be tidied up after" if made else "could not be changed"
        outcome = "" if made else "; it holds what it held"
        super().__init__(f"{path_text(folder)}: {said}: {reason}{where}{outcome}")
        self.folder = folder


def path_text(path: str | os.PathLike[str]) -> str:
    """A path (or a text naming one) as text every output can hold: the bytes of a name that is not UTF-8 (which
    Python keeps as lone surrogates, and which no UTF-8 text or JSON can hold) written as escapes, `\\xff`."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def live(folder: Path) -> Path:
    """The folder the data of `folder` are read from: the snapshot its `current` names, else `folder` itself."""
    current = folder / CURRENT
    return Path(os.path.realpath(current)) if current.is_symlink() else folder


@contextmanager
def writing(folder: Path, wait: float, command: Sequence[str]) -> Iterator[None]:
    """Hold the folder's lock while the block runs (the folder is made if missing); wait up to `wait` seconds for
    another writer, then raise FolderBusy naming it. FolderUnwritable when the lock cannot be taken or written."""
    state = folder / STATE
    try:
        state.mkdir(parents=True, exist_ok=True)
        fd = os.open(state / "lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise FolderUnwritable(folder, exc) from None
    try:
        _lock(fd, folder, wait)
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        held = json.dumps({"pid": os.getpid(), "since": now, "command": ["deckcheck", "data", *command]})
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, held.encode(), 0)
        except OSError as exc:
            raise FolderUnwritable(folder, exc) from None
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # lets the lock go


def _lock(fd: int, folder: Path, wait: float) -> None:
    """Take the lock of `fd`, waiting up to `wait` seconds for another writer; FolderBusy naming it."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise FolderBusy(str(folder), wait, _holder(fd)) from None
            time.sleep(_LOCK_POLL)


def _holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it down."""
    try:
        held = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"pid {held['pid']} ({' '.join(held['command'])}) since {held['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a writer that has not said who it is"


def publish(folder: Path, make: Callable[[Path], None], check: Callable[[Path], object]) -> None:
    """Make a change to `folder` as one step: `make` changes a staging copy of the data in force, `check` loads it
    (raising when the data would not load), and then the copy is put in force. Call it holding the lock.
    FolderUnwritable when the system refuses a write: before the switch nothing is changed."""
    try:
        snapshot = _staged(folder, make, check)
    except OSError as exc:
        raise FolderUnwritable(folder, exc) from None
    link = folder / f".{CURRENT}-{os.getpid()}"
    try:
        link.unlink(missing_ok=True)
        os.symlink(os.path.relpath(snapshot, folder), link)
        os.replace(link, folder / CURRENT)  # the one step that puts the change in force
    except OSError as exc:
        link.unlink(missing_ok=True)
        shutil.rmtree(snapshot, ignore_errors=True)
        raise FolderUnwritable(folder, exc) from None
    try:
        _fsync_dir(folder)
        _link_entries(folder)
    except OSError as exc:
        raise FolderUnwritable(folder, exc, made=True) from None
    _prune(snapshot.parent, snapshot)


def _staged(folder: Path, make: Callable[[Path], None], check: Callable[[Path], object]) -> Path:
    """The snapshot of the data in force with the change made (`publish`), written through to the disk; the staging
    folder removed when anything fails."""
    state = folder / STATE
    _sweep(state)
    staging = Path(tempfile.mkdtemp(prefix="staging-", dir=state))
    try:
        staging.chmod(0o755)  # made 0700; a service of another user reads the snapshot it becomes
        _copy_live(folder, staging)
        make(staging)
        for entry in ENTRIES:
            (staging / entry).mkdir(exist_ok=True)
        check(staging)
        _synced(staging)
        snapshots = state / "snapshots"
        snapshots.mkdir(exist_ok=True)
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
        snapshot = snapshots / f"{stamp}-{os.getpid()}"
        os.rename(staging, snapshot)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return snapshot


def _copy_live(folder: Path, staging: Path) -> None:
    """Copy the data in force of `folder` (its snapshot, or its own folders before it has one) into `staging`."""
    source = live(folder)
    for entry in ENTRIES:
        if (source / entry).is_dir():
            shutil.copytree(source / entry, staging / entry, symlinks=False, ignore=shutil.ignore_patterns("*.tmp"))


def _synced(staging: Path) -> None:
    """Write every file of the staging folder through to the disk, so that a power cut after the switch finds them."""
    for directory, _folders, files in os.walk(staging):
        for name in files:
            fd = os.open(Path(directory) / name, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(directory))


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _link_entries(folder: Path) -> None:
    """Make the folder's banlists, cards and provenance links into `current`; folders of its own from before its
    first snapshot (their files are in every snapshot now) are moved out of the way first."""
    for entry in ENTRIES:
        path = folder / entry
        target = f"{CURRENT}/{entry}"
        if path.is_symlink() and os.readlink(path) == target:
            continue
        if path.is_dir() and not path.is_symlink():
            retired = Path(tempfile.mkdtemp(prefix=f"retired-{entry}-", dir=folder / STATE))
            os.rename(path, retired / entry)
            shutil.rmtree(retired, ignore_errors=True)
        link = folder / f".{entry}-{os.getpid()}"
        link.unlink(missing_ok=True)
        os.symlink(target, link)
        os.replace(link, path)


def _sweep(state: Path) -> None:
    """Remove what writers killed before they finished left behind: staging and retired folders."""
    for left in [*state.glob("staging-*"), *state.glob("retired-*")]:
        shutil.rmtree(left, ignore_errors=True)


def _prune(snapshots: Path, current: Path) -> None:
    """Keep the newest snapshots (the one in force among them), remove the others."""
    held = sorted((path for path in snapshots.iterdir() if path.is_dir()), key=lambda path: path.name)
    for old in held[:-_KEPT]:
        if old != current:
            shutil.rmtree(old, ignore_errors=True)
