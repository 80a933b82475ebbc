"""What the synchronous and the asynchronous client share: each operation as a request and a reader of its answer,
the one error type, the retry policy, next-page links, and the NDJSON both ways of a recheck.

No I/O happens here: `deckcheck.client.sync` and `deckcheck.client.aio` send what these functions describe.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import email.utils
import functools
import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

import httpx
import orjson
from pydantic import BaseModel, TypeAdapter, ValidationError

from deckcheck.wire.answers import Problem
from deckcheck.wire.answers.recheck import RECHECK_ANSWER_LINE, RecheckAnswerLine
from deckcheck.wire.request_values import Format

if TYPE_CHECKING:  # the request models are sent as they are, never built here: importing the client skips them
    from deckcheck.wire.requests import InlineBanlist, LflistBanlist, RecheckLine

T = TypeVar("T")
Body = BaseModel | Mapping[str, Any]
ListChoice: TypeAlias = "str | InlineBanlist | LflistBanlist | Mapping[str, Any]"
Deck: TypeAlias = "RecheckLine | Mapping[str, Any]"
CHUNK_BYTES = 64 * 1024  # request body bytes a recheck hands to the connection at once
DEFAULT_WAIT = 1.0  # seconds to wait before the first retry of a 503 that names no Retry-After


class DeckcheckError(Exception):
    """The service (or a proxy in front of it) answered with an error status.

    `status` is the HTTP status; `problem` the RFC 9457 problem body read into `Problem` (None when the answer was
    not problem+json, such as a proxy's HTML 502); `text` the body as text either way; `request_id` the answer's
    X-Request-ID, when it has one. Connection failures and timeouts are not wrapped: they are httpx's own
    exceptions (`httpx.TransportError`: `httpx.ConnectError`, `httpx.TimeoutException`, ...).
    """

    def __init__(self, status: int, problem: Problem | None, text: str, request_id: str | None) -> None:
        self.status = status
        self.problem = problem
        self.text = text
        self.request_id = request_id
        said = f"{problem.title}: {problem.detail}" if problem is not None else text[:200]
        super().__init__(f"{status} {said}" + (f" (request id {request_id})" if request_id else ""))

    @classmethod
    def of(cls, response: httpx.Response) -> DeckcheckError:
        """The error an answer stands for (its body already read)."""
        problem = None
        if response.headers.get("content-type", "").startswith("application/problem+json"):
            with contextlib.suppress(ValidationError):  # problem+json, but not the service's: no problem to read
                problem = Problem.model_validate_json(response.content)
        return cls(response.status_code, problem, response.text, response.headers.get("x-request-id"))


# Answers that say "not now": 503 from the service (every check thread busy, or a recheck too many) and 429 from
# the proxy in front of it (too many requests at once from one address, deploy/nginx.conf). Every operation but a
# recheck, which is never retried, only computes, so sending it again is safe.
RETRIED = frozenset({429, 503})


@dataclass(frozen=True, slots=True)
class Retries:
    """Retry an answer of RETRIED up to `retries` times. Before retry n (from 0) wait the seconds its Retry-After
    asks for (or 1 s when it names none) times 2**n, and as much again times a draw of `jitter` (0 to 1): never
    less than the service asked, growing while it stays busy, and spread so that clients refused together do not
    come back together. Never more than `max_wait`."""

    retries: int
    max_wait: float
    jitter: Callable[[], float] = random.random

    def delay(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before retrying after `response` to retry number `attempt` (from 0); None: no retry."""
        if response.status_code not in RETRIED or attempt >= self.retries:
            return None
        asked = _seconds(response.headers.get("retry-after", ""))
        backoff = (DEFAULT_WAIT if asked is None else asked) * 2.0**attempt
        spread: float = self.jitter()
        return min(backoff * (1 + spread), self.max_wait)


def _seconds(retry_after: str) -> float | None:
    """The wait a Retry-After asks for: delay-seconds or an HTTP-date (RFC 9110 10.2.3); None if it is neither."""
    value = retry_after.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - dt.datetime.now(dt.UTC)).total_seconds())


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """One operation: the request to send and how to read its answer."""

    method: str
    path: str
    read: Callable[[httpx.Response], T]
    params: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes | None = None


