"""The service's log: one JSON object a line, every line with the same head, whoever logs it (uvicorn, the access
log, the data's reloads, a failed request, a library):

    {"time":"2025-01-31T09:15:02.417Z","level":"INFO","logger":"deckcheck.access","message":"GET /healthz 200",...}

`time` is UTC with milliseconds. The fields a call passes as `extra` follow as top-level keys; `request_id` is on
every line logged while a request is handled (`REQUEST_ID`, which the API sets for each request); an exception is
two fields, `exc_type` and `exception` (the whole traceback as one string), never lines of its own that a log
shipper would split. Standard library and python-json-logger only, so that the core may log without loading a web
framework."""

from __future__ import annotations

import json
import logging
import logging.config
import math
import time
from contextvars import ContextVar
from functools import partial
from typing import Any

import orjson
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonEncoder
from pythonjsonlogger.orjson import OrjsonFormatter

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
"""The id of the request being handled, where one is."""

_HEAD = "%(asctime)s %(levelname)s %(name)s %(message)s"
_NAMES = {"asctime": "time", "levelname": "level", "name": "logger", "exc_info": "exception"}
# uvicorn passes each message again with terminal colours; Python 3.12 adds the task's name to every record.
_LEFT_OUT = ("color_message", "taskName")


class JsonLines(OrjsonFormatter):
    """A record as one line of JSON (the module's docstring): compact, so that `grep '"outcome":"failed"'` finds a
    failed reload, and in UTF-8, so that a Japanese file name reads as itself. Written by orjson, which takes a
    third of the time the standard library's `json` takes over an access line (docs/benchmarks.md, The web edge);
    a record orjson cannot write (a file name the file system gave as surrogates, an integer past 64 bits) is
    written by `json`, as it always was."""

    def __init__(self) -> None:
        super().__init__(_HEAD, rename_fields=_NAMES, reserved_attrs=[*RESERVED_ATTRS, *_LEFT_OUT])
        self.second, self.head = -1, ""  # the last second written, and its date and time
        self.fallback = partial(json.dumps, separators=(",", ":"), ensure_ascii=False, cls=JsonEncoder)

    def jsonify_log_record(self, log_data: dict[str, Any]) -> str:
        try:
            return super().jsonify_log_record(log_data)
        except orjson.JSONEncodeError:
            return self.fallback(log_data)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """The record's time in UTC, to the millisecond: 2025-01-31T09:15:02.417Z, the time `datetime.fromtimestamp`
        reads (the fraction rounded to the microsecond, half to even), its date and second written once a second: a
        third of an access line's formatting was the datetime's."""
        fraction, whole = math.modf(record.created)
        micro = round(fraction * 1e6)
        second = int(whole) + micro // 1_000_000
        if second != self.second:
            self.second, self.head = second, time.strftime("%Y-%m-%dT%H:%M:%S.", time.gmtime(second))
        return f"{self.head}{micro % 1_000_000 // 1000:03d}Z"

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]) -> None:
        """The head and the record's own fields, then the request's id, then the exception's type and traceback."""
        super().add_fields(log_data, record, message_dict)
        exception = log_data.pop("exception", None)
        request_id = REQUEST_ID.get()
        if request_id is not None:
            log_data.setdefault("request_id", request_id)
        if exception is not None:
            if record.exc_info and record.exc_info[0] is not None:
                kind = record.exc_info[0]
                log_data["exc_type"] = kind.__qualname__ if kind.__module__ == "builtins" else _qualified(kind)
            log_data["exception"] = exception


def _qualified(kind: type[BaseException]) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def json_lines() -> JsonLines:
    """The formatter of a serving process's log. Python's warnings (a decompression bomb's, say) go to the log as
    lines too (logger `py.warnings`) rather than as text of their own: here, because every serving process, each of
    `--workers N` included, builds its formatter from the configuration (`config`), and runs no other code of ours
    before it logs."""
    logging.captureWarnings(True)
    # No line says where it was logged from, or on which thread or process (RESERVED_ATTRS leaves them out), so
    # logging need not look them up for every record (the logging HOWTO, Optimization): a fifth of an access line's
    # cost.
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    return JsonLines()


def config() -> dict[str, Any]:
    """The logging configuration (logging.config.dictConfig, as uvicorn's log_config) of `deckcheck serve`: every
    line on stderr through `json_lines`. The service's loggers (deckcheck.*) write from INFO; uvicorn's own from
    INFO or the level uvicorn is given; any other library's from WARNING. uvicorn's access lines are off: the API
    writes its own, with the request id (api/middleware/observe.py)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "deckcheck.logs.json_lines"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "loggers": {
            "deckcheck": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": [], "level": "INFO", "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": "WARNING"},
    }


def configure() -> None:
    """Configure this process's logging as `config` says, before it logs anything."""
    logging.config.dictConfig(config())
