"""A `deckcheck serve` process started as an operator would, with its settings in the environment."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn
from fastapi import FastAPI

from deckcheck.api.server import server_options
from deckcheck.config import Settings


def free_port() -> int:
    """A loopback port no one listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving_app(app: FastAPI, settings: Settings) -> Iterator[str]:
    """`app` served by uvicorn in a thread on a free loopback port, with the options `deckcheck serve` takes from
    `settings`; its URL."""
    port = free_port()
    options = server_options(settings) | {"log_level": "warning"}
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@dataclass(frozen=True, slots=True)
class Served:
    """A running server: its address, process and the file its stderr (the access log) goes to."""

    url: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def log_lines(self) -> list[str]:
        """What the server has written to stderr so far."""
        return self.log.read_text(encoding="utf-8").splitlines()

    def logged(self, logger: str | None = None) -> list[dict[str, Any]]:
        """The whole lines the server has logged so far, each a JSON object (deckcheck/logs.py); those of `logger`
        alone when it is given. A line that is not JSON fails the test here."""
        *whole, _being_written = self.log.read_text(encoding="utf-8").split("\n")
        lines = [orjson.loads(line) for line in whole]
        return [line for line in lines if logger is None or line["logger"] == logger]


def wait_until_healthy(url: str, process: subprocess.Popen[Any]) -> bool:
    """Wait (up to a minute) until the server at `url` answers /healthz; False if its process ended first."""
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/healthz", timeout=1).raise_for_status()
            return True
        except httpx.TransportError:
            time.sleep(0.1)
    return False


@contextmanager
def serving(log: Path, env: Mapping[str, str], *args: str) -> Iterator[Served]:
    """`deckcheck serve` on a free loopback port with `env` added to the environment; stopped on exit."""
    port = free_port()
    argv = [sys.executable, "-m", "deckcheck", "serve", "--host", "127.0.0.1", "--port", str(port), *args]
    with log.open("wb") as sink:
        process = subprocess.Popen(argv, env={**os.environ, **env}, stderr=sink)
    url = f"http://127.0.0.1:{port}"
    try:
        if not wait_until_healthy(url, process):
            raise RuntimeError(f"the server did not start: {log.read_text(encoding='utf-8')}")
        yield Served(url, port, process, log)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
