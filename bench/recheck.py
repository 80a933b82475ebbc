"""Benchmark the engine, the HTTP layer and batch rechecks: `python -m bench.recheck [--quick]`.

Run by hand, never as a timed test; the figures go in the README. Prints, in one run:
1. engine decks/s on one core (legal decks, illegal decks, and the corpus mix);
2. /v1/validate requests/s against a no-op endpoint that parses the same body in the same server, and the ratio;
3. `deckcheck recheck` over 100k and 1M corpus decks with 2 workers: time and peak RSS.
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
from deckcheck.wire import ValidateRequest

EVENT = dt.date(2008, 6, 1)


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


def recheck(count: int, workers: int, folder: Path) -> None:
    """`deckcheck recheck` over `count` corpus decks: wall time and the peak RSS of the command."""
    corpus = folder / f"corpus-{count}.ndjson"
    if not corpus.exists():
        with corpus.open("wb") as f:
            for deck in Corpus(load_data()).decks(count):
                f.write(deck.line() + b"\n")
    out = folder / "results.ndjson"
    args = ["recheck", "--date", "2008-09-01", "--previous", "ocg-2008-03-01", "--workers", str(workers)]
    code = (
        "import resource, sys; from deckcheck.cli import run; "
        f"rc = run({[*args, '--out', str(out), str(corpus)]!r}, sys.stdout, open('/dev/null', 'w')); "
        "print(max(resource.getrusage(w).ru_maxrss for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))"
    )
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    summary: dict[str, Any] = orjson.loads(out.read_bytes().rsplit(b"\n", 2)[-2])["summary"]
    peak_mb = int(done.stdout.split()[-1]) / 1024
    print(
        f"  recheck {count:>9,} decks, {workers} workers: {seconds:6.1f} s ({count / seconds:,.0f} decks/s), "
        f"peak RSS {peak_mb:,.0f} MB; legal {summary['legal']:,}, illegal {summary['illegal']:,}, "
        f"newly illegal {summary['newly_illegal']['count']:,}"
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
        for count in (10_000, 100_000) if args.quick else (100_000, 1_000_000):
            recheck(count, 2, Path(tmp))


if __name__ == "__main__":
    main()
