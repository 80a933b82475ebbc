"""The service's log as data (deckcheck/logs.py): every line a server writes to stderr, from its start through
requests, a reload and its shutdown, is one JSON object with the same head; a request's lines carry its id; a route
that fails leaves one line holding the whole traceback."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from deckcheck import logs
from tests import served

pytestmark = pytest.mark.server

HEAD = ["time", "level", "logger", "message"]
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")

# The real app, from the real factory and with the real server options, and one route more that fails (the service
# has none that fails on purpose), started as `deckcheck serve` starts it.
FAILING = """
import logging, sys
import uvicorn
from deckcheck import logs
from deckcheck.api import create_app
from deckcheck.api.server import server_options
from deckcheck.config import load_settings

logs.configure()
settings = load_settings()
app = create_app(settings)

@app.get("/fails")
def fails() -> None:
    logging.getLogger("deckcheck.test").warning("about to fail")
    raise RuntimeError("a route that fails")

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), **server_options(settings))
"""


@pytest.fixture(scope="module")
def failing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[served.Served]:
    """A server of the app with a route, /fails, that logs a line and raises."""
    folder = tmp_path_factory.mktemp("failing")
    (folder / "updates").mkdir()
    env = {**os.environ, "DECKCHECK_UPDATES_DIR": str(folder / "updates"), "DECKCHECK_UPDATES_POLL": "0"}
    port = served.free_port()
    with (folder / "stderr.log").open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-c", FAILING, str(port)], env=env, stderr=sink)
    server = served.Served(f"http://127.0.0.1:{port}", port, process, folder / "stderr.log")
    try:
        assert served.wait_until_healthy(server.url, process), server.log.read_text(encoding="utf-8")
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait(found: Callable[[], list[dict[str, Any]]], count: int) -> list[dict[str, Any]]:
    """What `found` finds once it finds `count` lines (a line is written once the answer has gone)."""
    deadline = time.monotonic() + 30
    while len(lines := found()) < count:
        assert time.monotonic() < deadline, lines
        time.sleep(0.05)
    return lines


def _of(server: served.Served, request_id: str) -> list[dict[str, Any]]:
    return [line for line in server.logged() if line.get("request_id") == request_id]


def test_a_route_that_fails_leaves_one_json_line_with_the_traceback_and_the_request_id(
    failing: served.Served,
) -> None:
    answer = httpx.get(f"{failing.url}/fails", timeout=30)
    request_id = answer.headers["x-request-id"]
    assert (answer.status_code, answer.json()["request_id"]) == (500, request_id)
    _wait(lambda: [line for line in _of(failing, request_id) if line["logger"] == "deckcheck.access"], 1)
    (error,) = [line for line in failing.logged() if "exception" in line or "exc_type" in line]
    exception = error.pop("exception")
    assert TIME.fullmatch(error.pop("time"))
    assert error == {
        "level": "ERROR",
        "logger": "deckcheck.error",
        "message": "request GET /fails failed",
        "method": "GET",
        "path": "/fails",
        "request_id": request_id,
        "exc_type": "RuntimeError",
    }
    assert exception.startswith("Traceback (most recent call last):\n")
    assert '\n  File "<string>", line 16, in fails\n' in exception  # the raise in FAILING
    assert exception.endswith("\nRuntimeError: a route that fails")


@pytest.mark.parametrize("given", [None, "desk-3.table:7"])
def test_every_line_of_a_request_carries_its_id(failing: served.Served, given: str | None) -> None:
    headers = {} if given is None else {"X-Request-ID": given}
    answer = httpx.get(f"{failing.url}/fails", headers=headers, timeout=30)
    request_id = answer.headers["x-request-id"]
    assert request_id == given or re.fullmatch(r"[0-9a-f]{32}", request_id)
    lines = _wait(lambda: _of(failing, request_id), 3)
    # One from the route's thread, one from the middleware that caught what it raised, one when the answer had gone.
    assert [(line["logger"], line["message"]) for line in lines] == [
        ("deckcheck.test", "about to fail"),
        ("deckcheck.error", "request GET /fails failed"),
        ("deckcheck.access", "GET /fails 500"),
    ]
    # and no line of it without the id: the only lines with none are the server's own, from before any request.
    assert {line["logger"] for line in failing.logged() if "request_id" not in line} <= {
        "uvicorn.error",
        "deckcheck.data",
    }


@pytest.mark.parametrize("workers", [1, 2])
def test_every_line_a_server_writes_is_one_json_object_with_one_head(tmp_path: Path, workers: int) -> None:
    began = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    (tmp_path / "updates").mkdir()
    env = {"DECKCHECK_UPDATES_DIR": str(tmp_path / "updates"), "DECKCHECK_UPDATES_POLL": "0"}
    with served.serving(tmp_path / "stderr.log", env, "--workers", str(workers)) as server:
        _wait(lambda: [line for line in server.logged() if line["message"] == "Application startup complete."], workers)
        with httpx.Client(base_url=server.url, timeout=30) as http:
            answers = [
                http.get("/healthz"),
                http.post("/v1/validate", json={"main": [{"passcode": 55144522}], "date": "2008-06-01"}),
                http.post("/v1/validate", json={"main": "nope"}),
                http.get("/nowhere"),
            ]
        assert [answer.status_code for answer in answers] == [200, 200, 422, 404]
        os.kill(server.process.pid, signal.SIGHUP)
        _wait(lambda: [line for line in server.logged("deckcheck.data") if line["event"] == "data_reload"], workers)
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=60)
    ended = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1)
    text = server.log.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = [orjson.loads(line) for line in text.splitlines()]
    assert [list(line)[:4] for line in lines] == [HEAD] * len(lines)
    assert [line["time"] for line in lines if not TIME.fullmatch(line["time"])] == []
    assert [line["time"] for line in lines if not began <= dt.datetime.fromisoformat(line["time"]) <= ended] == []
    assert {line["logger"] for line in lines} == {"uvicorn.error", "deckcheck.access", "deckcheck.data"}
    assert {line["level"] for line in lines} == {"INFO"}
    said = [line["message"] for line in lines if line["logger"] == "uvicorn.error"]
    assert [m for m in said if re.fullmatch(r"Finished server process \[\d+\]", m)] != []
    assert ("Started parent process" in " ".join(said)) == (workers > 1)
    ours = {answer.headers["x-request-id"]: answer.status_code for answer in answers}
    access = {line["request_id"]: line["status"] for line in lines if line["logger"] == "deckcheck.access"}
    assert {request_id: access.get(request_id) for request_id in ours} == ours
    data = [
        (line["event"], line.get("outcome"), line.get("cause")) for line in lines if line["logger"] == "deckcheck.data"
    ]
    assert sorted(data) == [("data_reload", "ok", "SIGHUP")] * workers + [("data_served", None, None)] * workers


def test_a_record_is_one_line_with_the_head_the_fields_the_request_id_and_the_exception() -> None:
    record = logging.LogRecord("deckcheck.data", logging.ERROR, __file__, 1, "load %s failed", ("x",), None)
    record.created = 1_700_000_000.1239
    record.__dict__.update(event="data_reload", file="カード.json", color_message="left out")
    try:
        raise KeyError("entry")
    except KeyError:
        record.exc_info = sys.exc_info()
    token = logs.REQUEST_ID.set("r-1")
    try:
        line = logs.JsonLines().format(record)
    finally:
        logs.REQUEST_ID.reset(token)
    assert "\n" not in line
    parsed = orjson.loads(line)
    exception = parsed.pop("exception")
    assert parsed == {
        "time": "2023-11-14T22:13:20.123Z",
        "level": "ERROR",
        "logger": "deckcheck.data",
        "message": "load x failed",
        "event": "data_reload",
        "file": "カード.json",
        "request_id": "r-1",
        "exc_type": "KeyError",
    }
    assert exception.startswith("Traceback (most recent call last):\n")
    assert exception.endswith("KeyError: 'entry'")
    assert '"event":"data_reload"' in line  # compact, as operators grep it


def _record(**fields: Any) -> logging.LogRecord:
    record = logging.LogRecord("deckcheck.access", logging.INFO, __file__, 1, "%s %s %s", ("GET", "/x", 200), None)
    record.created = 1_700_000_000.1239
    record.__dict__.update(fields)
    return record


def _by_json(record: logging.LogRecord) -> str:
    """The line as the standard library's json wrote every line before orjson did."""
    formatter = JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger", "exc_info": "exception"},
        reserved_attrs=[*RESERVED_ATTRS, "color_message", "taskName"],
        json_serializer=partial(json.dumps, separators=(",", ":")),
        json_ensure_ascii=False,
    )
    formatter.formatTime = logs.JsonLines().formatTime  # type: ignore[method-assign]
    return formatter.format(record)


