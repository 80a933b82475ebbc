"""One tree of errors: every exception class deckcheck defines derives from `deckcheck.errors.Error` through one
kind and from no builtin but Exception, the core raises none with an HTTP status, and the API's one table answers
every kind."""

from __future__ import annotations

import ast
import asyncio
import importlib
from collections.abc import Iterator
from http import HTTPStatus

import httpx
from fastapi import FastAPI

from deckcheck.api.problems import STATUSES, install_error_handlers, status_of
from deckcheck.errors import (
    KINDS,
    BrokenData,
    Error,
    InvalidInput,
    NotAnImage,
    NotFound,
    PaperError,
    PaperTimedOut,
    PaperUnavailable,
    PaperUnreadable,
    RequestError,
    TimedOut,
    TooLarge,
    Unavailable,
)
from tests.modules import MODULES

# Control flow that never reaches a caller as an error: a usage error turned into exit 2 by the parser's own run(),
# a line of a recheck answered as an error line, a line the fast path hands to the models, a body over the limit
# answered 413 by the middleware that raised it, and a client gone before its work ran or its body came, which no
# one is answered for.
PRIVATE = {
    "deckcheck.cli.main._Usage",
    "deckcheck.batch.recheck._LineError",
    "deckcheck.batch.quick._NotPlain",
    "deckcheck.api.middleware.limits._TooLarge",
    "deckcheck.api.middleware.admission.ClientGone",
    "deckcheck.api.recheck_io.Disconnected",
}
# The client's one error: an answer of the service, whose meaning is the status it carries (the service already
# turned a kind into it). It stays apart so that the client needs nothing of the service's package beside the wire.
APART = {"deckcheck.client.common.DeckcheckError"}
# Roots of a family whose every member derives from one kind: catch the family, answer the kind.
FAMILIES = {PaperError}
# The only builtins an error of the tree derives from: one that also were a ValueError or a RuntimeError would be
# caught by an `except ValueError` meant for int() or json, and a caller would catch the builtin, not the kind.
ROOTS = {Exception, BaseException, object}


def _exception_classes() -> Iterator[tuple[str, type[BaseException]]]:
    """Every exception class defined at the top of a module of the package, by its dotted name. Only modules that
    define a class are imported (never deckcheck.app, which builds an app)."""
    for dotted, path in MODULES.items():
        names = [n.name for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.ClassDef)]
        if not names:
            continue
        module = importlib.import_module(dotted)
        for name in names:
            found = getattr(module, name)
            if isinstance(found, type) and issubclass(found, BaseException):
                yield f"{module.__name__}.{name}", found


def _strays(classes: dict[str, type[BaseException]]) -> dict[str, str]:
    """The classes that break the tree, each with why."""
    strays = {}
    for name, cls in classes.items():
        kinds = [kind.__name__ for kind in KINDS if issubclass(cls, kind)]
        if name in PRIVATE | APART:
            if issubclass(cls, Error):
                strays[name] = "allowed outside the tree, and in it"
        elif not issubclass(cls, Error):
            strays[name] = "not a deckcheck.errors.Error"
        elif builtins := [base.__name__ for base in cls.__mro__ if base.__module__ == "builtins" and base not in ROOTS]:
            strays[name] = f"mixes in the builtin {', '.join(builtins)}"
        elif cls in FAMILIES or cls is Error or cls in KINDS:
            if kinds != ([cls.__name__] if cls in KINDS else []):
                strays[name] = f"a root of the tree deriving from {kinds}"
        elif len(kinds) != 1:
            strays[name] = f"of {len(kinds)} kinds: {kinds}"
    return strays


CLASSES = dict(_exception_classes())


def test_every_error_derives_from_one_kind() -> None:
    assert len(CLASSES) > 35
    assert _strays(CLASSES) == {}
    # The allowances name classes that exist: a class renamed or removed must leave them too.
    assert (PRIVATE | APART) - CLASSES.keys() == set()
    assert all(issubclass(member, PaperError) for member in (PaperUnreadable, PaperTimedOut, PaperUnavailable))


def test_the_tree_test_sees_a_class_out_of_the_tree() -> None:
    class Stray(ValueError):
        pass

    class Both(TimedOut, InvalidInput):
        pass

    class Kindless(Error):
        pass

    class Mixed(InvalidInput, ValueError):
        pass

    class Decoding(NotFound, UnicodeDecodeError):
        pass

    classes: dict[str, type[BaseException]] = {"x.Stray": Stray, "x.Both": Both, "x.Kindless": Kindless}
    classes |= {"x.Mixed": Mixed, "x.Decoding": Decoding, "deckcheck.cli.main._Usage": InvalidInput}
    assert _strays(classes) == {
        "x.Stray": "not a deckcheck.errors.Error",
        "x.Both": "of 2 kinds: ['InvalidInput', 'TimedOut']",
        "x.Kindless": "of 0 kinds: []",
        "x.Mixed": "mixes in the builtin ValueError",
        "x.Decoding": "mixes in the builtin UnicodeDecodeError, UnicodeError, ValueError",
        "deckcheck.cli.main._Usage": "allowed outside the tree, and in it",
    }


