"""The records of serving processes (data/watchers.py), as a host really leaves them: a service killed with SIGKILL
leaves its record, and its pid may be taken by another process; a record may be anything a file can be. `deckcheck
data reload` signals only a process that is the service its record names, never says 0 when no service took the
change, and reads every record as a data file: no traceback, no wait on a FIFO."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deckcheck.data.watchers import Registration, watchers


def _deckcheck(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "deckcheck", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, env=env)


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}


def _services(tmp_path: Path) -> Path:
    folder = tmp_path / "state" / "deckcheck" / "services"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _record(pid: Any, folder: Path, **more: Any) -> dict[str, Any]:
    return {
        "pid": pid,
        "signal_pid": pid,
        "host": socket.gethostname(),
        "updates_dir": str(folder.resolve()),
        "data_dir": str(folder.resolve()),
        "poll_seconds": 0,
        "data_version": "v1",
        "reload_outcome": "ok",
        "reload_problem": None,
        "reloaded": "2026-12-05T00:00:00.000Z",
        **more,
    }


def test_a_dead_services_pid_taken_by_another_process_is_never_signalled(tmp_path: Path) -> None:
    folder = tmp_path / "updates"
    folder.mkdir()
    other = subprocess.Popen(["sleep", "60"])
    try:
        started = int(Path(f"/proc/{other.pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        record = _record(other.pid, folder, started=started - 1, signal_started=started - 1, boot=boot)
        (_services(tmp_path) / f"{socket.gethostname()}-{other.pid}.json").write_text(json.dumps(record))
        done = _deckcheck(_env(tmp_path), "data", "reload", "--dir", str(folder))
        assert (done.returncode, done.stderr) == (3, "")
        assert done.stdout.startswith(f"no service on this machine watches {folder.resolve()}")
        assert other.poll() is None  # not signalled: SIGHUP would have ended it
        assert list(_services(tmp_path).iterdir()) == []  # the dead service's record is gone
    finally:
        other.kill()
        other.wait()


@pytest.mark.parametrize("pid", ["12", 2**70, 1.5, 0, -1, True, None])
def test_a_record_of_a_pid_no_process_may_have_is_no_record(tmp_path: Path, pid: Any) -> None:
    folder = tmp_path / "updates"
    folder.mkdir()
    (_services(tmp_path) / "bad.json").write_text(json.dumps(_record(pid, folder)))
    done = _deckcheck(_env(tmp_path), "data", "reload", "--dir", str(folder))
    assert (done.returncode, done.stderr) == (3, "")


def test_a_fifo_a_huge_file_and_a_symlink_are_no_records_and_never_waited_on(tmp_path: Path) -> None:
    folder = tmp_path / "updates"
    folder.mkdir()
    services = _services(tmp_path)
    os.mkfifo(services / "fifo.json")
    (services / "huge.json").write_text(json.dumps(_record(os.getpid(), folder, padding="x" * 100_000)))
    (services / "link.json").symlink_to(tmp_path / "elsewhere.json")
    done = _deckcheck(_env(tmp_path), "data", "reload", "--dir", str(folder))
    assert (done.returncode, done.stderr) == (3, "")


def test_a_live_services_record_is_found_with_its_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = tmp_path / "updates"
    folder.mkdir()
    registration = Registration(folder, folder, 0.0, "v1")
    registration.write("ok", "v1")
    try:
        (found,) = watchers(folder)
        assert (found.pid, found.alive(), found.signallable()) == (os.getpid(), True, True)
        assert found.started is not None
        assert found.boot is not None
    finally:
        registration.remove()
