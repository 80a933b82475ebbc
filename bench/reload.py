"""Reloading the data while serving (README: When a new list is announced): the time a reload takes, the peak
memory while reloading beside the steady memory, the p99 latency of /v1/validate while reloading beside the p99
without, and the memory after 20 reloads beside after one — all measured in one run on one `deckcheck serve`.

Usage: python -m bench.reload [--seconds 8] [--reloads 20] [--clients 4]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench.server import Server, serve
from tests.cases import request

BODY = json.dumps(request(date="2026-12-01")).encode()
HEADERS = {"Content-Type": "application/json"}


def _rss(pid: int, field: str = "VmRSS") -> int:
    """A memory figure of process `pid` in KiB, from /proc/PID/status (VmRSS now, VmHWM the peak so far)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def _load(port: int, seconds: float, clients: int) -> list[float]:
    """Latencies of /v1/validate from `clients` keep-alive connections asking back to back for `seconds`."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    def ask() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.monotonic() < stop:
            start = time.perf_counter()
            conn.request("POST", "/v1/validate", BODY, HEADERS)
            response = conn.getresponse()
            response.read()
            assert response.status == 200, response.status
            latencies.append(time.perf_counter() - start)
        conn.close()

    threads = [threading.Thread(target=ask) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


class Reloader:
    """Changes the updates folder (a list that comes and goes) and sends SIGHUP; waits for the log to say done."""

    def __init__(self, server: Server, updates: Path) -> None:
        self.server, self.updates, self.done = server, updates, 0
        self.path = updates / "banlists" / "ocg" / "2027-04-01.json"
        self.path.parent.mkdir(parents=True)

    def reload(self) -> None:
        if self.path.exists():
            self.path.unlink()
        else:
            body = {"name": "OCG 2027.04", "format": "OCG", "effective_from": "2027-04-01", "effective_until": None}
            self.path.write_text(json.dumps(body | {"forbidden": [55144522], "limited": [], "semi_limited": []}))
        os.kill(self.server.process.pid, signal.SIGHUP)
        self.done += 1
        while len(self.seconds()) < self.done:
            time.sleep(0.01)

    def seconds(self) -> list[float]:
        self.server.log.flush()
        lines = Path(self.server.log.name).read_text().splitlines()
        return [json.loads(line)["seconds"] for line in lines if '"event":"data_reload","outcome":"ok"' in line]


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--reloads", type=int, default=20)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        serve(env={"DECKCHECK_UPDATES_DIR": folder, "DECKCHECK_ACCESS_LOG": "false"}) as server,
    ):
        pid, updates = server.process.pid, Path(folder)
        _load(server.port, 2, args.clients)  # warm up: every table the checks build
        reloader = Reloader(server, updates)
        reloader.reload()
        _load(server.port, 1, args.clients)
        steady = after_one = _rss(pid)
        quiet = _load(server.port, args.seconds, args.clients)
        peak = steady
        stop = threading.Event()

        def reload_all_along() -> None:
            while not stop.is_set():
                reloader.reload()
                time.sleep(0.2)

        def watch_memory() -> None:
            nonlocal peak
            while not stop.is_set():
                peak = max(peak, _rss(pid))
                time.sleep(0.005)

        workers = [threading.Thread(target=reload_all_along), threading.Thread(target=watch_memory)]
        for worker in workers:
            worker.start()
        busy = _load(server.port, args.seconds, args.clients)
        stop.set()
        for worker in workers:
            worker.join()
        while reloader.done < args.reloads:
            reloader.reload()
        _load(server.port, 1, args.clients)
        after_all = _rss(pid)
        seconds = reloader.seconds()
    print(
        f"reloads: {len(seconds)}; seconds per reload: median {statistics.median(seconds):.2f}, max {max(seconds):.2f}"
    )
    print(f"memory: steady {steady / 1024:.0f} MiB, peak while reloading {peak / 1024:.0f} MiB: {peak / steady:.2f}x")
    growth = after_all / after_one
    after = f"after {reloader.done}: {after_all / 1024:.0f} MiB"
    print(f"memory after reload 1: {after_one / 1024:.0f} MiB, {after}: {growth:.2f}x")
    print(
        f"/v1/validate p99: {_p99(quiet):.1f} ms without reloads ({len(quiet)} answers), {_p99(busy):.1f} ms while "
        f"reloading ({len(busy)} answers): {_p99(busy) / _p99(quiet):.2f}x"
    )


if __name__ == "__main__":
    main()