def _statuses_raised(tree: ast.AST) -> list[str]:
    """Each raise in `tree` that hands an HTTP status to the error it raises: a `status` keyword, or a whole number
    from 100 to 599 among its arguments."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            call = node.exc
            numbers = [a.value for a in call.args if isinstance(a, ast.Constant) and type(a.value) is int]
            if any(k.arg == "status" for k in call.keywords) or any(100 <= n <= 599 for n in numbers):
                found.append(ast.unparse(call))
    return found


def test_no_module_outside_the_api_raises_an_http_status() -> None:
    edges = ("deckcheck.api", "deckcheck.client")  # the HTTP edge, and the HTTP client, whose error is a status
    raised = {}
    for dotted, path in MODULES.items():
        if not dotted.startswith(edges):
            raised[dotted] = _statuses_raised(ast.parse(path.read_text(encoding="utf-8")))
    assert len(raised) > 100
    assert {module: calls for module, calls in raised.items() if calls} == {}
    seen = ast.parse('raise PaperError("read_timeout", "late", 504)\nraise RequestError([], status=404)\nraise X(3)')
    assert _statuses_raised(seen) == ["PaperError('read_timeout', 'late', 504)", "RequestError([], status=404)"]


def test_the_table_answers_every_kind() -> None:
    assert set(KINDS) <= STATUSES.keys()
    assert all(issubclass(cls, Error) and HTTPStatus(status) for cls, status in STATUSES.items())
    assert {cls.__name__: status_of(cls("x")) for cls in KINDS} == {
        "InvalidInput": 422,
        "NotFound": 404,
        "TooLarge": 413,
        "Unavailable": 503,
        "TimedOut": 504,
        "BrokenData": 500,
    }
    # A member of a kind whose status is its own, and a family's members by their kinds.
    assert status_of(NotAnImage("not_an_image", "x")) == 415
    assert [status_of(c("k", "x")) for c in (PaperUnreadable, PaperTimedOut, PaperUnavailable)] == [422, 504, 503]
    # Every error of the package has a status, but the roots of the tree and of a family, never raised themselves.
    unanswered = {name for name, cls in CLASSES.items() if issubclass(cls, Error) and cls not in {Error, *FAMILIES}}
    unanswered -= {name for name in unanswered if any(kind in STATUSES for kind in CLASSES[name].__mro__)}
    assert unanswered == set()


def _answers(raised: Error) -> tuple[int, dict[str, object]]:
    """The status and body an app with the project's error handlers answers a route that raises `raised` with."""
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/fails")
    async def fails() -> None:
        raise raised

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/fails")

    response = asyncio.run(ask())
    body = response.json() if response.headers.get("content-type") == "application/problem+json" else {}
    body.pop("request_id", None)
    return response.status_code, body


def test_each_kind_is_answered_as_its_table_says() -> None:
    error = [{"loc": ["path", "id"], "msg": "No such thing.", "type": "unknown_thing"}]
    assert _answers(NotFound.one(["path", "id"], "No such thing.", "unknown_thing")) == (
        404,
        {"type": "urn:deckcheck:problem:not-found", "title": "Not Found", "status": 404, "detail": "No such thing."}
        | {"errors": error},
    )
    assert _answers(RequestError(error)) == (
        422,
        {"type": "urn:deckcheck:problem:invalid-request", "title": "Unprocessable Entity", "status": 422}
        | {"detail": "No such thing.", "errors": error},
    )
    late = [{"loc": ["body"], "msg": "late", "type": "read_timeout"}]
    assert _answers(PaperTimedOut("read_timeout", "late")) == (
        504,
        {"type": "urn:deckcheck:problem:gateway-timeout", "title": "Gateway Timeout", "status": 504}
        | {"detail": "late", "errors": late},
    )
    # A kind's own problem type, the same whatever phrase the Python release gives its status.
    answered = [_answers(error) for error in (TooLarge("past the bound"), Unavailable("busy"), NotAnImage("k", "x"))]
    assert [(status, body["type"]) for status, body in answered] == [
        (413, "urn:deckcheck:problem:too-large"),
        (503, "urn:deckcheck:problem:service-unavailable"),
        (415, "urn:deckcheck:problem:unsupported-media-type"),
    ]
    # Broken data are no caller's fault: the crash handler answers them (here, none: the app fails), never this table.
    assert _answers(BrokenData("cards.json: 7: broken")) == (500, {})
