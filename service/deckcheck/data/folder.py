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

from deckcheck.errors import FolderBusy

CURRENT = "current"
STATE = ".deckcheck"
ENTRIES = ("banlists", "cards", "provenance")  # what a folder's data are made of
_KEPT = 3  # snapshots kept: the one in force, and those a reader that began before the last changes may be reading
_LOCK_POLL = 0.05


def live(folder: Path) -> Path:
    """The folder the data of `folder` are read from: the snapshot its `current` names, else `folder` itself."""
    current = folder / CURRENT
    return Path(os.path.realpath(current)) if current.is_symlink() else folder


@contextmanager
def writing(folder: Path, wait: float, command: Sequence[str]) -> Iterator[None]:
    """Hold the folder's lock while the block runs (the folder is made if missing); wait up to `wait` seconds for
    another writer, then raise FolderBusy naming it."""
    state = folder / STATE
    state.mkdir(parents=True, exist_ok=True)
    fd = os.open(state / "lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise FolderBusy(str(folder), wait, _holder(fd)) from None
                time.sleep(_LOCK_POLL)
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        held = json.dumps({"pid": os.getpid(), "since": now, "command": ["deckcheck", "data", *command]})
        os.ftruncate(fd, 0)
        os.pwrite(fd, held.encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # lets the lock go


def _holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it down."""
    try:
        held = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"pid {held['pid']} ({' '.join(held['command'])}) since {held['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a writer that has not said who it is"


def publish(folder: Path, make: Callable[[Path], None], check: Callable[[Path], object]) -> None:
    """Make a change to `folder` as one step: `make` changes a staging copy of the data in force, `check` loads it
    (raising when the data would not load), and then the copy is put in force. Call it holding the lock."""
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
    link = folder / f".{CURRENT}-{os.getpid()}"
    link.unlink(missing_ok=True)
    os.symlink(os.path.relpath(snapshot, folder), link)
    os.replace(link, folder / CURRENT)  # the one step that puts the change in force
    _fsync_dir(folder)
    _link_entries(folder)
    _prune(snapshots, snapshot)


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
