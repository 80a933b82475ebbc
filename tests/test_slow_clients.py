"""Clients that never finish, against `deckcheck serve` with nothing in front: silent and idle connections, heads
that never end, recheck readers that stop reading and senders that trickle, a refused recheck, and a recheck cut
by the shutdown timeout. Each of these denied service to everyone else, or left no trace, before."""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from tests.served import Served, serving
from tests.test_operations import split_answer

pytestmark = pytest.mark.server

RECHECK = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
LINE = b'{"id": "a", "ydke": "ydke://!!!"}\n'  # an empty deck: a result line of about 1.6 kB, its violations


def chunk(data: bytes) -> bytes:
    """One part of a chunked body."""
    return b"%x\r\n%s\r\n" % (len(data), data)


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    answer = b""
    while part := sock.recv(65536):
        answer += part
    return answer


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed the connection: an orderly end, or a reset when it closed the socket before
    reading the bytes the client had sent (the kernel answers unread data with RST)."""
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True


def result_lines(answer: bytes) -> list[dict[str, object]]:
    """The NDJSON lines of a chunked recheck answer."""
    _, _, body = split_answer(answer)
    lines = b""
    while body:
        size, _, rest = body.partition(b"\r\n")
        if not int(size, 16):
            break
        lines += rest[: int(size, 16)]
        body = rest[int(size, 16) + 2 :]
    return [orjson.loads(line) for line in lines.splitlines()]


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose head and send timeouts are short, and whose body timeout is 1 s."""
    env = {"DECKCHECK_HEAD_TIMEOUT": "1", "DECKCHECK_SEND_TIMEOUT": "2", "DECKCHECK_BODY_TIMEOUT": "1"}
    with serving(tmp_path_factory.mktemp("quick") / "stderr.log", env) as server:
        yield server


def test_a_thousand_idle_connections_do_not_take_health_down(tmp_path: Path) -> None:
    with serving(tmp_path / "stderr.log", {"DECKCHECK_HEAD_TIMEOUT": "60"}) as server:
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=30) for _ in range(1000)]
        try:
            for sock in idle[::2]:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHo")  # half a head
            time.sleep(0.5)  # every connection taken by the server
            with httpx.Client(base_url=server.url, timeout=30) as client:
                assert client.get("/healthz").status_code == 200
                assert client.get("/readyz").status_code == 200
                assert client.post("/v1/validate", json={"text": "Dark Magician\n"}).status_code == 200
            # The connections idle longest were closed to make room; the newest are still open.
            assert closed_by_server(idle[0])
            idle[-1].sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            assert split_answer(read_until_closed(idle[-1]))[0] == 200
        finally:
            for sock in idle:
                sock.close()


def test_a_silent_connection_is_closed_after_the_head_timeout(quick: Served) -> None:
    with socket.create_connection(("127.0.0.1", quick.port), timeout=30) as sock:
        began = time.monotonic()
        assert read_until_closed(sock) == b""  # nothing came, so nothing to answer
        assert time.monotonic() - began < 20


