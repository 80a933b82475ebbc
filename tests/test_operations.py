"""The service as an operator runs it (`deckcheck serve`), against hostile clients: stalled and oversized bodies,
oversized heads, floods that fill every check thread, SIGTERM with a client still sending; and what the operator
sees: request ids, JSON access logs, metrics, readiness."""

from __future__ import annotations

import os
import re
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import orjson
import pytest

from deckcheck.api.middleware.observe import new_request_id
from tests.served import Served, serving

pytestmark = pytest.mark.server

# One check thread and no queue, one recheck at a time, 1 MiB of held results, a 1 s body timeout: a strict server
# that shows every limit quickly.
STRICT = {
    "DECKCHECK_CHECK_THREADS": "1",
    "DECKCHECK_MAX_WAITING": "0",
    "DECKCHECK_BODY_TIMEOUT": "1",
    "DECKCHECK_SHUTDOWN_TIMEOUT": "2",
    "DECKCHECK_RETRY_AFTER": "3",
    "DECKCHECK_MAX_RECHECKS": "1",
    "DECKCHECK_MAX_HELD_BYTES": "1048576",
}
LEGAL_TEXT = {"text": "Dark Magician\n", "date": "2008-06-01"}


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A strict server of its own."""
    with serving(tmp_path_factory.mktemp("strict") / "stderr.log", STRICT) as server:
        yield server


def raw_exchange(port: int, head: bytes, body: bytes = b"", wait: float = 30) -> bytes:
    """Send a request head and body on a fresh connection and read the answer until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(head + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def split_answer(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of a raw HTTP/1.1 answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


def test_a_stalled_body_gets_408_and_the_connection_is_closed(strict: Served) -> None:
    head = b"POST /v1/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    status, headers, body = split_answer(raw_exchange(strict.port, head, b'{"main": [', wait=30))
    assert status == 408
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    problem = orjson.loads(body)
    assert problem["type"] == "urn:deckcheck:problem:body-timeout"
    assert problem["errors"] == [
        {
            "loc": ["body"],
            "msg": "The request body stopped arriving for 1 seconds, or took longer than 3 seconds in all.",
            "type": "body_timeout",
        }
    ]


def test_a_stalled_recheck_ends_with_a_line_that_says_so(strict: Served) -> None:
    line = b'{"id": "a", "ydke": "ydke://!!!"}\n'
    head = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n"
    _, _, body = split_answer(raw_exchange(strict.port, head, line))
    chunks = body.split(b"\r\n")  # chunked transfer: size, data, size, data, ...
    lines = [orjson.loads(c) for c in chunks if c.startswith(b"{")]
    assert [r.get("id") for r in lines] == ["a", None]
    assert lines[1]["error"] == {"msg": "the request body stopped arriving", "type": "body_timeout"}


def test_an_over_limit_body_without_expect_gets_a_413_it_can_read(base_url: str) -> None:
    port = int(base_url.rsplit(":", 1)[1])
    body = b"[" + b"1," * (1024 * 1024) + b"1]"
    head = b"POST /v1/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    head += b"Content-Length: %d\r\n\r\n" % len(body)
    status, headers, answer = split_answer(raw_exchange(port, head, body))
    assert status == 413
    assert headers["content-type"] == "application/problem+json"
    assert orjson.loads(answer)["type"] == "urn:deckcheck:problem:body-too-large"
    # A client that asks first is answered at once, without sending the body.
    expect = head.replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n")
    assert split_answer(raw_exchange(port, expect))[0] == 413


def _post_with_urllib(url: str, body: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def _post_with_httpx(url: str, body: bytes) -> tuple[int, bytes]:
    answer = httpx.post(url, content=body, headers={"Content-Type": "application/json"}, timeout=60)
    return answer.status_code, answer.content


@pytest.mark.parametrize("post", [_post_with_urllib, _post_with_httpx], ids=["urllib", "httpx"])
def test_a_64_mib_body_from_a_client_that_sends_before_it_reads_gets_the_413(
    base_url: str, post: Callable[[str, bytes], tuple[int, bytes]]
) -> None:
    """Neither urllib nor httpx sends Expect: 100-continue; each writes all 64 MiB before it reads. The server reads
    and throws the body away (bounded by time, not bytes), so the client reads the 413, not a reset."""
    status, answer = post(f"{base_url}/v1/validate", b" " * (64 * 1024 * 1024))
    assert (status, orjson.loads(answer)["errors"]) == (
        413,
        [{"loc": ["body"], "msg": "The request body is larger than 1048576 bytes.", "type": "body_too_large"}],
    )


def test_a_request_head_over_the_limit_gets_431_problem_json(base_url: str) -> None:
    port = int(base_url.rsplit(":", 1)[1])
    head = b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Padding: " + b"a" * 70_000 + b"\r\n\r\n"
    status, headers, body = split_answer(raw_exchange(port, head))
    assert status == 431
    assert headers["content-type"] == "application/problem+json"
    assert orjson.loads(body)["detail"] == (
        "The request head is larger than 65536 bytes; send large lists in the request body."
    )


def test_a_head_that_never_ends_gets_431_once_past_the_limit(base_url: str) -> None:
    port = int(base_url.rsplit(":", 1)[1])
    head = b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Padding: " + b"a" * 70_000  # and never the blank line
    status, headers, body = split_answer(raw_exchange(port, head))
    assert status == 431
    assert orjson.loads(body)["request_id"] == headers["x-request-id"]


def test_a_head_that_trickles_in_past_the_limit_gets_431(base_url: str) -> None:
    """The server counts a head's bytes as they come, read by read: a header that never ends is refused once its
    reads pass the limit, not kept whole."""
    port = int(base_url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Padding: ")
        answer = b""
        for _ in range(40):  # 40 reads of 2 KiB: 80 KiB of one header, past the 64 KiB limit
            try:
                sock.sendall(b"a" * 2048)
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.01)
        while chunk := sock.recv(65536):
            answer += chunk
    assert split_answer(answer)[0] == 431


def test_a_request_behind_a_large_body_on_the_same_read_is_not_taken_for_a_large_head(base_url: str) -> None:
    """Two requests on one connection, sent at once: a 70 KB body (refused by the app for a field it does not
    take), then the next request's head in two parts. The first request's bytes are not counted as the second's
    head."""
    port = int(base_url.rsplit(":", 1)[1])
    body = orjson.dumps({"text": "Dark Magician\n", "padding": "a" * 70_000})
    first = b"POST /v1/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    first += b"Content-Length: %d\r\n\r\n" % len(body) + body
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(first + b"GET /healthz HTTP/1.1\r\nHost: t\r\n")
        time.sleep(0.3)
        sock.sendall(b"Connection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert re.findall(rb"HTTP/1\.1 (\d{3}) ", answer) == [b"422", b"200"]  # the answers follow each other


def test_a_head_that_is_not_http_gets_400_problem_json(base_url: str) -> None:
    port = int(base_url.rsplit(":", 1)[1])
    status, headers, body = split_answer(raw_exchange(port, b"HELLO THERE\r\n\r\n"))
    assert status == 400
    assert headers["content-type"] == "application/problem+json"
    assert orjson.loads(body)["type"] == "urn:deckcheck:problem:malformed-head"


def test_a_405_names_the_allowed_methods(client: httpx.Client) -> None:
    response = client.put("/v1/validate")  # a deck in the body (POST) or in the query (GET), and HEAD with GET
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD, POST"
    assert client.put("/v1/cards/46986414").headers["allow"] == "GET, HEAD"
    assert client.delete("/v1/rechecks").headers["allow"] == "POST"


@pytest.mark.parametrize("written", ["4_6986414", "46986414.0", "+46986414", "-46986414", " 46986414", "1e3"])
def test_a_passcode_has_one_address(client: httpx.Client, written: str) -> None:
    response = client.get(f"/v1/cards/{written}")
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["path", "passcode"]


def test_a_passcode_may_keep_its_printed_leading_zero(client: httpx.Client) -> None:
    response = client.get("/v1/cards/046986414")
    assert response.status_code == 200
    assert response.json()["requested"] == 46986414


def full_duplex(port: int, head: bytes, body: bytes) -> bytes:
    """Send a request while reading its answer, as a streaming client does, and return the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sender = threading.Thread(target=sock.sendall, args=(head + body,))
        sender.start()
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        sender.join()
        return answer


def test_health_answers_and_checks_are_shed_while_every_check_thread_is_busy(strict: Served) -> None:
    # A recheck of 100,000 decks keeps the one check thread busy, chunk after chunk; the strict server has no queue.
    body = b"".join(b'{"id": %d, "ydke": "ydke://!!!"}\n' % n for n in range(100_000))
    head = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
    head += b"Content-Length: %d\r\n\r\n" % len(body)
    with ThreadPoolExecutor(max_workers=1) as pool, httpx.Client(base_url=strict.url, timeout=60) as http:
        recheck = pool.submit(full_duplex, strict.port, head, body)
        while "saturated" not in http.get("/readyz").json()["reasons"]:
            assert not recheck.done(), "the recheck ended before it filled the check thread"
        health, shed = [], None
        while shed is None and not recheck.done():
            health.append(http.get("/healthz").status_code)
            answer = http.post("/v1/validate", json=LEGAL_TEXT)
            shed = answer if answer.status_code == 503 else None
        lines = recheck.result().count(b'"line":')
        rejected = metric(http.get("/metrics").text, "deckcheck_admission_rejections_total")
    assert set(health) == {200}
    assert shed is not None, "no check was refused while the thread was busy"
    assert shed.headers["retry-after"] == "3"
    assert shed.headers["content-type"] == "application/problem+json"
    assert shed.json()["type"] == "urn:deckcheck:problem:overloaded"
    assert lines == 100_000
    assert rejected >= 1


def test_rechecks_past_the_limit_are_refused_while_one_runs(strict: Served) -> None:
    head = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
    line = b'{"id": 1, "ydke": "ydke://!!!"}\n'
    with socket.create_connection(("127.0.0.1", strict.port), timeout=30) as sock:
        sock.sendall(head + b"%x\r\n%s\r\n" % (len(line), line))
        answer = b""
        while b'"line":1' not in answer:  # the first recheck is running (STRICT allows one)
            answer += sock.recv(65536)
        second = httpx.post(f"{strict.url}/v1/rechecks?date=2008-06-01", content=line, timeout=30)
        sock.sendall(b"0\r\n\r\n")
    assert second.status_code == 503
    assert second.json()["type"] == "urn:deckcheck:problem:overloaded"
    third = httpx.post(f"{strict.url}/v1/rechecks?date=2008-06-01", content=line, timeout=30)
    assert third.status_code == 200


def test_held_results_past_the_limit_are_refused_whole(strict: Served) -> None:
    # About 150 bytes of error line for each empty line: 10,000 of them pass the strict 1 MiB of held results.
    response = httpx.post(
        f"{strict.url}/v1/rechecks?date=2008-06-01",
        content=b"\n" * 10_000,
        headers={"Deckcheck-Hold-Results": "1"},
        timeout=30,
    )
    assert response.status_code == 413
    assert response.json()["type"] == "urn:deckcheck:problem:results-too-large"


def test_a_body_that_trickles_gets_408_once_its_whole_time_is_up(strict: Served) -> None:
    # One byte every half second never pauses for the 1 s body timeout, but the whole body gets 3 s.
    with socket.create_connection(("127.0.0.1", strict.port), timeout=30) as sock:
        sock.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
        answer = b""
        sock.settimeout(0.5)
        while not answer:
            try:
                answer = sock.recv(65536)
            except TimeoutError:
                sock.sendall(b" ")
        sock.settimeout(30)
        while chunk := sock.recv(65536):
            answer += chunk
    status, _, body = split_answer(answer)
    assert status == 408
    assert orjson.loads(body)["detail"] == (
        "The request body stopped arriving for 1 seconds, or took longer than 3 seconds in all."
    )


def test_every_answer_carries_a_request_id_and_a_json_access_log_line(strict: Served) -> None:
    with httpx.Client(base_url=strict.url, timeout=30) as http:
        given = http.post("/v1/validate", json=LEGAL_TEXT, headers={"X-Request-ID": "desk-7.check:42"})
        made = http.post("/v1/validate", json={"main": "nope"}, headers={"X-Request-ID": "not ok!" * 30})
    assert given.headers["x-request-id"] == "desk-7.check:42"
    made_id = made.headers["x-request-id"]
    assert len(made_id) == 32
    assert made.json()["request_id"] == made_id
    deadline = time.monotonic() + 10
    while True:
        logged = {r["request_id"]: r for r in strict.logged("deckcheck.access")}
        if made_id in logged or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    line = logged["desk-7.check:42"]
    assert {k: v for k, v in line.items() if k not in ("time", "ms")} == {
        "level": "INFO",
        "logger": "deckcheck.access",
        "message": "POST /v1/validate 200",
        "request_id": "desk-7.check:42",
        "client": "127.0.0.1",
        "method": "POST",
        "path": "/v1/validate",
        "route": "/v1/validate",
        "status": 200,
        "bytes": len(given.content),
    }
    assert line["ms"] > 0
    assert logged[made_id]["status"] == 422


def test_request_ids_are_new_in_every_process_a_fork_makes() -> None:
    """`--workers N` forks its workers from one process: their ids must not repeat each other's."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - in the child
        os.write(write, "".join(new_request_id() for _ in range(3)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    with os.fdopen(read, "rb") as made:
        theirs = made.read().decode()
    ours = "".join(new_request_id() for _ in range(3))
    assert re.fullmatch("[0-9a-f]{96}", theirs)
    assert re.fullmatch("[0-9a-f]{96}", ours)
    assert ours != theirs


def test_metrics_count_requests_violations_and_rechecks(strict: Served) -> None:
    with httpx.Client(base_url=strict.url, timeout=30) as http:
        http.post("/v1/validate", json={"main": [{"passcode": 55144522}], "date": "2008-06-01"})
        http.post("/v1/rechecks?date=2008-06-01", content=b'{"id": 1, "ydke": "ydke://!!!"}\n[]\n')
        text = http.get("/metrics").text
    assert metric(text, 'deckcheck_requests_total{method="POST",route="/v1/validate",status="200"}') >= 1
    assert metric(text, 'deckcheck_request_duration_seconds_count{route="/v1/validate",status="200"}') >= 1
    assert metric(text, 'deckcheck_violations_total{code="forbidden_card"}') >= 1
    assert metric(text, 'deckcheck_recheck_lines_total{outcome="illegal"}') >= 1
    assert metric(text, 'deckcheck_recheck_lines_total{outcome="error"}') >= 1
    assert metric(text, "deckcheck_checks_admitted") == 0
    assert 'deckcheck_data_info{data_version="' in text
    # A method the parser does not know (llhttp reads those of HTTP and WebDAV) is refused by the server, before the
    # app and its metrics; one it knows that the route does not take is counted under "other".
    with socket.create_connection(("127.0.0.1", strict.port), timeout=30) as sock:
        sock.sendall(b"BREW /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        status, _, body = split_answer(sock.recv(65536))
        assert (status, orjson.loads(body)["type"]) == (400, "urn:deckcheck:problem:malformed-head")
    with socket.create_connection(("127.0.0.1", strict.port), timeout=30) as sock:
        sock.sendall(b"PROPFIND /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 405")
    text = httpx.get(f"{strict.url}/metrics", timeout=30).text
    assert metric(text, 'deckcheck_requests_total{method="other",route="/healthz",status="405"}') == 1
    assert "BREW" not in text
    assert "PROPFIND" not in text


def metric(text: str, series: str) -> float:
    """The value of one series in a Prometheus exposition."""
    return float(next(line for line in text.splitlines() if line.startswith(series + " ")).rsplit(" ", 1)[1])


def test_workers_share_a_port_and_their_metrics_add_up(tmp_path: Path) -> None:
    with serving(tmp_path / "stderr.log", {}, "--workers", "2") as server:
        for _ in range(20):
            assert httpx.post(f"{server.url}/v1/validate", json=LEGAL_TEXT, timeout=30).status_code == 200
        text = httpx.get(f"{server.url}/metrics", timeout=30).text
    assert metric(text, 'deckcheck_requests_total{method="POST",route="/v1/validate",status="200"}') == 20


def test_sigterm_stops_the_server_though_a_client_keeps_sending(tmp_path: Path) -> None:
    with serving(tmp_path / "stderr.log", STRICT) as server:
        stop = threading.Event()

        def trickle() -> None:  # a recheck body that never ends, one line every 0.2 s
            head = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
            line = b'{"id": 1, "ydke": "ydke://!!!"}\n'
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
                sock.sendall(head)
                while not stop.wait(0.2):
                    try:
                        sock.sendall(b"%x\r\n%s\r\n" % (len(line), line))
                    except OSError:
                        return

        sender = threading.Thread(target=trickle)
        sender.start()
        time.sleep(1)
        server.process.send_signal(signal.SIGTERM)
        try:
            # uvicorn ends by raising the signal it caught again, so the exit status says SIGTERM
            assert server.process.wait(timeout=30) == -signal.SIGTERM
        finally:
            stop.set()
            sender.join()


def test_held_results_are_the_streamed_results_sent_after_the_body(client: httpx.Client) -> None:
    lines = [b'{"id": %d, "ydke": "ydke://!!!"}\n' % n for n in range(3000)] + [b"[]\n"]
    body = b"".join(lines)
    streamed = client.post("/v1/rechecks?date=2008-06-01", content=body)
    held = client.post("/v1/rechecks?date=2008-06-01", content=body, headers={"Deckcheck-Hold-Results": "1"})
    assert held.status_code == 200
    assert held.content == streamed.content
    assert len(held.content.splitlines()) == 3002


def test_a_stalled_body_whose_results_are_held_gets_408(strict: Served) -> None:
    head = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nDeckcheck-Hold-Results: 1\r\n"
    head += b"Content-Length: 100000\r\n\r\n"
    status, headers, body = split_answer(raw_exchange(strict.port, head, b'{"id": "a", "ydke": "ydke://!!!"}\n'))
    assert status == 408
    assert headers["content-type"] == "application/problem+json"
    assert orjson.loads(body)["type"] == "urn:deckcheck:problem:body-timeout"


def test_during_the_drain_period_readiness_fails_while_the_port_still_answers(tmp_path: Path) -> None:
    with serving(tmp_path / "stderr.log", {"DECKCHECK_DRAIN_SECONDS": "3"}) as server:
        assert httpx.get(f"{server.url}/readyz", timeout=30).status_code == 200
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        while (ready := httpx.get(f"{server.url}/readyz", timeout=30)).status_code == 200:
            assert time.monotonic() < deadline
        health = httpx.get(f"{server.url}/healthz", timeout=30)
        assert server.process.wait(timeout=30) == -signal.SIGTERM
    assert ready.status_code == 503
    assert ready.json() == {
        "status": "not_ready",
        "reasons": ["shutting_down"],
        "checks": 0,
        "data_version": health.json()["data_version"],
        "newest_lists": health.json()["newest_lists"],
        "updates_dir": health.json()["updates_dir"],
        "updates_poll_seconds": 2.0,
        "stale": None,
    }
    assert health.status_code == 200
