"""Where the updates folder is when nothing names one, and which services watch a folder: each serving process
keeps a small record of itself in the user's state folder (platformdirs) — its folder, the data version it serves and
how its last reload went — written at start and after every reload, removed when it stops. `deckcheck data` reads
them to wait until the services watching the folder it changed serve the change, and to signal those services (by
the folder they watch, never by a process name, which on a shared host may be somebody else's server)."""

from __future__ import annotations

import datetime as dt
import json
import logging
import multiprocessing
import os
import socket
from contextlib import suppress
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import platformdirs

LOG = logging.getLogger("deckcheck.data")
_APP = "deckcheck"


def default_updates_dir() -> Path:
    """The updates folder `deckcheck serve` and `deckcheck data` use when DECKCHECK_UPDATES_DIR is not set: the
    platform's data folder for the user (~/.local/share/deckcheck/updates on Linux)."""
    return Path(platformdirs.user_data_dir(_APP, appauthor=False)) / "updates"


def state_dir() -> Path:
    """The user's state folder of the service (~/.local/state/deckcheck on Linux): the serving processes' records
    (`registry_dir`) and the last good data of each updates folder (data/lastgood.py)."""
    return Path(platformdirs.user_state_dir(_APP, appauthor=False))


def registry_dir() -> Path:
    """Where the serving processes of this user keep their records (~/.local/state/deckcheck/services on Linux)."""
    return state_dir() / "services"


def now() -> str:
    """The time now in UTC, as the records keep it."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Watcher:
    """One serving process, as its record gives it."""

    pid: int
    signal_pid: int  # the process a reload signal goes to: the supervisor of `--workers N`, else the process itself
    host: str
    updates_dir: str
    data_dir: str
    poll_seconds: float
    data_version: str
    reload_outcome: str  # "started", "ok" or "failed"
    reload_problem: str | None
    reloaded: str  # when the data were last loaded, or a reload last failed

    def describe(self) -> str:
        """The process as an operator finds it: its pid, and the supervisor's when it is a worker."""
        return f"pid {self.pid}" + ("" if self.signal_pid == self.pid else f" (worker of pid {self.signal_pid})")


class Registration:
    """The record of this process, kept while it serves. A registry that cannot be written costs the operator only
    the wait of `deckcheck data`: it is logged once and the service goes on."""

    def __init__(self, updates_dir: Path, data_dir: Path, poll_seconds: float, version: str) -> None:
        pid = os.getpid()
        parent = multiprocessing.parent_process()  # uvicorn's supervisor spawns its workers
        self.path = registry_dir() / f"{socket.gethostname()}-{pid}.json"
        self.watcher = Watcher(
            pid=pid,
            signal_pid=parent.pid if parent is not None and parent.pid is not None else pid,
            host=socket.gethostname(),
            updates_dir=str(updates_dir.resolve()),
            data_dir=str(data_dir.resolve()),
            poll_seconds=poll_seconds,
            data_version=version,
            reload_outcome="started",
            reload_problem=None,
            reloaded=now(),
        )
        self._failed = False

    def write(self, outcome: str, version: str, problem: str | None = None) -> None:
        """Record the outcome of a load: the version served after it, and why it failed if it did."""
        self.watcher = replace(
            self.watcher, data_version=version, reload_outcome=outcome, reload_problem=problem, reloaded=now()
        )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".tmp")
            temporary.write_text(json.dumps(asdict(self.watcher)), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as exc:
            if not self._failed:
                fields = {"event": "registry_unwritable", "path": str(self.path), "problem": str(exc)}
                LOG.warning("the record of this serving process cannot be written", extra=fields)
            self._failed = True

    def remove(self) -> None:
        """Take the record away: the process stops serving."""
        self.path.unlink(missing_ok=True)


def watchers(folder: Path) -> list[Watcher]:
    """The live serving processes of this host whose updates folder is `folder`; records of processes that died
    without removing them are removed here."""
    found = []
    target = str(folder.resolve())
    host = socket.gethostname()
    for path in sorted(registry_dir().glob("*.json")):
        try:
            watcher = Watcher(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            continue  # being written, or not a record
        if watcher.host != host:
            continue
        if not _alive(watcher.pid):
            with suppress(OSError):
                path.unlink()
            continue
        if watcher.updates_dir == target:
            found.append(watcher)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive, though not ours to signal
    return True
