"""The hot routes answered directly (api/direct.py) answer every request byte for byte as their declared FastAPI
routes do: the plain ones their endpoints answer without FastAPI's dependency solving, and every other (a query
string, another content type, a body that is not JSON or not a request, a passcode the path does not take, a body
whose reading failed) left to FastAPI with its body as read."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, NamedTuple

import orjson
import pytest
from fastapi import FastAPI
from starlette.types import Message, Receive, Scope, Send

from deckcheck.api import create_app
from deckcheck.api.direct import Direct, DirectRoute
from deckcheck.config import load_settings
from tests.decks import EXTRA, MAIN_40, SIDE, request, ydke

JSON = [(b"content-type", b"application/json")]
LEGAL = orjson.dumps({"ydke": ydke(MAIN_40, EXTRA, SIDE), "date": "2008-06-01"})
PRIOR = orjson.dumps(request(prior={"main_deck_too_small": 1}, main=MAIN_40[:-1]))
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


class Asked(NamedTuple):
    """A request: its method, path, query, headers and body (None for none), and whether a Direct route answers it
    itself."""

    method: str
    path: str
    query: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes | None
    plain: bool


CASES = [
    Asked("POST", "/v1/validate", b"", JSON, LEGAL, True),
    Asked("POST", "/v1/validate", b"", [*JSON, (b"accept-language", b"ja, en;q=0.5")], LEGAL, True),
    Asked("POST", "/v1/validate", b"", [(b"content-type", b"application/json; charset=utf-8")], LEGAL, True),
    Asked("POST", "/v1/validate", b"", JSON, orjson.dumps(request(main=MAIN_40[:-1])), True),  # 39 cards: illegal
    Asked("POST", "/v1/validate", b"", JSON, PRIOR, True),
    Asked("POST", "/v1/validate", b"", JSON, orjson.dumps({"text": "3 Pot of Greed\n", "date": "2008-06-01"}), True),
    Asked("POST", "/v1/validate", b"lang=ja", JSON, LEGAL, False),  # an unknown query parameter: 422
    Asked("POST", "/v1/validate", b"", [(b"content-type", b"text/plain")], LEGAL, False),
    Asked("POST", "/v1/validate", b"", [(b"content-type", b"application/vnd.deck+json")], LEGAL, False),
    Asked("POST", "/v1/validate", b"", [], LEGAL, False),  # no content type: FastAPI reads it as JSON
    Asked("POST", "/v1/validate", b"", JSON, b'{"ydke": ', False),
    Asked("POST", "/v1/validate", b"", JSON, b"", False),
    Asked("POST", "/v1/validate", b"", JSON, b"[1, 2]", False),
    Asked("POST", "/v1/validate", b"", JSON, b'{"ydke": "ydke://!!!", "date": "2008-06-01", "deck": 1}', False),
    Asked("POST", "/v1/validate", b"", JSON, b'{"date": NaN}', False),
    Asked("POST", "/v1/validate", b"", JSON, b"[" * 100_000 + b"]" * 100_000, False),  # past the parser's depth
    Asked("GET", "/v1/cards/55144522", b"", [], None, True),
    Asked("GET", "/v1/cards/1", b"", [], None, True),  # no such card: 404
    Asked("GET", "/v1/cards/0055144522", b"", [], None, False),  # ten digits: the path's pattern refuses it
    Asked("GET", "/v1/cards/pot", b"", [], None, False),
    Asked("GET", "/v1/cards/55144522", b"x=1", [], None, False),
    Asked("HEAD", "/v1/cards/55144522", b"", [], None, True),
    Asked("GET", "/healthz", b"", [], None, True),
    Asked("HEAD", "/healthz", b"", [], None, True),
    Asked("GET", "/healthz", b"verbose=1", [], None, False),
]


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(load_settings())


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each request a Direct route took while the test ran, whether it answered it itself (or left it)."""
    taken: list[bool] = []
    answer, leave = DirectRoute.__call__, DirectRoute._leave

    async def answering(self: DirectRoute, scope: Scope, receive: Receive, send: Send) -> None:
        taken.append(True)
        await answer(self, scope, receive, send)

    async def left(self: DirectRoute, scope: Scope, receive: Receive, send: Send) -> None:
        taken[-1] = False
        await leave(self, scope, receive, send)

    monkeypatch.setattr(DirectRoute, "__call__", answering)
    monkeypatch.setattr(DirectRoute, "_leave", left)
    return taken


