"""Benchmark the engine, the HTTP layer and batch rechecks: `python -m bench.recheck [--quick]`.

Run by hand, never as a timed test; the figures go in docs/benchmarks.md. Prints, in one run:
1. engine decks/s on one core (legal decks, illegal decks, and the corpus mix);
2. /v1/validate requests/s against a no-op endpoint that parses the same body in the same server, and the ratio;
3. `deckcheck recheck` over 100k and 1M corpus decks (2008-09-01 with --previous ocg-2008-03-01) with 2 workers:
   time and peak RSS of the command and its workers;
4. the same 1M decks from Parquet on a Dask LocalCluster of 2 worker processes, `deckcheck recheck --dask local:2`,
   and its ratio to the CLI's time;
5. POST /v1/rechecks of 100k decks over HTTP (one server process, results held) beside `deckcheck recheck` of the
   same decks with one worker, and the ratio.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from fastapi import FastAPI
from fastapi.responses import Response

from bench.corpus import Corpus
from deckcheck import Context, load_data, validate
from deckcheck.api import create_app
from deckcheck.formats import parse_ydke
from deckcheck.wire.requests import ValidateRequest

EVENT = dt.date(2008, 6, 1)
RECHECK = ["recheck", "--date", "2008-09-01", "--previous", "ocg-2008-03-01"]
# The commands run as an install runs them: with their modules' bytecode compiled, as pip compiles a wheel's when it
# installs it. Where PYTHONDONTWRITEBYTECODE is set (some shells and images; this project's CI machine), an editable
# install's every command would compile the modules it imports again: 0.7-1 s a command on the 2-core VM.
INSTALLED = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def engine(count: int) -> None:
    """Decks per second through `validate`, on pre-parsed decks, one core."""
    data = load_data()
    context = Context(EVENT, data.banlists.in_force(EVENT), data.cards)
    decks = [parse_ydke(d.ydke()) for d in Corpus(data).decks(count)]
    legal = [d for d in decks if validate(d, context).legal]
    illegal = [d for d in decks if not validate(d, context).legal]
    for label, group in (("legal", legal), ("illegal", illegal), ("corpus mix", decks)):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for deck in group:
                validate(deck, context)
            best = min(best, time.perf_counter() - start)
        print(f"  engine, {label:10} {len(group) / best:>10,.0f} decks/s  ({len(group):,} decks)")


def bench_app() -> FastAPI:
    """The service's app plus a no-op route that parses the same body as /v1/validate and answers `{}`."""
    app = create_app()

    @app.post("/bench/noop")
    def noop(body: ValidateRequest) -> Response:
        return Response(b"{}", media_type="application/json")

    return app


def http(requests: int) -> None:
    """/v1/validate against the no-op route, in one uvicorn server process, over keep-alive from this process."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "bench.recheck:bench_app", "--factory", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        data = load_data()
        bodies = [
            orjson.dumps({"ydke": d.ydke(), "date": EVENT.isoformat()}) for d in Corpus(data, seed=7).decks(requests)
        ]
        rates: dict[str, float] = {}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
            _wait_for(client)
            for path in ("/bench/noop", "/v1/validate") * 3:
                start = time.perf_counter()
                for body in bodies:
                    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
                    assert response.status_code == 200
                rates[path] = max(rates.get(path, 0.0), requests / (time.perf_counter() - start))
    finally:
        server.terminate()
        server.wait()
    print(f"  no-op parse endpoint {rates['/bench/noop']:>10,.0f} requests/s")
    print(f"  /v1/validate         {rates['/v1/validate']:>10,.0f} requests/s")
    print(f"  ratio                {rates['/v1/validate'] / rates['/bench/noop']:>10.2f}")


def _wait_for(client: httpx.Client) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if client.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("the benchmark server did not start")


def corpus_file(count: int, folder: Path) -> Path:
    """`count` corpus decks as NDJSON lines, written once per folder."""
    corpus = folder / f"corpus-{count}.ndjson"
    if not corpus.exists():
        with corpus.open("wb") as f:
            for deck in Corpus(load_data()).decks(count):
                f.write(deck.line() + b"\n")
    return corpus


def _timed_cli(args: list[str]) -> tuple[float, str]:
    """Run `deckcheck ARGS` in a fresh process: seconds, and the peak RSS of its largest process and of the command
    and its workers together, sampled every 0.1 s from /proc. (The rusage of a child counts the memory of this
    process, which it was forked from, so it is not used.)"""
    start = time.perf_counter()
    command = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=INSTALLED
    )
    largest = total = 0
    while command.poll() is None:
        sizes = [_rss_kb(pid) for pid in _tree(command.pid)]
        largest, total = max(largest, *sizes), max(total, sum(sizes))
        time.sleep(0.1)
    seconds = time.perf_counter() - start
    if command.returncode not in (0, 1):  # 1: some deck illegal
        raise RuntimeError(f"deckcheck {' '.join(args)} ended with {command.returncode}")
    return seconds, f"peak RSS {largest / 1024:,.0f} MB the largest process, {total / 1024:,.0f} MB in all"


def _tree(pid: int) -> list[int]:
    """`pid` and every process below it."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):  # a child belongs to the thread that started it
            try:
                todo += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
    return found


