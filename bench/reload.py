"""Reloading the data while serving (docs/operators/data.md, When a new list is announced): the time a reload takes
idle (no clients) and beside saturating clients, the peak memory while reloading beside the steady memory, the p99
latency of /v1/validate while reloading beside the p99 without, and the memory after 20 reloads beside after one — all
measured in one run on one `deckcheck serve`.

The two figures the targets are about, the p99 while reloading over the p99 without and the seconds one reload takes
idle, are measured in each of `--rounds` rounds (the two p99s of a ratio in the same round, one after the other) and
reported as the median of the rounds, each round's figures beside it: on a shared machine one round can be far off.
Beside the seconds of an idle reload (as the server logs them), the server's CPU seconds for it, all in.

Usage: python -m bench.reload [--rounds 3] [--seconds 8] [--idle 3] [--reloads 20] [--clients 4]
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.server import Server, cpu_seconds, serve
from tests.cases import request

BODY = json.dumps(request(date="2026-12-01")).encode()
HEADERS = {"Content-Type": "application/json"}


def _rss(pid: int, field: str = "VmRSS") -> int:
    """A memory figure of process `pid` in KiB, from /proc/PID/status (VmRSS now, VmHWM the peak so far)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def _load(port: int, seconds: float, clients: int, more: Callable[[], bool] = lambda: False) -> list[float]:
    """Latencies of /v1/validate from `clients` keep-alive connections asking back to back for `seconds`, and on
    for as long as `more()`."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    def ask() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.monotonic() < stop or more():
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

    def reload(self) -> float:
        """Reload once; the seconds the server says the reload took."""
        if self.path.exists():
            self.path.unlink()
        else:
            body = {"name": "OCG 2027.04", "format": "OCG", "effective_from": "2027-04-01", "effective_until": None}
            self.path.write_text(json.dumps(body | {"forbidden": [55144522], "limited": [], "semi_limited": []}))
        os.kill(self.server.process.pid, signal.SIGHUP)
        self.done += 1
        while len(seconds := self.seconds()) < self.done:
            time.sleep(0.01)
        return seconds[self.done - 1]

    def seconds(self) -> list[float]:
        """The seconds each reload so far took, as the server logged them."""
        self.server.log.flush()
        lines = Path(self.server.log.name).read_text().splitlines()
        return [json.loads(line)["seconds"] for line in lines if '"event":"data_reload","outcome":"ok"' in line]


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] * 1000


@dataclass
class Round:
    """One round's figures: the seconds of the idle reloads, and the latencies without and while reloading."""

    idle: list[float]
    idle_cpu: list[float]  # the server's CPU seconds for each idle reload, all in (steady beside a busy machine)
    quiet: list[float]
    busy: list[float]
    reloads: list[float]  # the seconds of the reloads beside the clients

    @property
    def idle_seconds(self) -> float:
        return statistics.median(self.idle)

    @property
    def ratio(self) -> float:
        return _p99(self.busy) / _p99(self.quiet)

    def __str__(self) -> str:
        return (
            f"idle reload {self.idle_seconds:.2f} s (of {', '.join(f'{s:.2f}' for s in self.idle)}; CPU "
            f"{', '.join(f'{s:.2f}' for s in self.idle_cpu)}); p99 "
            f"{_p99(self.quiet):.1f} ms without ({len(self.quiet)} answers), {_p99(self.busy):.1f} ms while reloading "
            f"({len(self.busy)} answers, {len(self.reloads)} reloads): {self.ratio:.2f}x"
        )


def _round(server: Server, reloader: Reloader, args: argparse.Namespace, peak: list[int]) -> Round:
    """Reload idle `args.idle` times; then `args.clients` clients for `args.seconds` without reloads, and as long
    again while reloading over and over (the next reload 0.2 s after the last ended), on until the first of those
    reloads has ended half a second ago (a reload beside the clients can take longer than `args.seconds`, and what
    it costs them at its end counts: its last collection, the data it replaced freed, the first checks on the new
    data); raising `peak[0]` to the highest memory seen meanwhile."""
    idle, idle_cpu = [], []
    for _ in range(args.idle):
        time.sleep(0.5)  # the answers before written, the clients' threads gone, the replaced data freed
        cpu = cpu_seconds(server.process.pid)
        idle.append(reloader.reload())
        time.sleep(0.3)  # the replaced data freed after the reload (api/live_data.py `_retire`)
        idle_cpu.append(cpu_seconds(server.process.pid) - cpu)
    quiet = _load(server.port, args.seconds, args.clients)
    stop = threading.Event()
    beside: list[float] = []
    ended: list[float] = []  # time.monotonic() when each of them ended

    def reload_all_along() -> None:
        while not stop.is_set():
            beside.append(reloader.reload())
            ended.append(time.monotonic())
            time.sleep(0.2)

    def watch_memory() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _rss(server.process.pid))
            time.sleep(0.005)

    workers = [threading.Thread(target=reload_all_along), threading.Thread(target=watch_memory)]
    for worker in workers:
        worker.start()
    busy = _load(server.port, args.seconds, args.clients, lambda: not ended or time.monotonic() < ended[0] + 0.5)
    stop.set()
    for worker in workers:
        worker.join()
    return Round(idle, idle_cpu, quiet, busy, beside)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0, help="of clients without, then while, reloading")
    parser.add_argument("--idle", type=int, default=3, help="reloads with no clients in each round")
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
        peak = [steady]
        rounds: list[Round] = []
        for number in range(1, args.rounds + 1):
            rounds.append(_round(server, reloader, args, peak))
            print(f"round {number}: {rounds[-1]}", flush=True)
        while reloader.done < args.reloads:
            reloader.reload()
        _load(server.port, 1, args.clients)
        after_all = _rss(pid)
        seconds = reloader.seconds()
    ratio = statistics.median(each.ratio for each in rounds)
    quiet = statistics.median(_p99(each.quiet) for each in rounds)
    busy = statistics.median(_p99(each.busy) for each in rounds)
    print(
        f"p99 while reloading / without, median of {len(rounds)} rounds: {ratio:.2f}x "
        f"({busy:.1f} ms / {quiet:.1f} ms, medians of the rounds)"
    )
    idle = statistics.median(each.idle_seconds for each in rounds)
    cpu = statistics.median(statistics.median(each.idle_cpu) for each in rounds)
    print(f"seconds one reload takes idle, median of {len(rounds)} rounds: {idle:.2f} (CPU seconds {cpu:.2f})")
    beside = [seconds for each in rounds for seconds in each.reloads]
    print(
        f"seconds a reload takes beside {args.clients} clients: median {statistics.median(beside):.2f}, "
        f"max {max(beside):.2f} ({len(beside)} reloads)"
    )
    print(f"reloads: {len(seconds)}; seconds: median {statistics.median(seconds):.2f}, max {max(seconds):.2f}")
    high = peak[0]
    print(f"memory: steady {steady / 1024:.0f} MiB, peak while reloading {high / 1024:.0f} MiB: {high / steady:.2f}x")
    growth = after_all / after_one
    after = f"after {reloader.done}: {after_all / 1024:.0f} MiB"
    print(f"memory after reload 1: {after_one / 1024:.0f} MiB, {after}: {growth:.2f}x")


if __name__ == "__main__":
    main()
