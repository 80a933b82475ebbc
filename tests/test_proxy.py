"""nginx in front of the service, as deployed (deploy/nginx.conf), over real HTTP: Debian's nginx runs the
configuration, rendered onto free loopback ports with the client timeouts cut to 2 s, in front of the test server.
It passes ordinary requests through, and rechecks whole (the body first, then the answer, however large either), and
keeps from the service what a Python server should never see: slowloris heads, stalled bodies, oversized heads and
bodies."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from bench.corpus import Corpus
from deckcheck import Data
from deckcheck.events import EventStore
from deckcheck.wire.answers.examples import SMALL_YDKE

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "deploy" / "nginx.conf"
CLIENT_TIMEOUT = 2  # seconds: client_header_timeout and client_body_timeout in the rendered configuration
DECK = {"main": [{"passcode": 55144522, "count": 1}], "date": "2008-06-01"}
RECHECK = "/v1/rechecks?date=2008-06-01"
SLOW_CLIENTS = 200


def _nginx() -> str | None:
    found = shutil.which("nginx")
    if found is None and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    return found


def render(conf: str, *, port: int, upstream: int, prefix: Path) -> str:
    """deploy/nginx.conf on loopback ports, with its temporary files under `prefix`, run by whoever starts it, and
    client timeouts short enough to watch. Every rewrite must hit, so a changed configuration fails here, loudly."""
    rewrites = [
        (r"(?m)^user \S+;\n", "", 1),
        (r"listen 8080 default_server;", f"listen 127.0.0.1:{port} default_server;", 1),
        (r"server deckcheck:8000 resolve;", f"server 127.0.0.1:{upstream};", 1),
        (r"(\w+)_temp_path \S+;", rf"\1_temp_path {prefix}/temp/\1;", 5),
        (r"proxy_cache_path \S+", f"proxy_cache_path {prefix}/cache", 1),
        (r"(?m)^    client_header_timeout \S+;", f"    client_header_timeout {CLIENT_TIMEOUT}s;", 1),
        (r"(?m)^    client_body_timeout \S+;", f"    client_body_timeout {CLIENT_TIMEOUT}s;", 1),
    ]
    for pattern, replacement, count in rewrites:
        conf, made = re.subn(pattern, replacement, conf)
        assert made == count, f"deploy/nginx.conf: {pattern!r} matched {made} times, not {count}"
    return conf


@dataclass
class Proxy:
    """A running nginx in front of the test server."""

    url: str
    port: int
    upstream: int
    access_log: Path

    def log(self, request_id: str, timeout: float = 15) -> dict[str, Any]:
        """The access log line of the request with this id (nginx writes it just after answering)."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.access_log.read_bytes().splitlines():
                entry: dict[str, Any] = orjson.loads(line)
                if entry["request_id"] == request_id:
                    return entry
            assert time.monotonic() < deadline, f"no access log line for request {request_id}"
            time.sleep(0.05)


@contextlib.contextmanager
def running_proxy(upstream: int, port: int) -> Iterator[Proxy]:
    """Debian's nginx, not a daemon, with the rendered configuration in a fresh prefix, on `port` in front of the
    server on port `upstream`."""
    nginx = _nginx()
    if nginx is None:
        if os.geteuid() != 0:
            pytest.skip("nginx is not installed and only root can install it (bash scripts/system-deps)")
        pytest.fail("nginx is not installed: run `bash scripts/system-deps` (scripts/check does)")
    # Not tmp_path: when root starts nginx its workers run as nobody, who must reach the temporary folders.
    prefix = Path(tempfile.mkdtemp(prefix="deckcheck-nginx-"))
    prefix.chmod(0o755)
    (prefix / "temp").mkdir()
    conf = prefix / "nginx.conf"
    conf.write_text(render(CONF.read_text(encoding="utf-8"), port=port, upstream=upstream, prefix=prefix))
    access_log, error_log = prefix / "access.log", prefix / "error.log"
    argv = [nginx, "-p", f"{prefix}/", "-c", str(conf), "-e", "stderr", "-g", f"daemon off; pid {prefix}/nginx.pid;"]
    with access_log.open("wb") as out, error_log.open("wb") as err:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"nginx did not start: {error_log.read_text(errors='replace')}")
            time.sleep(0.05)
        yield Proxy(url=url, port=port, upstream=upstream, access_log=access_log)
    finally:
        process.terminate()  # SIGTERM: nginx's fast shutdown, workers included
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
        shutil.rmtree(prefix, ignore_errors=True)