def model(kind: type[T]) -> Callable[[httpx.Response], T]:
    """A reader of an answer into `kind` (a model, or a list of models). Its validator is built on the first
    answer read, so importing the client builds none."""
    adapter = functools.cache(lambda: TypeAdapter(kind))
    return lambda response: adapter().validate_json(response.content)


def text(response: httpx.Response) -> str:
    """The answer as text."""
    return response.text


def _plain(value: Any) -> Any:
    """A request model (only the fields set, so the server's defaults stay the server's) or mapping as JSON data."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} cannot be sent as JSON")


def json_body(value: Body) -> bytes:
    """A request body: a model or a mapping (which may hold models and dates) as JSON."""
    return orjson.dumps(value, default=_plain)


def post(path: str, body: Body, read: Callable[[httpx.Response], T], lang: str | None = None) -> Call[T]:
    """A POST of a JSON body."""
    headers = {"Content-Type": "application/json"} | language(lang)
    return Call("POST", path, read, headers=headers, content=json_body(body))


def language(lang: str | None) -> dict[str, str]:
    """The headers that ask for messages in `lang` (ja or en; by default the server's, en)."""
    return {} if lang is None else {"Accept-Language": lang}


def next_page(response: httpx.Response) -> httpx.URL | None:
    """The URL of the next page an answer links to (RFC 8288 `Link: <url>; rel="next"`), resolved against the
    answer's own URL; None when there is no next page (no Link header, or none with rel next)."""
    for link in response.links.values():
        if "next" in link.get("rel", "").split():
            return response.url.join(link["url"])
    return None


def recheck_request(
    date: dt.date | str | None,
    banlist: ListChoice | None,
    previous: ListChoice | None,
    format: Format | None,
    lang: str | None,
) -> tuple[dict[str, str], dict[str, str]]:
    """The query parameters and headers of a recheck: the event, the lists and the language. A list id goes in the
    query; an inline list goes as JSON in its header (Deckcheck-Banlist, Deckcheck-Previous), escaped to ASCII,
    which a request head carries faithfully. The results are held until the body is read (see `Client.recheck`)."""
    params = {} if date is None else {"date": str(date)}
    params |= {} if format is None else {"format": format}
    headers = {"Content-Type": "application/x-ndjson", "Deckcheck-Hold-Results": "1"} | language(lang)
    for name, header, chosen in (
        ("banlist", "Deckcheck-Banlist", banlist),
        ("previous", "Deckcheck-Previous", previous),
    ):
        if isinstance(chosen, str):
            params[name] = chosen
        elif chosen is not None:
            headers[header] = json.dumps(orjson.loads(json_body(chosen)), ensure_ascii=True, separators=(",", ":"))
    return params, headers


class Lines:
    """Gathers encoded recheck lines into chunks of about CHUNK_BYTES, so the body is written in few large pieces
    and never whole."""

    def __init__(self) -> None:
        self.pending = bytearray()

    def add(self, deck: Deck) -> bytes | None:
        """Encode one deck line; a chunk when enough lines are pending."""
        self.pending += json_body(deck) + b"\n"
        if len(self.pending) < CHUNK_BYTES:
            return None
        chunk = bytes(self.pending)
        self.pending.clear()
        return chunk

    def rest(self) -> Iterable[bytes]:
        """The last chunk, if any lines are pending."""
        return [bytes(self.pending)] if self.pending else []


def read_line(line: str) -> RecheckAnswerLine:
    """One line of a recheck's answer, as its model."""
    return RECHECK_ANSWER_LINE.validate_json(line)
