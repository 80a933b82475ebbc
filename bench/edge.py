"""The web edge against its floor: `python -m bench.edge [--seconds 8] [--rounds 3] [--connections 32]
[--stacks floor,serve,uvicorn-httptools,granian]`.

Run by hand, never as a timed test: it prints requests a second and ratios, and asserts nothing about time. Each
stack serves on one core (the machine's first, by affinity, its workers and threads with it) while wrk (Debian's
`wrk`, one thread) loads it from the other, over `--connections` keep-alive connections, for `--seconds` a route:

- floor: a bare FastAPI app (`floor_app` below) on uvicorn with httptools and uvloop, whose sync routes do the
  least each request asks for: POST /v1/validate parses `{"ydke", "date"}` with pydantic and answers `{}`, GET
  /v1/cards/{passcode} takes an int and answers `{}`, GET /healthz answers `{}`;
- serve: `deckcheck serve` as shipped, one worker (bench/server.py);
- uvicorn-httptools: the same app (deckcheck.api.factory:create_app) on plain uvicorn with httptools and uvloop;
- granian: the same app on granian, when it is installed.

The routes are loaded with what a deck-builder site sends: the same legal deck of bench.corpus's as a ydke link
(40 main, 15 extra: 55 cards) with the event's day, Pot of Greed's passcode, and /healthz. The stacks take turns
within each round (floor, serve, …, then again), so that a slow moment of the shared machine falls on all of them;
each figure is the median of the rounds, and each ratio the median of the rounds' ratios to the floor's figure of
the same round. Answers other than 2xx are counted and printed: a stack that refuses is not fast.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
from fastapi import FastAPI
from pydantic import BaseModel

from bench.corpus import Corpus
from bench.server import stop
from deckcheck import load_data

DAY = "2008-06-01"
POT_OF_GREED = 55144522
ROOT = Path(__file__).resolve().parent.parent
STACKS = ("floor", "serve", "uvicorn-httptools", "granian")
ROUTES = ("validate", "card", "healthz")
SERVER_CORE = 0


class _Deck(BaseModel):
    ydke: str
    date: str


def floor_app() -> FastAPI:
    """The floor: FastAPI with nothing around its routes, which do the least their requests ask for."""
    app = FastAPI()

    @app.post("/v1/validate")
    def validate(body: _Deck) -> dict[str, Any]:
        return {}

    @app.get("/v1/cards/{passcode}")
    def card(passcode: int) -> dict[str, Any]:
        return {}

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {}

    return app


@dataclass(frozen=True)
class Load:
    """What wrk sends to one route: its path, and the body of a POST."""

    path: str
    body: bytes | None = None


def loads() -> dict[str, Load]:
    """The three routes' requests: a legal 55-card ydke deck, Pot of Greed, /healthz."""
    data = load_data()
    deck = next(d for d in Corpus(data).decks(200) if d.made_legal and len(d.main) == 40 and len(d.extra) == 15)
    body = orjson.dumps({"ydke": deck.ydke(), "date": DAY})
    return {
        "validate": Load("/v1/validate", body),
        "card": Load(f"/v1/cards/{POT_OF_GREED}"),
        "healthz": Load("/healthz"),
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(stack: str, port: int) -> list[str]:
    host = ["--host", "127.0.0.1", "--port", str(port)]
    if stack == "floor":
        uvicorn = [sys.executable, "-m", "uvicorn", "--factory", "--http", "httptools", "--loop", "uvloop"]
        return [*uvicorn, *host, "--no-access-log", "--log-level", "warning", "bench.edge:floor_app"]
    if stack == "serve":
        command = shutil.which("deckcheck", path=str(Path(sys.executable).parent)) or "deckcheck"
        return [command, "serve", *host]
    if stack == "uvicorn-httptools":
        uvicorn = [sys.executable, "-m", "uvicorn", "--factory", "--http", "httptools", "--loop", "uvloop"]
        return [*uvicorn, *host, "--no-access-log", "--log-level", "warning", "deckcheck.api.factory:create_app"]
    granian = [sys.executable, "-m", "granian", "--interface", "asgi", "--factory", "--workers", "1"]
    return [*granian, "--runtime-threads", "1", "--loop", "uvloop", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "warning", "deckcheck.api.factory:create_app"]  # fmt: skip


@contextmanager
def pinned(cores: set[int]) -> Iterator[None]:
    """This process on `cores` while the block runs: what it starts meanwhile stays there."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cores)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


@contextmanager
def running(stack: str, env: dict[str, str]) -> Iterator[int]:
    """The stack serving on the server's core, on a free port, until the block ends; its port."""
    port = _free_port()
    with tempfile.TemporaryFile() as log:
        with pinned({SERVER_CORE}):
            process = subprocess.Popen(
                _command(stack, port), cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
            )
        try:
            _wait(process, port, log)
            yield port
        finally:
            stop(process)


def _wait(process: subprocess.Popen[bytes], port: int, log: Any) -> None:
    deadline = time.monotonic() + 90
    while process.poll() is None and time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    log.seek(0)
    raise RuntimeError(f"the stack did not start (exit code {process.poll()}):\n{log.read()[-2000:].decode()}")


def wrk(port: int, load: Load, seconds: float, connections: int) -> tuple[float, int]:
    """Requests a second wrk measured on one route, and how many answers were not 2xx or 3xx."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        if load.body is not None:
            body = load.body.decode().replace("\\", "\\\\").replace('"', '\\"')
            script.write(f'wrk.method = "POST"\nwrk.body = "{body}"\n')
            script.write('wrk.headers["Content-Type"] = "application/json"\n')
        script.flush()
        command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", "-s", script.name]
        with pinned(set(os.sched_getaffinity(0)) - {SERVER_CORE} or {SERVER_CORE}):
            url = f"http://127.0.0.1:{port}{load.path}"
            done = subprocess.run([*command, url], capture_output=True, text=True, check=False)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout)
    if rate is None:
        raise RuntimeError(f"wrk said nothing of the rate:\n{done.stdout}\n{done.stderr}")
    refused = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", done.stdout)
    return float(rate.group(1)), int(refused.group(1)) if refused else 0


def check(port: int, load: Load) -> None:
    """The route answers 200 on this stack (a stack that answers an error fast proves nothing)."""
    url = f"http://127.0.0.1:{port}{load.path}"
    headers = {"Content-Type": "application/json"}
    answer = httpx.post(url, content=load.body, headers=headers) if load.body else httpx.get(url)
    if answer.status_code != 200:
        raise RuntimeError(f"{load.path} answered {answer.status_code}: {answer.text[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--stacks", default=",".join(STACKS))
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench.edge needs wrk: apt-get install -y wrk")
    if len(os.sched_getaffinity(0)) < 2:
        sys.exit("bench.edge needs two cores: one for the server, one for wrk")
    stacks = [s for s in args.stacks.split(",") if s != "granian" or importlib.util.find_spec("granian")]
    if "floor" not in stacks:
        sys.exit("bench.edge measures against the floor: keep it in --stacks")
    routes = loads()
    with tempfile.TemporaryDirectory(prefix="deckcheck-updates-") as empty:
        env = {**os.environ, "DECKCHECK_UPDATES_DIR": empty, "PYTHONPATH": str(ROOT)}
        rates = _measure(stacks, routes, env, args)
    _report(stacks, rates, args)


def _measure(
    stacks: list[str], routes: dict[str, Load], env: dict[str, str], args: argparse.Namespace
) -> dict[tuple[str, str], list[tuple[float, int]]]:
    rates: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for round_ in range(1, args.rounds + 1):
        for stack in stacks:
            with running(stack, env) as port:
                for route, load in routes.items():
                    check(port, load)
                    wrk(port, load, 2, args.connections)  # warm: the first requests build caches
                    measured = wrk(port, load, args.seconds, args.connections)
                    rates.setdefault((stack, route), []).append(measured)
                    print(f"round {round_}  {stack:<18} {route:<9} {measured[0]:>9,.0f} req/s", flush=True)
    return rates


def _report(stacks: list[str], rates: dict[tuple[str, str], list[tuple[float, int]]], args: argparse.Namespace) -> None:
    print(f"\nreq/s, median of {args.rounds} rounds; wrk 1 thread, {args.connections} connections, {args.seconds:g} s")
    print(f"{'stack':<20}" + "".join(f"{route:>12}{'× floor':>9}" for route in ROUTES) + f"{'not 2xx':>9}")
    for stack in stacks:
        cells = ""
        for route in ROUTES:
            ours = [rate for rate, _ in rates[stack, route]]
            floor = [rate for rate, _ in rates["floor", route]]
            ratio = statistics.median(o / f for o, f in zip(ours, floor, strict=True))
            cells += f"{statistics.median(ours):>12,.0f}{ratio:>9.2f}"
        refused = sum(n for route in ROUTES for _, n in rates[stack, route])
        print(f"{stack:<20}{cells}{refused:>9,}")


if __name__ == "__main__":
    main()
