"""Admission and readiness in-process: a full queue refuses at once, by the request's head alone; a check that
waited past the deadline is refused, not run; a client that left is not worked for; and a stop signal makes the
server not ready while the server's own handler still runs."""

from __future__ import annotations

import random
import signal
import threading
import time
from types import FrameType
from typing import Any

import anyio
import orjson
import pytest
from starlette.types import Message, Receive, Scope, Send

from deckcheck import logs
from deckcheck.api.lifecycle import Lifecycle
from deckcheck.api.metrics import Metrics
from deckcheck.api.middleware.admission import HEAD_READ, Admission, ClientGone, Overloaded
from deckcheck.api.middleware.gate import MAX_PAUSE, Gate, Gated
from deckcheck.api.validate import INLINE_ENTRIES, runs_inline
from deckcheck.wire.requests import ValidateRequest
from tests.decks import EXTRA, MAIN_40, SIDE, ydke


class _Gone:
    """Stands in for a request whose client has disconnected."""

    async def is_disconnected(self) -> bool:
        return True


class _Here:
    """Stands in for a request whose client waits for its answer."""

    async def is_disconnected(self) -> bool:
        return False


def test_a_full_queue_refuses_at_once_and_frees_when_the_checks_end() -> None:
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=60)
    release = threading.Event()
    results: list[bool] = []

    async def run() -> None:
        async with anyio.create_task_group() as group:
            for _ in range(2):
                group.start_soon(_check_and_record, admission, release, results)
            while admission.admitted < 2:
                await anyio.sleep(0.01)
            assert admission.saturated
            with pytest.raises(Overloaded):
                admission.enter()
            release.set()
        assert not admission.saturated
        admission.enter()

    anyio.run(run)
    assert results == [True, True]
    assert admission.metrics.registry.get_sample_value("deckcheck_admission_rejections_total") == 1


async def _check_and_record(admission: Admission, release: threading.Event, results: list[bool]) -> None:
    results.append(await admission.check(_Here(), release.wait))  # type: ignore[arg-type]


def test_a_check_that_waited_past_the_deadline_is_refused_and_never_run() -> None:
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=0.2)
    release = threading.Event()
    ran: list[int] = []

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(_check_and_record, admission, release, [])
            while admission.metrics.registry.get_sample_value("deckcheck_checks_admitted") != 1:
                await anyio.sleep(0.01)
            with pytest.raises(Overloaded) as refused:
                await admission.check(_Here(), lambda: ran.append(1))  # type: ignore[arg-type]
            release.set()
        assert refused.value.waited == 0.2

    anyio.run(run)
    assert ran == []
    assert admission.admitted == 0
    assert admission.metrics.registry.get_sample_value("deckcheck_admission_rejections_total") == 1


def test_work_for_a_client_that_left_while_waiting_is_not_run() -> None:
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=60)
    release = threading.Event()
    ran: list[int] = []

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(_check_and_record, admission, release, [])  # takes the one thread
            while admission.metrics.registry.get_sample_value("deckcheck_checks_admitted") != 1:
                await anyio.sleep(0.01)
            group.start_soon(_let_go_soon, release)
            with pytest.raises(ClientGone):
                await admission.check(_Gone(), lambda: ran.append(1))  # type: ignore[arg-type]

    anyio.run(run)
    assert ran == []
    assert admission.admitted == 0


class _Read:
    """Stands in for a request whose head the server's protocol read `ago` seconds ago (HEAD_READ)."""

    def __init__(self, ago: float | None) -> None:
        self.scope = {} if ago is None else {"extensions": {HEAD_READ: {"at": time.monotonic() - ago}}}


@pytest.mark.parametrize(
    ("inline", "ago", "on_the_loop"),
    [(True, None, True), (True, 0.0, True), (True, 0.5, False), (False, None, False), (False, 0.0, False)],
    ids=["in-process", "on time", "loop behind", "thread work", "thread work on time"],
)
def test_small_work_runs_on_the_loop_unless_the_loop_is_behind(
    inline: bool, ago: float | None, on_the_loop: bool
) -> None:
    """An inline work runs on the event loop's thread, unless its request waited longer than the lag allowed since
    its head was read: then it waits for a thread as any other work does. Either way it is counted while it runs."""
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=60, inline_lag=0.1)
    gauge: list[float | None] = []

    def work() -> int:
        gauge.append(admission.metrics.registry.get_sample_value("deckcheck_checks_admitted"))
        return threading.get_ident()

    async def run() -> int:
        return await admission.run(_Read(ago), work, inline=inline)  # type: ignore[arg-type]

    assert (anyio.run(run) == threading.get_ident()) is on_the_loop
    assert gauge == [1]
    assert admission.metrics.registry.get_sample_value("deckcheck_checks_admitted") == 0


