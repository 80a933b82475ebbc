"""Shared fixtures: the bundled data, loaded once, and a real server for the HTTP tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from deckcheck import Data, load_data
from deckcheck.api import create_app


@pytest.fixture(scope="session")
def data() -> Data:
    """The bundled card data and banlists."""
    return load_data()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def free_port() -> int:
    """A loopback port no one listens on, for a server a test starts itself."""
    return _free_port()


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """A uvicorn server on a free loopback port, serving the app as `uvicorn deckcheck.app:app` does."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def client(base_url: str) -> Iterator[httpx.Client]:
    """An HTTP client talking to the test server."""
    with httpx.Client(base_url=base_url, timeout=30) as http:
        yield http
