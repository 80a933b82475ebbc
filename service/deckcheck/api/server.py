"""Serving the app with uvicorn on its httptools protocol (llhttp, the parser in C that Node.js uses): connection
timeouts and limits from the settings, JSON logs, and request heads the server cannot read answered in problem+json
like every other error. bench.edge chose it: on uvicorn's h11 protocol (pure Python) the server's own part of a
request was most of a card lookup's or a /healthz's cost (docs/benchmarks.md, The web edge).

uvicorn leaves three kinds of client to the proxy in front, and the service is often run with none (a desk laptop,
a small site), so its protocol here handles them itself, as nginx does:
- a connection that sends no whole request head within DECKCHECK_HEAD_TIMEOUT seconds is closed (nginx's
  client_header_timeout), with a 408 when part of a head came;
- a new connection past DECKCHECK_MAX_CONNECTIONS closes the one idle longest (nginx reuses idle keep-alive
  connections so): idle connections never deny service to a new one, /healthz's included;
- a connection whose client reads nothing of its answer for DECKCHECK_SEND_TIMEOUT seconds is dropped (nginx's
  send_timeout), so the request behind it, a recheck's slot above all, is freed.

With `--workers N` uvicorn's supervisor runs the workers (`Workers`, `Worker`), with two changes: a worker still
starting is not taken for a hung one, and a worker ends when its supervisor is gone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus
from typing import Any

import httptools
import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess
from uvicorn.supervisors.multiprocess import Process

from deckcheck import logs
from deckcheck.api.middleware.admission import HEAD_READ
from deckcheck.api.middleware.limits import BODY_READ, head_too_large
from deckcheck.api.middleware.observe import new_request_id
from deckcheck.api.problems import PROBLEM_JSON, problem_body
from deckcheck.config import Settings


def _raw_problem(status: int, detail: str, kind: str) -> bytes:
    """A whole problem+json answer that closes the connection, written where no request could be read (a head that
    is malformed, too large or too slow), so with a request id of its own."""
    request_id = new_request_id()
    body = problem_body(status, detail, kind=kind, request_id=request_id)
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: {PROBLEM_JSON}\r\n"
        f"content-length: {len(body)}\r\nx-request-id: {request_id}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class Idle:
    """One server's connections waiting for a request head, the one idle longest first, and how many of them are
    closing to make room for new ones (they count among the server's connections until they are gone)."""

    def __init__(self) -> None:
        self.waiting: dict[ProblemProtocol, None] = {}
        self.closing: set[ProblemProtocol] = set()

    def make_room(self, connections: int, most: int) -> None:
        """Close the longest idle connections until `connections`, less those closing, is under `most`."""
        while connections - len(self.closing) >= most and self.waiting:
            victim = next(iter(self.waiting))
            del self.waiting[victim]
            self.closing.add(victim)
            victim.timeout_keep_alive_handler()  # closes it, as an idle keep-alive connection is closed

    def forget(self, connection: ProblemProtocol) -> None:
        """A connection has gone."""
        self.waiting.pop(connection, None)
        self.closing.discard(connection)


@dataclass(frozen=True)
class Bounds:
    """What one server holds its connections to, and its record of idle ones."""

    head_timeout: float
    send_timeout: float
    max_connections: int
    max_head: int
    idle: Idle = field(default_factory=Idle)


class ProblemProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol on httptools (llhttp, in C), answering a head it cannot read with problem+json
    (400) or one that passes DECKCHECK_MAX_HEAD_BYTES before it ends with 431, and holding slow, silent and idle
    connections to the bounds of the settings (the module's docstring).

    httptools keeps a header it is reading until it ends, so the head's bytes are counted as they arrive: every byte
    of a read that comes while a head is unfinished is the head's; of the read in which a head begins after another
    request's body, what the parser has made of it so far (at most one read, 256 KiB, uncounted)."""

    def __init__(self, *args: Any, bounds: Bounds, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds = bounds
        self.head_timer: asyncio.TimerHandle | None = None
        self.send_timer: asyncio.TimerHandle | None = None
        self.head: int | None = None  # bytes of the unfinished head the parser has handed on; None: no head begun
        self.head_read = 0  # bytes read while the head was unfinished
        self.begun = 0  # requests begun on the connection
        self.between = True  # no request is being read: the next byte begins a head

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Take the connection, closing the longest idle ones when there are too many, and time its head."""
        super().connection_made(transport)
        self.bounds.idle.make_room(len(self.connections), self.bounds.max_connections)
        self.bounds.idle.waiting[self] = None
        self.head_timer = self.loop.call_later(self.bounds.head_timeout, self._head_timed_out)

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does (its data_received, with a word of its own for a method the parser does not know),
        counting an unfinished head's bytes; a head begun after a keep-alive pause is timed from its first byte."""
        reading_head, between, begun = self.head is not None, self.between, self.begun
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserInvalidMethodError:
            # llhttp reads the methods it knows (those of HTTP and WebDAV), where h11 read any token: a request of
            # another (BREW) never reaches the app's 405.
            self._close(_raw_problem(400, "The request method is not one the server reads.", "malformed-head"))
            return
        except httptools.HttpParserError:
            self.send_400_response("")
            return
        except httptools.HttpParserUpgrade:  # no WebSocket here: the request is answered as any other
            pass
        if self.head is None or self.transport.is_closing():
            return
        if reading_head or (between and self.begun == begun + 1):
            self.head_read += len(data)  # the whole read is this head's (but for a line end before it)
        else:
            self.head_read = self.head  # begun after a body's end in this read: as far as the parser has come
        if max(self.head_read, self.head) > self.bounds.max_head:
            self._close(_raw_problem(431, head_too_large(self.bounds.max_head), "head-too-large"))
        elif self.head_timer is None:
            self.head_timer = self.loop.call_later(self.bounds.head_timeout, self._head_timed_out)

    def on_message_begin(self) -> None:
        """A request begins: its head is counted from here."""
        super().on_message_begin()
        self.head, self.head_read, self.between = 0, 0, False
        self.begun += 1

    def on_url(self, url: bytes) -> None:
        """A part of the request line's target."""
        super().on_url(url)
        if self.head is not None:
            self.head += len(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """A whole header line."""
        super().on_header(name, value)
        if self.head is not None:
            self.head += len(name) + len(value) + 4

    def on_headers_complete(self) -> None:
        """The head is whole: the request is no longer idle, and its head no longer timed; when it was read is told
        to the app (a small check runs on the loop unless the loop is behind: api/middleware/admission.py)."""
        self.scope.setdefault("extensions", {})[HEAD_READ] = {"at": time.monotonic()}
        self.head = None
        self.bounds.idle.waiting.pop(self, None)
        self._cancel_head_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The request has been read whole: where that is before the app reads its body, it is told so, and reads it
        without a timer (api/middleware/limits.py)."""
        self.between = True
        self.scope["extensions"][BODY_READ] = {}
        super().on_message_complete()

    def on_response_complete(self) -> None:
        """Idle again once an answer is sent: the keep-alive timeout runs, and the connection may be reused."""
        super().on_response_complete()
        if not self.transport.is_closing() and self.between and self.head is None:
            self.bounds.idle.waiting[self] = None

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection and its timers."""
        self.bounds.idle.forget(self)
        self._cancel_head_timer()
        self._cancel_send_timer()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The client has stopped reading for now: drop it if it reads nothing for the send timeout."""
        super().pause_writing()
        if self.send_timer is None:
            self.send_timer = self.loop.call_later(self.bounds.send_timeout, self.transport.abort)

    def resume_writing(self) -> None:
        """The client reads again."""
        super().resume_writing()
        self._cancel_send_timer()

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if self.transport.is_closing():
            return
        if self.head is not None:  # part of a head came: say why the connection ends
            detail = f"The request head did not arrive whole within {self.bounds.head_timeout:g} seconds."
            self.transport.write(_raw_problem(408, detail, "head-timeout"))
        self.transport.close()

    def _cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _cancel_send_timer(self) -> None:
        if self.send_timer is not None:
            self.send_timer.cancel()
            self.send_timer = None

    def send_400_response(self, msg: str) -> None:
        """Answer a request head that cannot be read, then close the connection."""
        self._close(_raw_problem(400, "The request head is not HTTP/1.1 the server can read.", "malformed-head"))

    def _close(self, answer: bytes) -> None:
        self.transport.write(answer)
        self.transport.close()


def server_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options `deckcheck serve` runs the app with (beside host, port and workers)."""
    return {
        # A partial of the class, not a class made for the settings: `--workers` pickles it to each process.
        "http": partial(
            ProblemProtocol,
            bounds=Bounds(
                settings.head_timeout, settings.send_timeout, settings.max_connections, settings.max_head_bytes
            ),
        ),
        # The asyncio loop, not uvloop when it happens to be installed: every install runs the same loop.
        "loop": "asyncio",
        "ws": "none",  # no route speaks WebSocket: an Upgrade is an ordinary request
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": settings.keep_alive_timeout,
        "timeout_graceful_shutdown": settings.shutdown_timeout,
        "access_log": False,  # the app writes its own JSON lines, with the request id
        "log_config": logs.config(),  # every line JSON, uvicorn's own included
        "log_level": settings.log_level,
        "server_header": False,
    }


SUPERVISOR_LOG = logging.getLogger("uvicorn.error")  # where uvicorn's supervisor and workers say what they do
# A worker that has not started serving this many seconds after it was started is hung; one that has not answered
# the supervisor yet is still starting (loading Python and the data takes seconds, and many more on a busy machine).
START_SECONDS = 300.0
_PARENT_LOOK = 0.25  # seconds between a worker's looks at whether its supervisor is still there


class Worker(Process):
    """One worker of `deckcheck serve --workers N`: uvicorn's worker process, with two changes.

    - Until it has said it serves, the supervisor's looks at it do not wait for its answer: a new process answers
      only once Python and the server's modules are loaded, and says it serves once the data are, which takes
      seconds, more on a busy machine, where uvicorn would count it dead after `timeout_worker_healthcheck` seconds
      and start another, again and again. It is hung only if it has not started serving START_SECONDS after it
      was started; once it serves, uvicorn's health check applies.
    - It stops within a second of its supervisor's end, however the supervisor ended (SIGKILL too): the port
      closed at once (no drain: no supervisor is left to wait for), running requests given the shutdown timeout.
      Else it would go on serving, holding the port, with no one to stop it, and a restart could not bind."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
        super().__init__(config, sockets)
        self.supervisor = os.getpid()
        self.deadline = time.monotonic() + START_SECONDS  # in the supervisor's clock
        self.serving = False  # it has said so to the supervisor
        self.asked = False  # the supervisor has asked whether it serves, and not read the answer yet

    def target(self, sockets: list[socket.socket] | None = None) -> None:  # pragma: no cover - in the worker
        """Run the server, and watch for the supervisor's end meanwhile."""
        server = self.server
        threading.Thread(target=self._orphaned, args=(server,), name="supervisor-watch", daemon=True).start()
        super().target(sockets)

    def _orphaned(self, server: uvicorn.Server) -> None:  # pragma: no cover - in the worker
        """Wait until the supervisor is gone (this process is handed to another parent), then stop the server."""
        while os.getppid() == self.supervisor:
            time.sleep(_PARENT_LOOK)
        SUPERVISOR_LOG.warning(
            f"Supervisor [{self.supervisor}] is gone; stopping worker [{os.getpid()}]",
            extra={"event": "supervisor_gone"},
        )
        server.should_exit = True

    def starting(self, wait: float = 0) -> bool:
        """Whether the worker is still starting: alive, not yet serving, and within START_SECONDS of its start.
        Asks it whether it serves (once: an answer not read yet is waited for, not asked for again, so that every
        answer read is the answer to the question before) and reads the answer if it comes within `wait` seconds."""
        if self.serving or time.monotonic() >= self.deadline or not self.process.is_alive():
            return False
        try:
            if not self.asked:
                self.parent_conn.send(b"ping")
                self.asked = True
            if self.parent_conn.poll(wait):
                self.asked = False
                self.serving = bool(self.parent_conn.recv())
        except (OSError, EOFError):
            return False
        return not self.serving

    def is_alive(self, timeout: float = 5) -> bool:
        """Alive while it starts (`starting`, not waited for); once it serves, uvicorn's health check."""
        return self.starting() or super().is_alive(timeout)

    def is_ready(self, timeout: float = 5) -> bool:
        """Whether the worker serves, its answer waited for up to `timeout` seconds, as uvicorn does. An answer to a
        question asked before this call is read first and not believed if it says "not yet": the worker may have
        started since (a SIGHUP just after its start would pass it by, and it would serve the old data)."""
        if not self.serving and self.asked:
            self.starting(timeout)  # the answer pending, whatever it says; the question is asked again below
        return not self.starting(timeout) and super().is_ready(timeout)


class Workers(Multiprocess):
    """uvicorn's supervisor of worker processes (`deckcheck serve --workers N`), its workers each a `Worker`, except
    that SIGHUP reloads every worker's data in place (api/live_data.py) instead of replacing the workers: no request is
    cut, a recheck stream keeps its data to its end, and a reload takes the load's time, not a start-up's."""

    def init_processes(self) -> None:
        """Start the workers."""
        for _ in range(self.processes_num):
            self.processes.append(self._started())

    def keep_subprocess_alive(self) -> None:
        """uvicorn's look at each worker, every half second: one that has ended, or is hung (`Worker.is_alive`), is
        replaced; one that ended before it could serve stops the supervisor, since its replacement would fail the
        same way."""
        if self.should_exit.is_set():
            return
        for index, process in enumerate(self.processes):
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()  # hung, or ended already
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                SUPERVISOR_LOG.error(f"Child process [{process.pid}] failed to start, stopping the parent process.")
                self.should_exit.set()
                return
            SUPERVISOR_LOG.info(f"Child process [{process.pid}] died")
            self.processes[index] = self._started()

    def handle_ttin(self) -> None:
        """SIGTTIN: one worker more, as uvicorn does."""
        SUPERVISOR_LOG.info("Received SIGTTIN, increasing the number of processes.")
        self.processes_num += 1
        self.processes.append(self._started())

    def _started(self) -> Worker:
        worker = Worker(self.config, self.sockets)
        worker.start()
        return worker

    def handle_hup(self) -> None:
        """Hand SIGHUP on to each worker that has started. One still starting would die of it (SIGHUP ends a
        process that has not yet taken it); it reads the files as they are once it runs (api/live_data.py)."""
        for process in self.processes:
            if process.pid is not None and process.is_ready(self.config.timeout_worker_healthcheck):
                os.kill(process.pid, signal.SIGHUP)


def serve_workers(app: str, host: str, port: int, workers: int, options: dict[str, Any]) -> None:
    """Serve the app at import string `app` from `workers` processes sharing one socket, as uvicorn.run does."""
    config = uvicorn.Config(app, host=host, port=port, workers=workers, **options)
    Workers(config, sockets=[config.bind_socket()]).run()