def test_work_that_finds_a_thread_free_runs_without_asking_after_the_client() -> None:
    """A request whose body has just been read and finds a thread free is checked at once: its client is asked
    after only when its work waited for a thread."""
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=60)

    async def run() -> list[int]:
        return await admission.check(_Gone(), lambda: [1])  # type: ignore[arg-type]

    assert anyio.run(run) == [1]
    assert admission.admitted == 0


def test_work_on_a_thread_runs_in_its_requests_context() -> None:
    """A work handed to a check thread sees the context of the request that sent it: its log lines carry its id."""
    admission = Admission(threads=1, waiting=1, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=60)

    def work() -> tuple[str | None, int]:
        return logs.REQUEST_ID.get(), threading.get_ident()

    async def run() -> tuple[str | None, int]:
        logs.REQUEST_ID.set("desk-3.table:7")
        return await admission.run(None, work)

    request_id, thread = anyio.run(run)
    assert (request_id, thread != threading.get_ident()) == ("desk-3.table:7", True)


async def _let_go_soon(release: threading.Event) -> None:
    await anyio.sleep(0.1)
    release.set()


def test_a_stop_signal_marks_the_server_draining_and_reaches_the_server() -> None:
    caught: list[int] = []

    def server_handler(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    async def run() -> None:
        lifecycle = Lifecycle()
        lifecycle.watch_signals()
        assert not lifecycle.draining
        signal.raise_signal(signal.SIGTERM)
        assert lifecycle.draining
        assert caught == [signal.SIGTERM]

    previous = signal.signal(signal.SIGTERM, server_handler)
    try:
        anyio.run(run)
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_the_gate_refuses_by_the_head_without_reading_the_body() -> None:
    admission = Admission(threads=1, waiting=0, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=60)
    admission.enter()  # the one thread taken
    reached: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        reached.append(scope["path"])

    async def receive() -> Message:
        raise AssertionError("a refused request's body was read")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    gated = Gated("/v1/validate", admission.enter, admission.leave)
    gate = Gate(app, {("POST", "/v1/validate"): gated}, retry_after=3, pause=0, rate=100)
    scope = _validate()
    anyio.run(gate, scope, receive, send)
    assert scope["route"].path == "/v1/validate"  # what the access log and the metrics name it by
    anyio.run(gate, {**scope, "path": "/healthz"}, receive, send)  # not gated: passes untouched
    assert reached == ["/healthz"]
    assert sent[0]["status"] == 503
    assert (b"retry-after", b"3") in sent[0]["headers"]
    problem = orjson.loads(sent[1]["body"])
    assert (problem["type"], problem["detail"]) == (
        "urn:deckcheck:problem:overloaded",
        "Every check thread is busy and the queue is full; try again in 3 s.",
    )
    assert admission.admitted == 1  # the refused request was never counted in


def test_refusals_held_past_the_rate_wait_longer_up_to_the_longest_pause() -> None:
    gate = Gate(_unreached, {}, retry_after=1, pause=1.0, rate=100)
    assert gate.pause_now() == 1.0
    gate.held = 99  # this one and 99 held, sent within a pause, are a hundred a second: no longer
    assert gate.pause_now() == 1.0
    gate.held = 100
    assert gate.pause_now() == 1.01
    gate.held = 269  # 400 clients retrying at once, 130 admitted, and this one
    assert gate.pause_now() == 2.7
    gate.held = 5000
    assert gate.pause_now() == MAX_PAUSE
    assert Gate(_unreached, {}, retry_after=1, pause=0, rate=100).pause_now() == 0  # refused at once, as set
    assert Gate(_unreached, {}, retry_after=1, pause=8, rate=100).pause_now() == 8  # a pause set longer is kept


@pytest.mark.parametrize(("draw", "waited"), [(0.0, 2.5), (0.5, MAX_PAUSE), (0.999, 7.495)])
def test_a_refusal_past_the_rate_waits_the_longest_pause_spread_as_any_other(
    monkeypatch: pytest.MonkeyPatch, draw: float, waited: float
) -> None:
    gate = _full(pause=1.0)
    gate.held = 5000  # a flood far past the rate: the middle of the spread is the longest pause
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(random, "random", lambda: draw)  # the gate's spread
    monkeypatch.setattr(anyio, "sleep", sleep)  # the gate's wait
    anyio.run(gate, _validate(), _unread, _dropped)
    assert pauses == [pytest.approx(waited)]


def test_a_refusal_cancelled_while_it_waits_is_no_longer_held() -> None:
    gate = _full(pause=10.0)
    held: list[int] = []

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(gate, _validate(), _unread, _dropped)
            await anyio.sleep(0.05)
            held.append(gate.held)
            group.cancel_scope.cancel()  # the server shutting down, or the client's task ended
        held.append(gate.held)

    anyio.run(run)
    assert held == [1, 0]


def test_a_refusal_is_counted_as_held_while_it_waits_and_no_longer() -> None:
    gate = _full(pause=0.2)
    held: list[int] = []
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def run() -> None:
        async with anyio.create_task_group() as group:
            for _ in range(3):
                group.start_soon(gate, _validate(), _unread, send)
            await anyio.sleep(0.05)
            held.append(gate.held)
        held.append(gate.held)

    anyio.run(run)
    assert held == [3, 0]
    assert [m["status"] for m in sent if m["type"] == "http.response.start"] == [503, 503, 503]


def _validate() -> Scope:
    """The head of a request to /v1/validate (a gate writes its route into it when it refuses it)."""
    return {"type": "http", "method": "POST", "path": "/v1/validate", "headers": []}


def _full(pause: float) -> Gate:
    """A gate before /v1/validate whose pool, of one thread and no room to wait, is busy: every request is refused."""
    admission = Admission(threads=1, waiting=0, rechecks=1, metrics=Metrics("v", "0"), queue_seconds=60)
    admission.enter()
    gated = Gated("/v1/validate", admission.enter, admission.leave)
    return Gate(_unreached, {("POST", "/v1/validate"): gated}, retry_after=1, pause=pause, rate=100)


async def _unreached(scope: Scope, receive: Receive, send: Send) -> None:
    raise AssertionError("a refused request reached the app")


async def _dropped(message: Message) -> None:
    pass


async def _unread() -> Message:
    raise AssertionError("a refused request's body was read")


SMALL = ydke(MAIN_40, EXTRA, SIDE)
BY_PASSCODE = {"main": MAIN_40, "extra": EXTRA, "side": SIDE}


@pytest.mark.parametrize(
    ("body", "inline"),
    [
        ({"ydke": SMALL}, True),
        ({**BY_PASSCODE, "banlist": "ocg-2008-03-01", "roster": {"ydke": SMALL}}, True),
        ({"ydk": "#main\n" + "55144522\n" * 40}, True),
        ({"ydke": ydke(MAIN_40 * 10)}, False),  # 400 cards: past INLINE_CHARS
        ({"main": [{"passcode": 55144522}] * (INLINE_ENTRIES + 1)}, False),
        ({"text": "3 Pot of Greed\n"}, False),  # names to resolve
        ({"main": [*MAIN_40, {"name": "Pot of Greed"}]}, False),
        ({"ydke": SMALL, "roster": {"text": "Dark Magician\n"}}, False),
        ({"ydke": SMALL, "banlist": {"lflist": "!x\n55144522 0\n"}}, False),  # a list to read first
        ({"ydke": SMALL, "banlist": {"name": "x", "forbidden": [55144522]}}, False),
    ],
    ids=[
        "ydke",
        "entries, roster and list id",
        "ydk",
        "long link",
        "many entries",
        "text",
        "a name",
        "text roster",
        "lflist",
        "inline list",
    ],
)
def test_only_checks_bounded_by_a_small_input_given_by_passcode_run_on_the_loop(
    body: dict[str, Any], inline: bool
) -> None:
    assert runs_inline(ValidateRequest.model_validate({"date": "2008-06-01", **body})) is inline
