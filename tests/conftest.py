"""Shared fixtures: the bundled data, loaded once, and a real server for the HTTP tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import httpx
import pytest

from deckcheck import Data, load_data
from deckcheck.api import create_app
from deckcheck.config import load_settings
from tests import served
from tests.postgres import PostgresServer, find_binaries

# The Hypothesis profiles, registered before any test module is collected.
pytest_plugins = ["tests.profiles"]

_HOME = tempfile.mkdtemp(prefix="deckcheck-tests-home-")


def pytest_configure(config: pytest.Config) -> None:
    """The user's data and state folders (the default updates folder and the services' records, data/watchers.py)
    in a folder of the run's own, for every test and every server it starts: never the updates of whoever runs the
    tests."""
    os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
    os.environ["XDG_STATE_HOME"] = os.path.join(_HOME, "state")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_HOME, ignore_errors=True)


# The markers of files whose tests take seconds each: processes of their own, browsers, builds, long properties.
HEAVY = ("server", "browser", "packaging", "slow")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold a heavy test first, each file's tests in their order: with one file to a process
    (`--dist loadfile --no-loadscope-reorder`, scripts/check), the run ends on short files rather than with one
    process alone on a long one while the other waits."""
    heavy = {item.path for item in items if any(next(item.iter_markers(name), None) for name in HEAVY)}
    items.sort(key=lambda item: item.path not in heavy)


@pytest.fixture(scope="session")
def data() -> Data:
    """The bundled card data and banlists."""
    return load_data()


@pytest.fixture
def free_port() -> int:
    """A loopback port no one listens on, for a server a test starts itself."""
    return served.free_port()


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """A uvicorn server on a free loopback port, serving the app as `deckcheck serve` does."""
    settings = load_settings()
    with served.serving_app(create_app(settings), settings) as url:
        yield url


@pytest.fixture
def client(base_url: str) -> Iterator[httpx.Client]:
    """An HTTP client talking to the test server."""
    with httpx.Client(base_url=base_url, timeout=30) as http:
        yield http


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test process's own (each pytest-xdist worker starts one, on its own port), from
    Debian's postgresql package; the tests that need it skip when it is not installed."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed (bash scripts/system-deps installs it)")
    server = PostgresServer(binaries)
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer, request: pytest.FixtureRequest) -> str:
    """The SQLAlchemy URL of an empty database of the test's own on the PostgreSQL server, named after the test."""
    return postgres_server.fresh_database(request.node.name)
