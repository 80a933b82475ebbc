"""`deckcheck serve --workers N` as an operator meets it: it starts on the last good data where one process would
(a broken updates folder), its workers are not taken for dead while they start however long that takes (a busy
machine), and they end with their supervisor, however it ends (SIGKILL), leaving the port free."""

from __future__ import annotations

import inspect
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from deckcheck.api.server import Worker
from tests import served

# Each process the supervisor starts (multiprocessing's spawn: `python -c … --multiprocessing-fork`) waits this
# long before Python goes on to load anything: longer than uvicorn's health check waits for a worker's answer (5 s).
SLOW_START = f"""
import sys, time
if sys.argv[-1:] == ["--multiprocessing-fork"]:
    time.sleep({8.0})
"""


def _deckcheck(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "deckcheck", *argv]
    return subprocess.run(command, check=False, env=os.environ | env, capture_output=True, text=True, timeout=300)


def _workers(server: served.Served) -> list[int]:
    """The worker processes started so far, in order."""
    return [int(pid) for pid in re.findall(r"Started server process \[(\d+)\]", "\n".join(server.log_lines()))]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _started(server: served.Served, count: int) -> None:
    """Wait (a minute at most) until `count` workers have finished starting."""
    deadline = time.monotonic() + 60
    while sum("Application startup complete" in line for line in server.log_lines()) < count:
        assert time.monotonic() < deadline, server.log_lines()[-20:]
        time.sleep(0.05)


@pytest.fixture
def updates(tmp_path: Path) -> Path:
    """An updates folder holding a list the operator added."""
    folder = tmp_path / "updates"
    folder.mkdir()
    given = tmp_path / "emergency.json"
    given.write_text('{"forbidden": [70828912]}', encoding="utf-8")
    added = _deckcheck("data", "add-list", "--dir", str(folder), "--format", "ocg", "--from", "2026-11-15", str(given))
    assert added.returncode == 0, added.stderr
    return folder


@pytest.mark.server
def test_two_workers_start_on_the_last_good_data_as_one_process_does(tmp_path: Path, updates: Path) -> None:
    env = {"DECKCHECK_UPDATES_DIR": str(updates), "DECKCHECK_ACCESS_LOG": "false", "DECKCHECK_UPDATES_POLL": "0"}
    with served.serving(tmp_path / "good.log", env) as running:  # keeps the folder's data as the last good data
        good = httpx.get(f"{running.url}/healthz").json()
    broken = updates / "banlists" / "ocg" / "2026-11-15.json"
    broken.write_text('{"name": "broken"', encoding="utf-8")
    with served.serving(tmp_path / "two.log", env, "--workers", "2") as running:
        _started(running, 2)
        failed = [line for line in running.logged("deckcheck.data") if line["event"] == "data_reload"]
        assert [(line["outcome"], line["cause"], line["file"]) for line in failed] == [
            ("failed", "start", str(broken))
        ] * 2
        health = httpx.get(f"{running.url}/healthz").json()
        assert (health["banlists"], health["imports"]) == (good["banlists"], good["imports"])
        assert (health["stale"]["file"], health["stale"]["entry"]) == (str(broken), "file")


@pytest.mark.server
def test_workers_still_starting_are_waited_for_not_replaced(tmp_path: Path) -> None:
    """On a busy machine a worker takes longer to load than uvicorn's health check waits for its answer: each
    is waited for, rather than killed and started again, for ever."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SLOW_START, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")]))
    with served.serving(tmp_path / "log", {"PYTHONPATH": path}, "--workers", "2") as running:
        _started(running, 2)
        assert len(_workers(running)) == 2
        assert [line for line in running.log_lines() if " died" in line or "failed to start" in line] == []
        assert httpx.get(f"{running.url}/healthz").json()["status"] == "ok"


@pytest.mark.server
def test_workers_end_with_their_supervisor_killed(tmp_path: Path) -> None:
    with served.serving(tmp_path / "log", {}, "--workers", "2") as running:
        _started(running, 2)
        workers = _workers(running)
        assert len(workers) == 2
        assert all(_alive(pid) for pid in workers)
        os.kill(running.process.pid, signal.SIGKILL)
        running.process.wait()
        deadline = time.monotonic() + 15  # a bound for a busy machine; they end within a second on an idle one
        while (any(_alive(pid) for pid in workers) or not _port_free(running.port)) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [pid for pid in workers if _alive(pid)]
        for pid in left:  # not to outlive the test
            os.kill(pid, signal.SIGKILL)
        assert left == []
        assert _port_free(running.port)
        gone = [line for line in running.logged("uvicorn.error") if line.get("event") == "supervisor_gone"]
        assert sorted(line["message"] for line in gone) == sorted(
            f"Supervisor [{running.process.pid}] is gone; stopping worker [{pid}]" for pid in workers
        )


def test_the_uvicorn_internals_the_workers_build_on() -> None:
    """api/server.py's Workers and Worker replace these methods of uvicorn's supervisor and its process, and use
    these attributes; pyproject.toml holds uvicorn below the next release, and this test says what to look at."""
    for name in ("init_processes", "keep_subprocess_alive", "handle_ttin", "handle_hup"):
        assert callable(getattr(Multiprocess, name))
    for name in ("target", "is_alive", "is_ready", "kill", "join", "start", "server"):
        assert hasattr(Process, name)
    assert STARTUP_FAILURE == 3
    source = inspect.getsource(Process)
    assert [name for name in ("self.parent_conn", "self.process", 'b"ping"') if name not in source] == []
    assert "self.sockets" in inspect.getsource(Multiprocess.__init__)


class _Running:
    """A worker's process as the supervisor sees it: alive (no process is started here)."""

    def is_alive(self) -> bool:
        return True


def test_a_worker_asked_while_it_started_is_asked_again_before_a_sighup() -> None:
    """The supervisor asks a starting worker whether it serves and reads the answer later; a worker that said "not
    yet" and started since is ready when SIGHUP comes (it was passed by, and served the old data, when the stale
    answer was believed)."""
    worker = Worker(uvicorn.Config("deckcheck.app:app"), [])
    worker.process = _Running()  # type: ignore[assignment]
    assert worker.is_alive() is True  # starting: asked, not waited for
    assert worker.child_conn.recv() == b"ping"
    worker.child_conn.send(False)  # not yet serving; then the worker starts

    def answer_twice() -> None:  # the started worker's answers: it serves
        for _ in range(2):
            worker.child_conn.send(worker.child_conn.recv() == b"ping")

    answering = threading.Thread(target=answer_twice, daemon=True)
    answering.start()
    assert worker.is_ready(5) is True
    answering.join(5)
    assert (worker.serving, answering.is_alive()) == (True, False)