@pytest.fixture
def proxy(base_url: str, free_port: int) -> Iterator[Proxy]:
    """nginx in front of the test server."""
    with running_proxy(int(base_url.rsplit(":", 1)[1]), free_port) as running:
        yield running


def _established(port: int) -> int:
    """TCP connections ESTABLISHED on the local port `port`: the server's side of each connection to it. The kernel
    writes /proc/net/tcp a chunk at a time, not as a snapshot, so while sockets open and close a row can come twice:
    connections are counted once each, by their two addresses."""
    connections: set[tuple[str, str]] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for row in rows:
            fields = row.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                connections.add((fields[1], fields[2]))
    return len(connections)


def _problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "errors"} <= body.keys()
    assert body["status"] == status
    assert body["type"].startswith("urn:deckcheck:problem:")
    assert body["request_id"] == response.headers["x-request-id"]
    # A page that called the service through the proxy can read why it was refused.
    assert response.headers["access-control-allow-origin"] == "*"
    return body


def test_a_validation_answers_the_same_through_the_proxy(proxy: Proxy, client: httpx.Client) -> None:
    direct = client.post("/v1/validate", json=DECK)
    with httpx.Client(base_url=proxy.url, timeout=30) as http:
        sent = f"proxy-{uuid.uuid4().hex}"
        through = http.post("/v1/validate", json=DECK, headers={"X-Request-ID": sent})
        anonymous = http.post("/v1/validate", json=DECK)
    assert direct.status_code == through.status_code == 200
    assert through.headers["content-type"] == direct.headers["content-type"]
    assert through.json() == direct.json()
    # The X-Request-ID that comes back is the one sent (the service's echo, or nginx's own on /v1/validate, where a
    # kept answer holds its first asker's).
    assert through.headers.get_list("x-request-id") == [sent]
    entry = proxy.log(sent)
    assert entry["status"] == 200
    assert entry["method"] == "POST"
    assert entry["upstream_addr"] == f"127.0.0.1:{proxy.upstream}"
    assert entry["upstream_status"] == "200"
    assert float(entry["upstream_response_time"]) >= 0
    # Without one, nginx makes an id, sends it on and logs it.
    made = anonymous.headers.get("x-request-id")
    if made is not None:
        assert re.fullmatch(r"[0-9a-f]{32}", made)
        assert proxy.log(made)["upstream_status"] == "200"


