"""Where a request's time goes in the app, layer by layer: `python -m bench.edge_layers [--requests 3000]`.

Run by hand, never as a timed test. It builds the app as `deckcheck serve` does (deckcheck.api.factory.create_app) and
calls it as an ASGI server would, one request at a time and no network, with the three requests bench.edge sends (a
legal 55-card ydke deck to POST /v1/validate, GET /v1/cards/{passcode}, GET /healthz). Each layer of the middleware
stack is timed from the outside in: a layer's own time is what a request spends in it less what it spends in the layers
within, down to the router, whose time holds the routing, the dependencies, the route itself (the check, for
/v1/validate, and the hop to its thread) and the making of its answer; the three requests are answered by the Direct
layer (api/direct.py), which holds their routes, checks and answers, and never reach FastAPI's routing. The server's own
part (uvicorn's protocol, the socket) is what bench.edge measures beyond the total printed here: one core's second over
its requests a second, less this.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.routing import Router

from bench.edge import loads
from deckcheck.api.factory import create_app
from deckcheck.api.middleware.admission import HEAD_READ
from deckcheck.api.middleware.limits import BODY_READ
from deckcheck.config import load_settings

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]


class Timed:
    """An ASGI app wrapped to add up the time requests spend in it."""

    def __init__(self, inner: ASGI) -> None:
        self.inner = inner
        self.seconds = 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        try:
            await self.inner(scope, receive, send)
        finally:
            self.seconds += time.perf_counter() - start


def _wrap_layers(stack: Any) -> list[tuple[str, Timed]]:
    """Each layer of the stack from the outside in, the whole stack first, each timed by a wrapper of its own."""
    layers = [(type(stack).__name__, Timed(stack))]
    node = stack
    while hasattr(node, "app") and not isinstance(node, Router):
        inner = node.app
        timed = Timed(inner)
        node.app = timed
        layers.append((type(inner).__name__, timed))
        node = inner
    return layers


def _scope(method: str, path: str, body: bytes | None) -> Scope:
    headers = [(b"host", b"127.0.0.1"), (b"user-agent", b"bench.edge_layers")]
    if body is not None:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
        # As `deckcheck serve`'s protocol tells the app of a request read whole at once (api/server.py).
        "extensions": {HEAD_READ: {"at": time.monotonic()}, BODY_READ: {}},
    }


async def _request(app: ASGI, method: str, path: str, body: bytes | None) -> int:
    """One request through `app`; its status."""
    sent = [{"type": "http.request", "body": body or b"", "more_body": False}]
    status = 0

    async def receive() -> dict[str, Any]:
        if sent:
            return sent.pop()
        await asyncio.sleep(3600)  # the client keeps the connection open: no disconnect
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(_scope(method, path, body), receive, send)
    return status


async def _run(requests: int) -> None:
    with tempfile.TemporaryDirectory(prefix="deckcheck-updates-") as empty:
        os.environ["DECKCHECK_UPDATES_DIR"] = empty  # the bundled data alone, never those of whoever runs it
        app: Any = create_app(load_settings())
    layers = _wrap_layers(app.build_middleware_stack())
    app.middleware_stack = layers[0][1]  # the app itself is called, as a server does: it puts itself in the scope
    print(f"µs a request, in-process, median of 3 runs of {requests:,}; the layers from the outside in")
    for name, load in loads().items():
        method = "POST" if load.body is not None else "GET"
        runs: list[list[float]] = []
        for _run_number in range(4):  # the first warms the caches and is not counted
            for _, timed in layers:
                timed.seconds = 0.0
            for _ in range(requests):
                status = await _request(app, method, load.path, load.body)
                assert status == 200, (load.path, status)
            runs.append([timed.seconds / requests * 1e6 for _, timed in layers])
        median = [statistics.median(run[i] for run in runs[1:]) for i in range(len(runs[0]))]
        _print(name, [n for n, _ in layers], median)


# What the time of the innermost layers holds: the hot routes are answered by Direct (api/direct.py), every other
# request by FastAPI's routing below it.
_LABELS = {
    "Direct": "Direct: a hot route, its check and its answer",
    "APIRouter": "APIRouter: routing, dependencies, the route and its answer",
}


def _print(route: str, names: list[str], inclusive: list[float]) -> None:
    print(f"\n{route}: {inclusive[0]:.0f} µs in all")
    for index, name in enumerate(names):
        within = inclusive[index + 1] if index + 1 < len(inclusive) else 0.0
        label = _LABELS.get(name, name) if index + 1 == len(names) or name == "Direct" else name
        print(f"  {label:<62}{inclusive[index] - within:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=3000)
    asyncio.run(_run(parser.parse_args().requests))


if __name__ == "__main__":
    main()