@pytest.mark.parametrize(
    "fields",
    [
        {"request_id": "0" * 32, "client": "127.0.0.1", "method": "POST", "path": "/v1/validate", "status": 200},
        {"bytes": 312, "ms": 0.31, "cut": None, "ok": True, "ratio": 12.5, "big": 2**63 - 1},
        {"file": "カード.json", "path": '/v1/cards/\u2028\x7f\t\n"\\', "nested": {"a": [1, 2.5, None]}},
        {"when": dt.date(2008, 9, 1), "moment": dt.datetime(2008, 9, 1, 12, 0, tzinfo=dt.UTC)},
        {"file": "/srv/\udcff.json"},  # a file name the file system gave as surrogates: orjson cannot write it
        {"big": 2**70},  # past 64 bits: neither can it
    ],
)
def test_a_line_is_what_the_standard_librarys_json_wrote(fields: dict[str, Any]) -> None:
    """The log is written by orjson (a third of json's time on an access line) and reads as it read before, byte for
    byte; what orjson cannot write is written by json still."""
    record = _record(**fields)
    assert logs.JsonLines().format(record) == _by_json(record)


def test_a_float_json_wrote_with_an_exponent_reads_the_same() -> None:
    """The one difference: a float json writes as 1e-07 orjson writes as 1e-7, the same number (no field of the
    service's lines is one: an access line's milliseconds are rounded to two places)."""
    record = _record(ratio=1e-07, ms=round(0.00001, 2))
    ours, theirs = logs.JsonLines().format(record), _by_json(record)
    assert (ours, theirs) == (theirs.replace("1e-07", "1e-7"), theirs)
    assert orjson.loads(ours) == orjson.loads(theirs)


@given(created=st.floats(0, 4_102_444_800) | st.integers(0, 4_102_444_799).map(lambda s: s + 0.9999995))
def test_a_lines_time_is_the_datetime_of_its_record(created: float) -> None:
    """Written a second's head at a time, the time reads as datetime reads the record's, a fraction that rounds up
    to the next second included."""
    record = _record()
    record.created = created
    moment = dt.datetime.fromtimestamp(created, dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert logs.JsonLines().formatTime(record) == moment