def _rss_kb(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)


def recheck(count: int, workers: int, folder: Path) -> float:
    """`deckcheck recheck` over `count` corpus decks: wall time and the peak RSS of the command; the seconds."""
    corpus = corpus_file(count, folder)
    out = folder / "results.ndjson"
    seconds, peak = _timed_cli([*RECHECK, "--workers", str(workers), "--out", str(out), str(corpus)])
    summary: dict[str, Any] = orjson.loads(out.read_bytes().rsplit(b"\n", 2)[-2])["summary"]
    print(
        f"  recheck {count:>9,} decks, {workers} workers: {seconds:6.1f} s ({count / seconds:,.0f} decks/s), "
        f"{peak}; legal {summary['legal']:,}, "
        f"illegal {summary['illegal']:,}, newly illegal {summary['newly_illegal']['count']:,}"
    )
    return seconds


def dask_recheck(count: int, folder: Path, cli_seconds: float) -> None:
    """The same decks from Parquet (row groups of 100k) on a LocalCluster of 2 worker processes, started by the
    command itself, as a user runs it; the ratio to the local CLI with 2 workers."""
    import pyarrow as pa  # noqa: PLC0415 - the dask extra, only for this part
    import pyarrow.parquet as pq  # noqa: PLC0415

    store = folder / f"corpus-{count}.parquet"
    if not store.exists():  # written in slices of 100k decks, a row group each: this process stays small
        schema = pa.schema([("id", pa.string()), ("ydke", pa.string())])
        with corpus_file(count, folder).open("rb") as lines, pq.ParquetWriter(store, schema) as writer:
            while rows := [orjson.loads(line) for _, line in zip(range(100_000), lines, strict=False)]:
                writer.write_table(pa.Table.from_pylist(rows, schema=schema))
    out = folder / "dask-results"
    seconds, peak = _timed_cli([*RECHECK, "--dask", "local:2", "--out", str(out), str(store)])
    print(
        f"  dask    {count:>9,} decks, LocalCluster of 2: {seconds:6.1f} s ({count / seconds:,.0f} decks/s), "
        f"{peak}; {seconds / cli_seconds:.2f}x the CLI's time (target: within 1.5x)"
    )


def http_recheck(count: int, folder: Path) -> None:
    """POST /v1/rechecks of `count` decks to one server process (2 check threads), the results held and read whole,
    beside the CLI with one worker on the same decks."""
    corpus = corpus_file(count, folder)
    cli_seconds, _peak = _timed_cli([*RECHECK, "--workers", "1", "--out", str(folder / "one.ndjson"), str(corpus)])
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
            _wait_for(client)
            params = {"date": "2008-09-01", "previous": "ocg-2008-03-01"}
            headers = {"Content-Type": "application/x-ndjson", "Deckcheck-Hold-Results": "1"}
            start = time.perf_counter()
            with corpus.open("rb") as body:
                response = client.post("/v1/rechecks", params=params, headers=headers, content=body)
            seconds = time.perf_counter() - start
            assert response.status_code == 200, response.text
            assert response.content.count(b"\n") == count + 1
    finally:
        server.terminate()
        server.wait()
    print(
        f"  /v1/rechecks {count:,} decks: {seconds:.1f} s ({count / seconds:,.0f} decks/s); CLI with one worker "
        f"{cli_seconds:.1f} s; {seconds / cli_seconds:.2f}x the CLI's time (target: within 1.5x)"
    )


def main() -> None:
    """Run every benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller runs (10k and 100k decks)")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print("1. engine (one core)")
    engine(5_000 if args.quick else 20_000)
    print("2. HTTP")
    http(1_000 if args.quick else 3_000)
    print("3. recheck through the CLI")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sizes = (10_000, 100_000) if args.quick else (100_000, 1_000_000)
        _timed_cli([*RECHECK, "--workers", "2", "--out", os.devnull, str(corpus_file(100, folder))])  # the bytecode
        seconds = [recheck(count, 2, folder) for count in sizes]
        print("4. recheck on Dask")
        dask_recheck(sizes[-1], folder, seconds[-1])
        print("5. recheck over HTTP")
        http_recheck(sizes[0] if args.quick else 100_000, folder)


if __name__ == "__main__":
    main()