def test_a_page_of_another_origin_calls_and_caches_through_the_proxy(proxy: Proxy) -> None:
    origin = {"Origin": "https://decks.example"}
    with httpx.Client(base_url=proxy.url, timeout=30) as http:
        asked = {**origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
        preflight = http.options("/v1/validate", headers=asked)
        checked = http.post("/v1/validate", json=DECK, headers=origin)
        card = http.get("/v1/cards/55144522", headers=origin)
        again = http.get("/v1/cards/55144522", headers={**origin, "If-None-Match": card.headers["etag"]})
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "content-type" in preflight.headers["access-control-allow-headers"].lower()
    assert checked.status_code == 200
    assert checked.headers["access-control-allow-origin"] == "*"
    assert "Deckcheck-Data-Version" in checked.headers["access-control-expose-headers"]
    assert (again.status_code, again.content) == (304, b"")
    assert again.headers["etag"] == card.headers["etag"]


@dataclass
class Slowloris:
    """`count` connections that each send a request head a few bytes at a time and never finish it. While
    `reconnect` is set, each connection nginx closes is opened again, so the attack keeps its strength."""

    port: int
    count: int
    reconnect: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    sockets: list[socket.socket] = field(default_factory=list)
    closed_by_server: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def connect(self) -> None:
        """Open connections until there are `count`, each with the start of a request head."""
        while len(self.sockets) < self.count:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
            sock.setblocking(False)
            sock.send(b"POST /v1/validate HTTP/1.1\r\nHost: deckcheck\r\n")
            self.sockets.append(sock)

    def run(self) -> None:
        tick = 0
        while not self.stop.is_set():
            with self.lock:
                if self.reconnect.is_set():
                    self.connect()
                still: list[socket.socket] = []
                for sock in self.sockets:
                    if self._closed(sock):
                        self.closed_by_server += 1
                        sock.close()
                        continue
                    try:
                        sock.send(b"X-%d: y\r\n" % tick)  # a few bytes, never the blank line that ends the head
                    except OSError:
                        self.closed_by_server += 1
                        sock.close()
                        continue
                    still.append(sock)
                self.sockets[:] = still
            tick += 1
            self.stop.wait(0.5)  # well inside the 2 s header timeout: each connection keeps sending
        with self.lock:
            for sock in self.sockets:
                sock.close()

    @staticmethod
    def _closed(sock: socket.socket) -> bool:
        try:
            return sock.recv(4096) == b""  # nginx closed it (a slow head gets no answer)
        except BlockingIOError:
            return False
        except OSError:
            return True  # reset

    def live(self) -> int:
        with self.lock:
            return len(self.sockets)


def test_slowloris_neither_blocks_requests_nor_reaches_the_service(proxy: Proxy) -> None:
    attack = Slowloris(proxy.port, SLOW_CLIENTS)
    attack.reconnect.set()
    with attack.lock:
        attack.connect()
    thread = threading.Thread(target=attack.run, daemon=True)
    thread.start()
    try:
        live: list[int] = []
        upstream: list[int] = []
        # At least 20 requests, and on until nginx has closed a whole wave of slow clients and the next is on.
        deadline = time.monotonic() + 60

        def attacking() -> bool:
            wave_over = attack.closed_by_server >= SLOW_CLIENTS and attack.live() >= SLOW_CLIENTS * 3 // 4
            return not wave_over and time.monotonic() < deadline

        with httpx.Client(base_url=proxy.url, timeout=30) as http:
            while len(live) < 20 or attacking():
                live.append(attack.live())
                assert http.post("/v1/validate", json=DECK).status_code == 200
                upstream.append(_established(proxy.upstream))
        # The attack was on while the requests went through, and the service held a few connections, not one a
        # slow client: nginx passes on only whole heads.
        assert max(live) >= SLOW_CLIENTS * 3 // 4
        assert max(upstream) <= 10
        # nginx closed slow heads after client_header_timeout, however steadily their bytes came; now the rest.
        assert attack.closed_by_server >= SLOW_CLIENTS
        attack.reconnect.clear()
        deadline = time.monotonic() + 30
        while attack.live() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert attack.live() == 0
    finally:
        attack.stop.set()
        thread.join(timeout=10)


@pytest.mark.parametrize(
    ("path", "framing", "start"),
    [
        ("/v1/validate", "Content-Type: application/json\r\nContent-Length: 100000", b'{"main": ['),
        # A recheck too: nginx reads its whole body before a replica sees it.
        (
            RECHECK,
            "Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked",
            b'20\r\n{"id": 1, "ydke": "ydke://!!!"}\n\r\n',
        ),
    ],
    ids=["validate", "rechecks"],
)
def test_a_stalled_body_is_dropped_before_the_service(proxy: Proxy, path: str, framing: str, start: bytes) -> None:
    request_id = f"stall-{uuid.uuid4().hex}"
    head = f"POST {path} HTTP/1.1\r\nHost: deckcheck\r\n{framing}\r\nX-Request-ID: {request_id}\r\n\r\n"
    answer = b""
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=30) as sock:
        sock.sendall(head.encode() + start)  # the start of the body, then nothing
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass  # reset_timedout_connection: nginx resets a timed-out client
    # nginx answers a timed-out body with a close (or, configured otherwise, a 408) and logs 408.
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408 ")
    entry = proxy.log(request_id)
    assert entry["status"] == 408
    assert entry["upstream_addr"] == ""  # the service never saw the request


