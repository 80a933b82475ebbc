"""The shape of the routes: every route's handler is a function of its module, on the module's own router, and what
an app's routes share lives with the app (api/app_state.py), so two apps made in one process keep apart."""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute

from deckcheck.api import create_app, pages
from deckcheck.api.factory import API_ROUTERS
from deckcheck.config import Settings
from tests import served

ROUTERS = (*API_ROUTERS, pages.router)


def module_level(endpoint: Callable[..., Any]) -> bool:
    """Whether `endpoint` is a function defined at the top of its module, found there by its name."""
    module = sys.modules[endpoint.__module__]
    return "<locals>" not in endpoint.__qualname__ and getattr(module, endpoint.__name__, None) is endpoint


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return create_app(Settings(updates_dir=tmp_path_factory.mktemp("updates")))


def test_every_route_is_a_function_of_its_module_on_its_modules_router() -> None:
    routes = [route for router in ROUTERS for route in router.routes]
    assert [route for route in routes if not isinstance(route, APIRoute)] == []
    assert [route.path for route in routes if isinstance(route, APIRoute) and not module_level(route.endpoint)] == []


def test_the_apps_operations_are_those_of_the_modules_routers(app: FastAPI) -> None:
    document = app.openapi()
    operations = [
        (method.upper(), path, op["operationId"])
        for path, item in document["paths"].items()
        for method, op in item.items()
    ]
    routed = [
        (method, route.path, route.operation_id)
        for router in API_ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute) and route.include_in_schema
        for method in route.methods or ()
    ]
    assert sorted(operations) == sorted(routed)
    # Where the app holds copies of the routes it includes, each copy's handler is still its module's function.
    assert [r.path for r in app.routes if isinstance(r, APIRoute) and not module_level(r.endpoint)] == []


@contextmanager
def check_held(url: str) -> Iterator[None]:
    """A POST /v1/validate whose head has come and whose body has not: admitted by its head, it holds a place among
    the checks of the server at `url` until the connection closes."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as sock:
        head = "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        sock.sendall(head.encode() + b"{")
        yield


def readiness(url: str) -> tuple[int, str | None, list[str]]:
    answer = httpx.get(f"{url}/readyz")
    return answer.status_code, answer.headers.get("Retry-After"), answer.json()["reasons"]


def test_two_apps_in_one_process_keep_their_own_state(tmp_path: Path) -> None:
    for name in ("calm", "busy"):
        (tmp_path / name).mkdir()
    calm = Settings(updates_dir=tmp_path / "calm", updates_poll=0)
    busy = Settings(
        updates_dir=tmp_path / "busy", updates_poll=5, check_threads=1, max_waiting=0, retry_after=7, body_timeout=60
    )
    with served.serving_app(create_app(calm), calm) as first, served.serving_app(create_app(busy), busy) as second:
        watched = [httpx.get(f"{url}/healthz").json() for url in (first, second)]
        assert [(health["updates_dir"], health["updates_poll_seconds"]) for health in watched] == [
            (str(tmp_path / "calm"), 0.0),
            (str(tmp_path / "busy"), 5.0),
        ]
        with check_held(second):
            deadline = time.monotonic() + 30
            while readiness(second)[0] == 200 and time.monotonic() < deadline:
                time.sleep(0.02)
            # The second app's one check thread is taken: it is saturated and asks for its own Retry-After; the
            # first, whose admission is its own, is ready.
            assert [readiness(second), readiness(first)] == [(503, "7", ["saturated"]), (200, None, [])]
        for url in (first, second):
            assert httpx.get(f"{url}/docs").status_code == 200
