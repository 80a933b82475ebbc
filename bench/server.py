"""A `deckcheck serve` process for the HTTP benchmarks (bench.load, bench.hostile), and what it costs."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO


@dataclass
class Server:
    """A running `deckcheck serve`: its process, port and the file its stderr goes to."""

    process: subprocess.Popen[bytes]
    port: int
    log: IO[bytes]

    def errors(self) -> list[str]:
        """The log lines that tell of a failure: logger, message and exception type of each ERROR or CRITICAL line
        (every line the service writes is one JSON object, deckcheck/logs.py)."""
        self.log.flush()
        lines = (json.loads(line) for line in Path(self.log.name).read_text(errors="replace").splitlines() if line)
        failed = (line for line in lines if line.get("level") in ("ERROR", "CRITICAL"))
        return [" ".join(str(line.get(key, "")) for key in ("logger", "message", "exc_type")) for line in failed]


@contextmanager
def serve(workers: int | None = None, env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """Start `deckcheck serve` on a free port (with `env` added to the environment) and wait for /healthz; SIGTERM it
    (then SIGKILL) however we leave."""
    with socket.socket() as sock:  # a port nothing listens on now
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    command = shutil.which("deckcheck", path=str(Path(sys.executable).parent)) or shutil.which("deckcheck")
    assert command is not None, "no deckcheck command beside this Python"
    args = [command, "serve", "--host", "127.0.0.1", "--port", str(port)]
    args += [] if workers is None else ["--workers", str(workers)]
    with (
        tempfile.NamedTemporaryFile(prefix="deckcheck-serve-", suffix=".log") as log,
        tempfile.TemporaryDirectory(prefix="deckcheck-updates-") as empty,
    ):
        # The bundled data alone unless `env` names an updates folder: never the updates of whoever runs the bench.
        env = {**os.environ, "DECKCHECK_UPDATES_DIR": empty, **(env or {})}
        # A session of its own: Ctrl-C reaches only us, and the finally below stops the server and its workers.
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True, env=env)
        try:
            _wait_healthy(process, port, log.name)
            yield Server(process, port, log)
        finally:
            stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to a server started in a session of its own, then SIGKILL to its whole group after 10 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _wait_healthy(process: subprocess.Popen[bytes], port: int, log: str) -> None:
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
        finally:
            conn.close()
    tail = Path(log).read_text(errors="replace")[-2000:]
    raise RuntimeError(f"deckcheck serve did not start (exit code {process.poll()}):\n{tail}")


def pid_tree(pid: int) -> list[int]:
    """`pid` and every process below it (the server's workers, if any)."""
    pids = [pid]
    for parent in pids:
        for children in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                pids += [int(child) for child in children.read_text().split()]
            except OSError:
                continue
    return pids


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of `pid` and its descendants, from /proc/PID/stat."""
    total = 0
    for each in pid_tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")