def test_a_body_over_the_limit_gets_413_from_nginx(proxy: Proxy) -> None:
    request_id = f"big-{uuid.uuid4().hex}"
    body = b"[" + b" " * (2 * 1024 * 1024) + b"]"
    with httpx.Client(base_url=proxy.url, timeout=30) as http:
        response = http.post(
            "/v1/validate", content=body, headers={"Content-Type": "application/json", "X-Request-ID": request_id}
        )
    problem = _problem(response, 413)
    assert problem["type"] == "urn:deckcheck:problem:body-too-large"
    assert problem["detail"] == "The request body is larger than 1048576 bytes."
    assert problem["request_id"] == request_id
    assert proxy.log(request_id)["upstream_addr"] == ""
    # Rechecks take up to 1 GiB; nginx refuses a larger one as soon as its head announces it.
    head = f"POST {RECHECK} HTTP/1.1\r\nHost: deckcheck\r\nX-Request-ID: {request_id}-r\r\n"
    head += f"Content-Length: {2**30 + 1}\r\n\r\n"
    problem = _problem(_raw(proxy.port, head.encode()), 413)
    assert problem["detail"] == "The request body is larger than 1073741824 bytes."
    assert proxy.log(f"{request_id}-r")["upstream_addr"] == ""


def _response(answer: bytes) -> httpx.Response:
    """The response in `answer`, a whole HTTP/1.1 response as read from the socket, its body de-chunked."""
    start, rest = answer.split(b"\r\n\r\n", 1)
    status, *lines = start.decode("latin-1").split("\r\n")
    headers = [(name, value) for name, value in (line.split(": ", 1) for line in lines)]
    chunked = any(name.lower() == "transfer-encoding" and value == "chunked" for name, value in headers)
    body = bytearray() if chunked else bytearray(rest)
    at = 0
    while chunked:
        end = rest.index(b"\r\n", at)
        size = int(rest[at:end].split(b";")[0], 16)
        body += rest[end + 2 : end + 2 + size]
        at = end + 2 + size + 2
        chunked = size > 0
    headers = [(name, value) for name, value in headers if name.lower() != "transfer-encoding"]
    return httpx.Response(int(status.split()[1]), headers=headers, content=bytes(body))


def _raw(port: int, head: bytes) -> httpx.Response:
    """The answer to a request head httpx would not send, read until nginx closes the connection or the whole body
    its Content-Length announces is in (after a 413 nginx keeps the connection a while for the body it discards)."""
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head)
        while chunk := sock.recv(65536):
            answer += chunk
            start, blank, body = answer.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length: *(\d+)\r?$", start)
            if blank and length and len(body) >= int(length[1]):
                break
    return _response(answer)


def _exchange(port: int, path: str, body: bytes, headers: dict[str, str]) -> httpx.Response:
    """POST `body` while reading the answer, as a full-duplex client does (httpx sends the whole body first, which
    a server streaming a large answer back would block), and return the whole answer."""
    head = f"POST {path} HTTP/1.1\r\nHost: deckcheck\r\nContent-Length: {len(body)}\r\nConnection: close\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items()) + "\r\n"
    chunks: list[bytes] = []
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:

        def send() -> None:
            with contextlib.suppress(OSError):  # the server stopped reading: what it answered tells why
                sock.sendall(head.encode() + body)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        while chunk := sock.recv(1 << 20):
            chunks.append(chunk)
        sender.join(timeout=60)
    return _response(b"".join(chunks))


