"""Load the HTTP service: `python -m bench.load [--seconds 60] [--connections 50] [--workers N]`.

Run by hand, never as a timed test; it prints figures and the targets beside them, and asserts nothing about time.
Starts `deckcheck serve` in a subprocess and runs two phases against POST /v1/validate over keep-alive HTTP/1.1
connections: *legal* (every deck legal) and *mixed* (half legal, a quarter with one fault, a quarter naming three
cards by mistyped names). A prober in its own process asks GET /healthz every 50 ms on its own connection. The
load generator is a lean asyncio client writing pre-encoded requests, so it leaves the server most of the CPU; its
own CPU use is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import itertools
import multiprocessing as mp
import os
import random
import resource
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import orjson

from bench.corpus import Corpus
from bench.names import mistyped_names
from bench.server import Server, cpu_seconds, serve
from deckcheck import Data, load_data

EVENT = "2008-06-01"
PROBE_EVERY = 0.05
TARGET_RATIO, TARGET_HEALTHZ_P99_MS = 0.5, 50.0


def _entries(cards: list[int] | tuple[int, ...]) -> list[dict[str, Any]]:
    return [{"passcode": p, "count": n} for p, n in Counter(cards).items()]


def bodies(data: Data, legal: int, faulty: int, garbage: int) -> dict[str, list[bytes]]:
    """Request bodies by kind: legal decks, decks with one fault, and decks naming three cards by mistyped names
    (every name a different one, so the server's suggestion cache never answers for the search)."""
    corpus, rng = Corpus(data, seed=61), random.Random(61)
    names = iter(mistyped_names(data, 3 * garbage))
    out: dict[str, list[bytes]] = {"legal": [], "illegal": [], "garbage": []}
    decks = (d for d in corpus.decks(10 * (legal + faulty + garbage)) if d.made_legal)
    while len(out["legal"]) < legal or len(out["illegal"]) < faulty or len(out["garbage"]) < garbage:
        deck = next(decks)
        main, rest = list(deck.main), {"extra": _entries(deck.extra), "side": _entries(deck.side), "date": EVENT}
        entries = _entries(main)
        if len(out["legal"]) < legal:
            kind = "legal"
        elif len(out["illegal"]) < faulty and len(main) <= 56:  # one fault: a Forbidden card, a 4th copy, 20-39 main
            kind, fault = "illegal", len(out["illegal"]) % 3
            main[0] = rng.choice(corpus.forbidden) if fault == 0 else main[0]
            main += [main[0]] * (4 - main.count(main[0])) if fault == 1 else []
            entries = _entries(main[: rng.randint(20, 39)] if fault == 2 else main)
        elif len(out["garbage"]) < garbage and len(main) >= 46:  # still 40 or more with three entries of one card
            kind = "garbage"
            for at in rng.sample(range(len(entries)), 3):
                entries[at] = {"name": next(names), "count": 1}
        else:
            continue
        out[kind].append(orjson.dumps({"main": entries, **rest}))
    return out


def check_bodies(port: int, kinds: dict[str, list[bytes]]) -> None:
    """Every legal and illegal body, and a sample of the garbage ones, answers as its kind says; this warms up too."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for kind, group in kinds.items():
        for body in group[:20] if kind == "garbage" else group:
            conn.request("POST", "/v1/validate", body, {"Content-Type": "application/json"})
            response = conn.getresponse()
            answer = response.read()
            legal = orjson.loads(answer).get("legal") if response.status == 200 else None
            if legal is not (kind == "legal"):
                raise SystemExit(f"a {kind} body answered {response.status}, legal={legal}: {answer[:300]!r}\n{body!r}")
    conn.close()


@dataclass
class Tally:
    """What one phase's connections saw: 2xx latencies by kind; statuses ("200", "503" or a connection error's
    type); the Retry-After values of the 503s."""

    latency: dict[str, list[float]] = field(default_factory=dict)
    status: Counter[str] = field(default_factory=Counter)
    retry_after: Counter[str] = field(default_factory=Counter)


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bool, str]:
    """Read one response; (status, whether the server closes the connection, Retry-After)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(b":") for line in lines[1:] if line)}
    close = headers.get(b"connection", b"").lower() == b"close"
    if b"content-length" in headers:
        await reader.readexactly(int(headers[b"content-length"]))
    else:  # the service always sends a length; without one (or with chunks) the body ends when the server closes
        await reader.read()
        close = True
    return status, close, headers.get(b"retry-after", b"").decode()


async def _connection(port: int, work: list[tuple[str, bytes]], turn: Iterator[int], stop: float, t: Tally) -> None:
    """One keep-alive connection sending the next request of `work` until `stop`, counting the answers that came
    before `stop`; reconnects when closed."""
    writer: asyncio.StreamWriter | None = None
    while time.monotonic() < stop:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            kind, raw = work[next(turn) % len(work)]
            start = time.perf_counter()
            writer.write(raw)
            await writer.drain()
            status, close, retry = await _answer(reader)
            if time.monotonic() > stop:  # answered after the window: not counted (the window is the divisor)
                break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            t.status[type(exc).__name__] += 1
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.01)
            continue
        t.status[str(status)] += 1
        if 200 <= status < 300:
            t.latency.setdefault(kind, []).append(time.perf_counter() - start)
        elif status == 503:
            t.retry_after[retry or "none"] += 1
        if close:
            writer.close()
            writer = None
    if writer is not None:
        writer.close()