@pytest.mark.parametrize("first", [b"", b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"], ids=["fresh", "kept-alive"])
def test_half_a_head_gets_408_after_the_head_timeout(quick: Served, first: bytes) -> None:
    with socket.create_connection(("127.0.0.1", quick.port), timeout=30) as sock:
        if first:  # a head begun after an answer on a kept-alive connection is timed from its first byte
            sock.sendall(first)
            answer = b""
            while not answer.endswith(b"}"):  # the whole of /healthz's JSON
                answer += sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow:")
        status, headers, body = split_answer(read_until_closed(sock))
    assert status == 408
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    problem = orjson.loads(body)
    assert problem["type"] == "urn:deckcheck:problem:head-timeout"
    assert problem["detail"] == "The request head did not arrive whole within 1 seconds."
    assert problem["request_id"] == headers["x-request-id"]


def _stalled_reader(port: int, opened: threading.Event, done: threading.Event) -> None:
    """Open a recheck whose answer is far larger than the socket buffers, send its body and read nothing."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.settimeout(60)
        try:
            sock.sendall(RECHECK + chunk(LINE))
            began = b""
            while len(began) < 12:  # the answer has begun: the recheck holds its slot
                began += sock.recv(12 - len(began))
            assert began == b"HTTP/1.1 200"
            opened.set()
            for _ in range(200):
                sock.sendall(chunk(LINE * 100))
            sock.sendall(b"0\r\n\r\n")
        except OSError:  # dropped by the server: what the test waits for
            pass
        done.wait(60)


def test_stalled_recheck_readers_lose_their_slots(quick: Served) -> None:
    done = threading.Event()
    readers = []
    for _ in range(4):  # as many as may run at once (DECKCHECK_MAX_RECHECKS)
        opened = threading.Event()
        readers.append(threading.Thread(target=_stalled_reader, args=(quick.port, opened, done)))
        readers[-1].start()
        assert opened.wait(30)
    try:
        with httpx.Client(base_url=quick.url, timeout=30) as client:
            refused = client.post("/v1/rechecks?date=2008-06-01", content=LINE)
            assert refused.status_code == 503  # every slot held by a client that reads nothing
            assert refused.headers["connection"] == "close"
            deadline = time.monotonic() + 60
            while (answer := client.post("/v1/rechecks?date=2008-06-01", content=LINE)).status_code == 503:
                assert time.monotonic() < deadline, "the stalled readers kept their slots"
                time.sleep(0.5)
        assert answer.status_code == 200
        assert orjson.loads(answer.content.splitlines()[-1])["summary"]["lines"] == 1
    finally:
        done.set()
        for reader in readers:
            reader.join()


def test_a_recheck_that_trickles_in_ends_with_a_line_that_says_so(quick: Served) -> None:
    with socket.create_connection(("127.0.0.1", quick.port), timeout=60) as sock:
        sock.sendall(RECHECK)
        lines = 0
        try:
            while lines < 100:  # a line every 0.5 s: never a pause of the body timeout, but 70 bytes a second
                sock.sendall(chunk(LINE))
                lines += 1
                time.sleep(0.5)
        except OSError:
            pass
        answer = read_until_closed(sock) if lines < 100 else b""
    results = result_lines(answer)
    assert results[-1] == {
        "line": None,
        "id": None,
        "error": {"msg": "the request body arrived too slowly", "type": "body_too_slow"},
    }
    assert 1 <= len(results) - 1 <= lines
    access = quick.logged("deckcheck.access")
    assert {"route": "/v1/rechecks", "status": 200, "cut": "body_too_slow"}.items() <= access[-1].items()


def test_a_recheck_cut_by_the_shutdown_timeout_ends_with_a_line_and_is_logged_as_cut(tmp_path: Path) -> None:
    env = {"DECKCHECK_SHUTDOWN_TIMEOUT": "1", "DECKCHECK_BODY_MIN_RATE": "1"}
    with serving(tmp_path / "stderr.log", env) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
            sock.sendall(RECHECK + chunk(LINE))
            answer = sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200")
            server.process.send_signal(signal.SIGTERM)
            try:
                for _ in range(50):  # still sending when the shutdown timeout passes
                    sock.sendall(chunk(LINE))
                    time.sleep(0.1)
            except OSError:
                pass
            answer += read_until_closed(sock)
        assert server.process.wait(timeout=30) == -signal.SIGTERM
        access = server.logged("deckcheck.access")
    assert result_lines(answer)[-1] == {
        "line": None,
        "id": None,
        "error": {"msg": "the server shut down before this recheck ended", "type": "shutdown"},
    }
    assert {"route": "/v1/rechecks", "status": 200, "cut": "shutdown"}.items() <= access[-1].items()


GETS = ["/healthz", "/readyz", "/metrics", "/v1/cards/46986414", "/v1/banlists", "/v1/rules", "/desk"]


@pytest.mark.parametrize("path", GETS)
def test_head_is_answered_wherever_get_is(client: httpx.Client, path: str) -> None:
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    if path != "/metrics":  # its counts change between the two requests
        assert head.headers["content-length"] == got.headers["content-length"]


def test_head_is_refused_where_there_is_no_get(client: httpx.Client) -> None:
    refused = client.head("/v1/decks/parse")
    assert (refused.status_code, refused.headers["allow"]) == (405, "POST")
    assert client.head("/v1/validate").status_code != 405  # GET /v1/validate takes a deck in the query