def test_a_head_over_the_limit_gets_a_problem_from_nginx(proxy: Proxy) -> None:
    with httpx.Client(base_url=proxy.url, timeout=30) as http:
        header = http.get("/healthz", headers={"X-Padding": "a" * 70_000})
        within = http.get("/healthz", headers={"X-Padding": "a" * 40_000, "X-Request-ID": "head-within"})
    request_line = _raw(proxy.port, b"GET /healthz?padding=%s HTTP/1.1\r\nHost: deckcheck\r\n\r\n" % (b"a" * 70_000))
    assert _problem(header, 431)["type"] == "urn:deckcheck:problem:request-header-fields-too-large"
    assert _problem(request_line, 414)["type"] == "urn:deckcheck:problem:request-uri-too-long"
    # A head under 64 KiB passes nginx; what it gets is the service's business.
    assert within.status_code != 431
    assert proxy.log("head-within")["upstream_addr"] == f"127.0.0.1:{proxy.upstream}"


def _head(sock: socket.socket) -> bytes:
    """The next response head read from `sock` (nothing beyond it is expected yet)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(65536)
        assert chunk, "the proxy closed the connection"
        answer += chunk
    return answer


def test_the_flood_guard_limits_rechecks_per_address(proxy: Proxy) -> None:
    head = (
        f"POST {RECHECK} HTTP/1.1\r\nHost: deckcheck\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
    ).encode()
    held: list[socket.socket] = []
    try:
        for _ in range(4):  # limit_conn deckcheck_rechecks_per_ip 4: rechecks whose bodies are still coming
            sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=30)
            held.append(sock)
            sock.sendall(head)
            # nginx asks for the body once the request has passed limit_conn (and reads it before any replica).
            assert _head(sock).startswith(b"HTTP/1.1 100 Continue\r\n")
        with httpx.Client(base_url=proxy.url, timeout=30) as http:
            refused = http.post(RECHECK, content=b"")
        assert _problem(refused, 429)["type"] == "urn:deckcheck:problem:too-many-requests"
        assert refused.headers["retry-after"] == "1"
    finally:
        for sock in held:
            sock.close()


def _stored_decks(data: Data, count: int) -> bytes:
    """A recheck body of `count` stored decks (ydke links, a few hundred bytes a line) with ids 0, 1, …: real checking
    work, so the service reads the body slower than nginx can send it."""
    links = [deck.ydke().encode() for deck in Corpus(data).decks(1000)]
    return b"".join(b'{"id": %d, "ydke": "%s"}\n' % (number, links[number % len(links)]) for number in range(count))


def test_a_recheck_passes_through(proxy: Proxy, client: httpx.Client) -> None:
    body = b"".join(orjson.dumps({"id": name, "ydke": "ydke://!!!"}) + b"\n" for name in "abc")
    ndjson = {"Content-Type": "application/x-ndjson"}
    direct = client.post(RECHECK, content=body, headers=ndjson)
    with httpx.Client(base_url=proxy.url, timeout=30) as http:
        through = http.post(RECHECK, content=body, headers=ndjson)
    assert through.status_code == 200
    assert through.headers["content-type"] == "application/x-ndjson"
    assert through.content == direct.content
    results = [orjson.loads(line) for line in through.content.splitlines()]
    assert [r.get("id") for r in results[:3]] == ["a", "b", "c"]
    assert results[3]["summary"]["lines"] == 3
    # The location sets its own proxy headers, the request id among them: the service echoes the one nginx made.
    entry = proxy.log(through.headers["x-request-id"], timeout=5)
    assert entry["upstream_addr"] == f"127.0.0.1:{proxy.upstream}"
    assert entry["upstream_status"] == "200"


def test_a_large_recheck_passes_through_whole(proxy: Proxy, data: Data) -> None:
    """A body (about 15 MB) and an answer that overflow every socket buffer on the way. Were the answer to begin
    before the body was all sent, nginx would stop sending it the first time the replica's socket was full, and
    the answer would end early with the service's body_timeout line (without the hold, after some 11,000 to 13,000
    lines). nginx holds the results, whatever the client asked: its Deckcheck-Hold-Results replaces the client's.
    The answer is the one the service gives a full-duplex client directly, byte for byte."""
    count = 40_000
    body = _stored_decks(data, count)
    assert len(body) > 1024 * 1024  # over the ordinary routes' limit, too
    ndjson = {"Content-Type": "application/x-ndjson"}
    direct = _exchange(proxy.upstream, RECHECK, body, ndjson)
    sent = f"large-{uuid.uuid4().hex}"
    through = _exchange(proxy.port, RECHECK, body, ndjson | {"Deckcheck-Hold-Results": "0", "X-Request-ID": sent})
    assert direct.status_code == through.status_code == 200
    lines = through.content.splitlines()
    assert len(lines) == count + 1
    assert [orjson.loads(line)["id"] for line in lines[:count]] == list(range(count))
    assert orjson.loads(lines[count])["summary"]["lines"] == count
    assert through.content == direct.content
    entry = proxy.log(sent)
    assert entry["upstream_status"] == "200"
    assert entry["request_length"] > len(body)
    assert entry["body_bytes_sent"] > len(through.content)


def test_a_photo_of_a_sheet_passes_through_and_reads_the_same(proxy: Proxy, client: httpx.Client) -> None:
    """A phone photo is megabytes, past the 1 MiB of a JSON body: nginx takes up to the service's 20 MiB on the
    route that reads paper, and refuses more itself."""
    sheet = client.post("/v1/decks/convert", json={"main": DECK["main"], "to": "sheet"})
    assert sheet.status_code == 200
    photo = sheet.content + b"\n%" + bytes(3 * 1024 * 1024)  # a PDF may end in anything after its last %%EOF
    headers = {"Content-Type": "application/pdf"}
    direct = client.post("/v1/decks/read", content=photo, headers=headers)
    with httpx.Client(base_url=proxy.url, timeout=60) as http:
        through = http.post("/v1/decks/read", content=photo, headers=headers)
        too_large = http.post("/v1/decks/read", content=bytes(21 * 1024 * 1024), headers=headers)
    assert direct.status_code == through.status_code == 200
    assert through.json() == direct.json()
    assert through.json()["source"] == "qr"
    assert _problem(too_large, 413)["detail"] == "The request body is larger than 20971520 bytes."


def test_an_event_through_the_proxy_keeps_names_and_tokens_out_of_its_log(proxy: Proxy) -> None:
    """The event routes pass nginx with their methods, bodies and answers, no answer is cached on the way, and the
    access log records an event route's path alone: no player's name searched for, no token."""
    store = EventStore.open(None)  # the database of the test server, whose settings name none
    try:
        event = store.create_event("Summer regional", dt.date(2008, 6, 1), "ocg", None)
        desk, _label = store.issue_token(event.id, "desk")
    finally:
        store.close()
    auth = {"Authorization": f"Bearer {desk}"}
    players = f"/v1/events/{event.id}/players"
    with httpx.Client(base_url=proxy.url, timeout=30) as http:
        sent = f"event-{uuid.uuid4().hex}"
        made = http.put(f"{players}/0042", json={"name": "山田 太郎", "deck": {"ydke": SMALL_YDKE}}, headers=auth)
        found = http.get(players, params={"q": "山田"}, headers={**auth, "X-Request-ID": sent})
        again = http.get(players, params={"q": "山田"}, headers=auth)
    assert (made.status_code, made.headers["cache-control"]) == (201, "no-store")
    assert [p["name"] for p in found.json()["players"]] == ["山田 太郎"]
    assert "x-cache-status" not in again.headers
    entry = proxy.log(sent)
    assert (entry["uri"], entry["status"]) == (players, 200)
    logged = proxy.access_log.read_text(encoding="utf-8")
    for secret in ("山田", "%E5%B1%B1", desk):
        assert secret not in logged
