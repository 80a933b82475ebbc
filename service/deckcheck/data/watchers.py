"""Where the updates folder is when nothing names one, and which services watch a folder: each serving process
keeps a small record of itself in the user's state folder (platformdirs) — its folder, the data version it serves and
how its last reload went — written at start and after every reload, removed when it stops. `deckcheck data` reads
them to wait until the services watching the folder it changed serve the change, and to signal those services (by
the folder they watch, never by a process name, which on a shared host may be somebody else's server).

A record outlives a process killed with SIGKILL, and its pid may be taken by another: a process is the one a record
names only when its start time (/proc/PID/stat) and the machine's boot are the ones recorded. Records are read as
data files are: regular files only, bounded in size, every field of its type, pids in range."""

from __future__ import annotations

import datetime as dt
import json
import logging
import multiprocessing
import os
import socket
import stat
from contextlib import suppress
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import platformdirs

LOG = logging.getLogger("deckcheck.data")
_APP = "deckcheck"
_RECORD_BYTES = 16 * 1024  # a record is a few hundred bytes; a larger file is no record
_PID_MAX = 4_194_304  # Linux's highest pid_max
_PROC = Path("/proc")


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
    started: int | None = None  # the process's start, in clock ticks after boot (/proc/PID/stat), where known
    signal_started: int | None = None  # the same of the process a reload signal goes to
    boot: str | None = None  # the boot the two started in (/proc/sys/kernel/random/boot_id)

    def alive(self) -> bool:
        """Whether the process of the record still runs: the same pid, started when it did, in the same boot."""
        return _is(self.pid, self.started, self.boot)

    def signallable(self) -> bool:
        """Whether the process a reload signal goes to is still the one the record names."""
        return _is(self.signal_pid, self.signal_started, self.boot)

    def describe(self) -> str:
        """The process as an operator finds it: its pid, and the supervisor's when it is a worker."""
        return f"pid {self.pid}" + ("" if self.signal_pid == self.pid else f" (worker of pid {self.signal_pid})")


class Registration:
    """The record of this process, kept while it serves. A registry that cannot be written costs the operator only
    the wait of `deckcheck data`: it is logged once and the service goes on."""

    def __init__(self, updates_dir: Path, data_dir: Path, poll_seconds: float, version: str) -> None:
        pid = os.getpid()
        parent = multiprocessing.parent_process()  # uvicorn's supervisor spawns its workers
        signal_pid = parent.pid if parent is not None and parent.pid is not None else pid
        self.path = registry_dir() / f"{socket.gethostname()}-{pid}.json"
        self.watcher = Watcher(
            pid=pid,
            signal_pid=signal_pid,
            host=socket.gethostname(),
            updates_dir=str(updates_dir.resolve()),
            data_dir=str(data_dir.resolve()),
            poll_seconds=poll_seconds,
            data_version=version,
            reload_outcome="started",
            reload_problem=None,
            reloaded=now(),
            started=_started(pid),
            signal_started=_started(signal_pid),
            boot=_boot(),
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
        watcher = _record(path)
        if watcher is None or watcher.host != host:
            continue  # being written, not a record, or another host's
        if not watcher.alive():
            with suppress(OSError):
                path.unlink()
            continue
        if watcher.updates_dir == target:
            found.append(watcher)
    return found


def _record(path: Path) -> Watcher | None:
    """The record at `path`, or None for anything that is not one: not a regular file (a FIFO is never opened to
    wait on), too large, not JSON, or a field missing, of another type or out of range."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            raw = file.read(_RECORD_BYTES + 1)
            fields = json.loads(raw) if len(raw) <= _RECORD_BYTES else None
        except (OSError, ValueError):
            return None
    if not isinstance(fields, dict) or not _typed(fields):
        return None
    return Watcher(**fields)


def _typed(fields: dict[str, object]) -> bool:
    """Whether a record's fields are a Watcher's, each of its type, its pids in range."""
    texts = ("host", "updates_dir", "data_dir", "data_version", "reload_outcome", "reloaded")
    ticks = [fields.get(name) for name in ("started", "signal_started")]
    poll = fields.get("poll_seconds")
    return (
        set(Watcher.__dataclass_fields__) >= set(fields) >= {*texts, "pid", "signal_pid", "poll_seconds"}
        and all(_pid(fields.get(name)) for name in ("pid", "signal_pid"))
        and all(isinstance(fields.get(name), str) for name in texts)
        and all(tick is None or (type(tick) is int and tick >= 0) for tick in ticks)
        and isinstance(fields.get("boot"), str | None)
        and isinstance(fields.get("reload_problem"), str | None)
        and type(poll) in (int, float)
        and 0 <= float(poll) < float("inf")  # type: ignore[arg-type]
    )


def _pid(value: object) -> bool:
    """Whether a record's pid is one a process may have: never 0 or -1, which signal a group or every process."""
    return type(value) is int and 0 < value <= _PID_MAX


def _is(pid: int, started: int | None, boot: str | None) -> bool:
    """Whether `pid` is the process that started at `started` in `boot`; where /proc is missing, whether a process
    of that pid runs at all."""
    if not _PROC.joinpath("self", "stat").is_file():
        return _runs(pid)
    return started is not None and boot == _boot() and _started(pid) == started


def _started(pid: int) -> int | None:
    """When process `pid` started, in clock ticks after boot (the 22nd field of /proc/PID/stat); None for none."""
    try:
        text = _PROC.joinpath(str(pid), "stat").read_text(encoding="utf-8", errors="replace")
        return int(text[text.rindex(")") + 2 :].split()[19])  # after the command, which may hold spaces and ")"
    except (OSError, ValueError, IndexError):
        return None


def _boot() -> str | None:
    """This boot's id (/proc/sys/kernel/random/boot_id): a start time counts from it."""
    try:
        return _PROC.joinpath("sys", "kernel", "random", "boot_id").read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return None


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive, though not ours to signal
    return True
