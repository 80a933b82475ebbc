"""Serving the app with uvicorn: connection timeouts and limits from the settings, JSON access logs, and request
heads the server cannot read answered in problem+json like every other error."""

from __future__ import annotations

import os
import signal
import uuid
from typing import Any

import h11
import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.supervisors import Multiprocess

from deckcheck.api.middleware.limits import head_too_large
from deckcheck.api.problems import PROBLEM_JSON, problem_body
from deckcheck.config import Settings


class ProblemH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, answering a head it cannot read with problem+json: 431 when it is larger than
    the limit (DECKCHECK_MAX_HEAD_BYTES), else 400."""

    def send_400_response(self, msg: str) -> None:
        """Answer a request head that cannot be read, then close the connection."""
        limit = self.config.h11_max_incomplete_event_size or 0  # server_options always sets it
        request_id = uuid.uuid4().hex  # the head could not be read, so neither could a request id in it
        if len(self.conn.trailing_data[0]) > limit:
            status, detail, kind = 431, head_too_large(limit), "head-too-large"
        else:
            status, detail, kind = 400, "The request head is not HTTP/1.1 the server can read.", "malformed-head"
        body = problem_body(status, detail, kind=kind, request_id=request_id)
        headers = [
            (b"x-request-id", request_id.encode()),
            (b"content-type", PROBLEM_JSON.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        for event in (h11.Response(status_code=status, headers=headers), h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()


def log_config() -> dict[str, Any]:
    """uvicorn's logging, with the service's JSON access-log lines (`deckcheck.access`) on stderr as written."""
    config: dict[str, Any] = {**LOGGING_CONFIG, "formatters": dict(LOGGING_CONFIG["formatters"])}
    config["formatters"]["line"] = {"format": "%(message)s"}
    config["handlers"] = {
        **LOGGING_CONFIG["handlers"],
        "lines": {"formatter": "line", "class": "logging.StreamHandler", "stream": "ext://sys.stderr"},
    }
    config["loggers"] = {
        **LOGGING_CONFIG["loggers"],
        "deckcheck.access": {"handlers": ["lines"], "level": "INFO", "propagate": False},
        "deckcheck.error": {"handlers": ["default"], "level": "INFO", "propagate": False},
        "deckcheck.data": {"handlers": ["lines"], "level": "INFO", "propagate": False},
    }
    return config


def server_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options `deckcheck serve` runs the app with (beside host, port and workers)."""
    return {
        "http": ProblemH11Protocol,
        "h11_max_incomplete_event_size": settings.max_head_bytes,
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": settings.keep_alive_timeout,
        "timeout_graceful_shutdown": settings.shutdown_timeout,
        "access_log": False,  # the app writes its own JSON lines, with the request id
        "log_config": log_config(),
        "log_level": settings.log_level,
        "server_header": False,
    }


class Workers(Multiprocess):
    """uvicorn's supervisor of worker processes (`deckcheck serve --workers N`), except that SIGHUP reloads every
    worker's data in place (api/served.py) instead of replacing the workers: no request is cut, a recheck stream
    keeps its data to its end, and a reload takes the load's time, not a start-up's."""

    def handle_hup(self) -> None:
        """Hand SIGHUP on to each worker that has started. One still starting would die of it (SIGHUP ends a
        process that has not yet taken it); it reads the files as they are once it runs (api/served.py)."""
        for process in self.processes:
            if process.pid is not None and process.is_ready(self.config.timeout_worker_healthcheck):
                os.kill(process.pid, signal.SIGHUP)


def serve_workers(app: str, host: str, port: int, workers: int, options: dict[str, Any]) -> None:
    """Serve the app at import string `app` from `workers` processes sharing one socket, as uvicorn.run does."""
    config = uvicorn.Config(app, host=host, port=port, workers=workers, **options)
    Workers(config, sockets=[config.bind_socket()]).run()