@pytest.mark.parametrize("asked", CASES)
def test_a_request_is_answered_as_its_declared_route_answers_it(
    app: FastAPI, answered: list[bool], asked: Asked
) -> None:
    messages: list[Message] = []
    if asked.body is not None:
        messages.append({"type": "http.request", "body": asked.body, "more_body": False})
    direct = asyncio.run(_call(app, asked, messages))
    assert answered == ([asked.plain] if not asked.query else [])  # a query string is not theirs to take
    declared = asyncio.run(_call(app, asked, messages, direct_routes=False))
    assert direct == declared
    assert direct[0] != 500


@pytest.mark.parametrize(
    "messages",
    [
        [{"type": "http.disconnect"}],  # the client left before its body came
        [{"type": "http.request", "body": LEGAL[:20], "more_body": True}, {"type": "http.disconnect"}],
    ],
)
def test_a_body_whose_reading_failed_is_answered_as_the_declared_route_answers_it(
    app: FastAPI, messages: list[Message]
) -> None:
    asked = Asked("POST", "/v1/validate", b"", JSON, None, plain=False)
    direct = asyncio.run(_call(app, asked, messages))
    declared = asyncio.run(_call(app, asked, messages, direct_routes=False))
    assert direct == declared


def test_the_direct_routes_are_the_innermost_layers_and_hidden_from_the_openapi_document(app: FastAPI) -> None:
    """Inside every bound of the service (the limits, the gate, the request's id) and outside FastAPI's own routing."""
    assert type(_layers(app)[-1]).__name__ == "ExceptionMiddleware"  # FastAPI's, around its routing
    assert isinstance(_layers(app)[-2], Direct)
    assert type(_layers(app)[-3]).__name__ == "RequestLimits"
    assert sorted(route.declared.path_format for route in _direct(app).routes) == [
        "/healthz",
        "/v1/cards/{passcode}",
        "/v1/validate",
    ]
    assert "/v1/validate" in app.openapi()["paths"]  # the declared routes', which stay where they were


def _layers(app: FastAPI) -> list[Any]:
    """The app's layers from the outside in, down to FastAPI's ExceptionMiddleware, once built."""
    if app.middleware_stack is None:
        app.middleware_stack = app.build_middleware_stack()
    layers: list[Any] = []
    layer: Any = app.middleware_stack
    while not layers or type(layers[-1]).__name__ != "ExceptionMiddleware":
        layers.append(layer)
        layer = layer.app
    return layers


def _direct(app: FastAPI) -> Direct:
    return next(layer for layer in _layers(app) if isinstance(layer, Direct))


async def _call(app: FastAPI, asked: Asked, messages: Sequence[Message], *, direct_routes: bool = True) -> Answer:
    """`app`'s answer to one request, its Direct routes taken out for the call unless `direct_routes`."""
    direct = _direct(app)
    kept = list(direct.routes)
    if not direct_routes:
        direct.routes[:] = []
    given = list(messages)
    status, head, body = 0, [], b""

    async def receive() -> Message:
        if given:
            return given.pop(0)
        await asyncio.sleep(3600)  # the client waits for its answer
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        nonlocal status, head, body
        if message["type"] == "http.response.start":
            status, head = message["status"], list(message["headers"])
        else:
            body += message.get("body", b"")

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": asked.method,
        "scheme": "http",
        "path": asked.path,
        "raw_path": asked.path.encode(),
        "query_string": asked.query,
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"x-request-id", b"direct-or-declared"), *asked.headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    try:
        await app(scope, receive, send)
    finally:
        direct.routes[:] = kept
    return status, head, body