def probe(port: int, start: float, stop: float, out: Connection) -> None:
    """GET /healthz every PROBE_EVERY seconds from `start` to `stop` (monotonic) on one connection; send back the
    latencies, the failures and this process's CPU seconds. Ctrl-C is for the parent, which stops this process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    latencies: list[float] = []
    failures: Counter[str] = Counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    due = start
    while (now := time.monotonic()) < stop:
        time.sleep(max(0.0, due - now))
        begin = time.perf_counter()
        try:
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                latencies.append(time.perf_counter() - begin)
            else:
                failures[str(response.status)] += 1
        except (OSError, http.client.HTTPException) as exc:
            failures[type(exc).__name__] += 1
            conn.close()
        due = max(due + PROBE_EVERY, time.monotonic())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.send((latencies, dict(failures), usage.ru_utime + usage.ru_stime))


def pct(values: list[float], q: float) -> float:
    """The q-quantile of `values`, in milliseconds (nan if empty)."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


@dataclass
class Figures:
    """One phase's figures: 2xx answers a second and /healthz's 99th percentile in milliseconds."""

    rate: float
    healthz_p99: float


def phase(server: Server, label: str, work: list[tuple[str, bytes]], seconds: float, connections: int) -> Figures:
    """Run one phase, print its figures and return them."""
    receive, send = mp.get_context("fork").Pipe(duplex=False)
    start = time.monotonic() + 0.3
    prober = mp.get_context("fork").Process(target=probe, args=(server.port, start, start + seconds, send))
    prober.start()
    tally, turn = Tally(), itertools.count()
    server_cpu, usage = cpu_seconds(server.process.pid), resource.getrusage(resource.RUSAGE_SELF)

    async def run() -> float:
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        began = time.perf_counter()
        stop = start + seconds
        await asyncio.gather(*(_connection(server.port, work, turn, stop, tally) for _ in range(connections)))
        return time.perf_counter() - began

    try:
        elapsed = asyncio.run(run())
        health, failed, probe_cpu = receive.recv()
    finally:
        prober.join(5)
        if prober.is_alive():
            prober.kill()
    after = resource.getrusage(resource.RUSAGE_SELF)
    own_cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime + probe_cpu
    served = cpu_seconds(server.process.pid) - server_cpu
    everything = [x for group in tally.latency.values() for x in group]
    rate = len(everything) / seconds  # answers that came within the window, over the window
    errors = {k: n for k, n in tally.status.items() if not k.startswith("2") and k != "503"}
    print(f"{label}: {rate:,.0f} requests/s answered 2xx in {seconds:g} s, {connections} connections", end="")
    print(f" (answers after it, not counted, for {elapsed - seconds:.1f} s more)")
    print(f"  latency p50 {pct(everything, 0.5):.1f} ms, p99 {pct(everything, 0.99):.1f} ms")
    for kind, group in sorted(tally.latency.items()) if len(tally.latency) > 1 else ():
        print(f"    {kind:8} {len(group):>8,} answers, p50 {pct(group, 0.5):7.1f} ms, p99 {pct(group, 0.99):7.1f} ms")
    shed = f"shed (503) {tally.status['503']}" + (f", Retry-After {dict(tally.retry_after)}" * bool(tally.retry_after))
    print(f"  errors {sum(errors.values())}{f' {errors}' if errors else ''} (target 0); {shed}")
    print(
        f"  healthz p50 {pct(health, 0.5):.1f} ms, p99 {pct(health, 0.99):.1f} ms, max {pct(health, 1.0):.1f} ms"
        f" ({len(health)} probes, failed {failed or 0}; target p99 < {TARGET_HEALTHZ_P99_MS:.0f} ms)"
    )
    print(f"  CPU: server {served:.1f} s ({served / elapsed:.2f} cores), ", end="")
    print(f"load generator and prober {own_cpu:.1f} s ({own_cpu / elapsed:.2f} cores)")
    return Figures(rate, pct(health, 0.99))


def main() -> None:
    """Start the server, check the bodies, run the two phases and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase (default 60)")
    parser.add_argument("--connections", type=int, default=50, help="keep-alive connections (default 50)")
    parser.add_argument("--workers", type=int, help="passed to `deckcheck serve --workers` when given")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.seconds:g} s a phase")
    data = load_data()
    # More garbage bodies than a phase can send (the server answers about 1,000 a second, a quarter of them garbage):
    # no mistyped name is sent twice, so every suggestion is searched, never served from the cache.
    garbage = int(400 * args.seconds)
    kinds = bodies(data, legal=2000, faulty=1000, garbage=garbage)
    with serve(args.workers) as server:
        head = f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        encoded = {
            k: [(k, f"{head}Content-Length: {len(b)}\r\n\r\n".encode() + b) for b in v] for k, v in kinds.items()
        }
        check_bodies(server.port, kinds)
        # Half legal, a quarter illegal, a quarter garbage: the legal and illegal bodies recur, the garbage ones not.
        legal_share = list(itertools.islice(itertools.cycle(encoded["legal"]), 2 * garbage))
        mixed = legal_share + list(itertools.islice(itertools.cycle(encoded["illegal"]), garbage)) + encoded["garbage"]
        random.Random(2008).shuffle(mixed)
        print(f"bodies: {', '.join(f'{len(v):,} {k}' for k, v in kinds.items())}; samples answer as expected")
        warm = encoded["legal"] + encoded["illegal"]
        phase(server, "warm-up (not a figure)", warm, min(3.0, args.seconds), args.connections)
        legal = phase(server, "legal", encoded["legal"], args.seconds, args.connections).rate
        mixed_rate = phase(server, "mixed", mixed, args.seconds, args.connections).rate
        print(f"ratio mixed/legal requests/s: {mixed_rate / legal:.2f} (target ≥ {TARGET_RATIO})")
        if server.errors():
            print("server log errors:", *server.errors()[:10], sep="\n  ")


if __name__ == "__main__":
    main()
