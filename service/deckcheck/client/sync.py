"""`Client`: the deckcheck HTTP API from blocking Python code, on httpx."""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import TracebackType
from typing import Any, TypeVar, Unpack

import httpx

from deckcheck.client import operations as op
from deckcheck.client.common import (
    Body,
    Call,
    Deck,
    DeckcheckError,
    Lines,
    ListChoice,
    Retries,
    next_page,
    read_line,
    recheck_request,
)
from deckcheck.wire.answers import (
    AssessmentOut,
    BanlistDetail,
    BanlistDiff,
    BanlistSummary,
    CardLegality,
    CardOutFull,
    ConvertResponse,
    EraOut,
    Health,
    InfractionOut,
    ParseResponse,
    ReadResponse,
    RuleOut,
    RulingOut,
    SearchHit,
    ValidateResponse,
)
from deckcheck.wire.answers.recheck import RecheckAnswerLine
from deckcheck.wire.request_values import Format

T = TypeVar("T")


class Client:
    """A client of one deckcheck service at `base_url` (`http://127.0.0.1:8000`, or a path under a proxy).

    Every method returns the service's own answer models (`deckcheck.wire.answers`), and raises `DeckcheckError`
    for an error answer; connection failures and timeouts are httpx's own exceptions. A 503 (every check thread
    busy) or a 429 (the proxy's flood guard) is retried up to `retries` times, after at least the seconds its
    Retry-After asks for, doubled at each retry and spread by a draw of `jitter` (0 to 1) so that clients refused
    together come back apart, at most `max_retry_wait` each (`sleep` waits them). `timeout` (seconds, or an
    `httpx.Timeout`) and `headers` apply to every request. Requests go through an httpx client made here (over
    `transport`, if given, e.g. an `httpx.MockTransport`), or through `http`, a client of the caller's, which
    `close()` leaves open. Use it as a context manager, or call `close()`.
    """

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float | httpx.Timeout = 30.0,
        retries: int = 3,
        max_retry_wait: float = 30.0,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        http: httpx.Client | None = None,
        sleep: Callable[[float], object] = time.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        if http is not None and transport is not None:
            raise ValueError("give a transport or an httpx client, not both")
        self.base_url = base_url.rstrip("/")
        self._timeout = timeout
        self._headers = dict(headers or {})
        self._retries = Retries(retries, max_retry_wait, jitter)
        self._sleep = sleep
        self._owned = http is None
        self._http = httpx.Client(transport=transport) if http is None else http

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connections (of the httpx client made here; a client passed in stays open)."""
        if self._owned:
            self._http.close()

    def _send(self, call: Call[Any], url: httpx.URL | None = None) -> httpx.Response:
        """Send `call` (or, from `url`, a next page of it), retrying a 503 or 429; DeckcheckError for an error
        answer."""
        request = self._http.build_request(
            call.method,
            url or self.base_url + call.path,
            params=None if url else call.params,
            headers={**self._headers, **call.headers},
            content=call.content,
            timeout=self._timeout,
        )
        attempt = 0
        while True:
            response = self._http.send(request)
            delay = self._retries.delay(response, attempt)
            if delay is None:
                break
            self._sleep(delay)
            attempt += 1
        if not response.is_success:
            raise DeckcheckError.of(response)
        return response

    def _call(self, call: Call[T]) -> T:
        return call.read(self._send(call))

    def _every_page(self, call: Call[list[T]]) -> list[T]:
        items: list[T] = []
        url = None
        while True:
            response = self._send(call, url)
            items += call.read(response)
            if (url := next_page(response)) is None:
                return items

    def validate(self, request: Body, *, lang: str | None = None) -> ValidateResponse:
        """Check a deck (a `ValidateRequest` or a mapping of its fields) for its event; messages in `lang`."""
        return self._call(op.validate(request, lang))

    def validate_link(self, ydke: str, **query: Unpack[op.LinkQuery]) -> ValidateResponse:
        """Check a deck given as a ydke:// link by GET, whose answer a CDN or the browser may keep: `date`, `format`,
        `banlist` and `lang` as the POST's."""
        return self._call(op.validate_link(ydke, query))

    def parse(self, deck: Body) -> ParseResponse:
        """Read a deck (a `DeckIn` or a mapping) in any form: every entry resolved, and those that name no card."""
        return self._call(op.parse(deck))

    def convert(self, request: Body) -> ConvertResponse:
        """Turn a deck (a `ConvertRequest` or a mapping) into the form it asks for."""
        return self._call(op.convert(request))

    def qr(self, request: Body, *, png: bool = False) -> bytes:
        """A QR code of a deck's ydke:// link: SVG, or PNG with `png`. `request` is a deck in any form (a `DeckIn`,
        a `ConvertRequest`, whose `to` is not used, or a mapping); `DeckcheckError` 422 (`deck_too_large_for_qr`)
        for a deck whose link no QR code holds."""
        return self._call(op.qr(request, png))

    def sheet(self, request: Body) -> bytes:
        """A deck's registration sheet as a PDF: `request` is a deck in any form (a `ConvertRequest`, whose `to` is
        not used, or a mapping) with `sheet` (player and event, printed blank where left out) and `names`;
        `DeckcheckError` 422 for a card that is no official card's or a deck no sheet holds."""
        return self._call(op.sheet(request))

    def read_paper(self, content: bytes, media_type: str, *, lang: str | None = None) -> ReadResponse:
        """The deck on a photo, a scan or a PDF of a printed list (`media_type` image/png, image/jpeg or
        application/pdf): exact from its QR code, else line by line, every uncertain line marked `needs_review` and
        kept out of `deck`; messages in `lang`."""
        return self._call(op.read_paper(content, media_type, lang))

    def card(self, passcode: int) -> CardOutFull:
        """A card by any of its passcodes; `DeckcheckError` 404 for a passcode that is no card's."""
        return self._call(op.card(passcode))

    def card_legality(self, passcode: int, *, date: dt.date | None = None) -> CardLegality:
        """A card's statuses in each format through time, as periods, and on `date` (default today in Japan)."""
        return self._call(op.card_legality(passcode, date))

    def search(self, q: str, *, limit: int = 10, offset: int = 0) -> list[SearchHit]:
        """One page of a name search, best first: `limit` hits (at most 50) from `offset` in the ranking."""
        return self._call(op.search(q, limit, offset))

    def banlists(self, *, format: Format | None = None) -> list[BanlistSummary]:
        """Every bundled list (of one format, if asked), OCG first, oldest first: every page, one after another."""
        return self._every_page(op.banlists(format))

    def banlist(self, list_id: str) -> BanlistDetail:
        """One bundled list with its cards."""
        return self._call(op.banlist(list_id))

    def banlist_lflist(self, list_id: str) -> str:
        """One bundled list as lflist.conf text (EDOPro, ygopro)."""
        return self._call(op.banlist_lflist(list_id))

    def diff(self, a: str, b: str) -> BanlistDiff:
        """Every card whose status changes from list `a` to list `b`."""
        return self._call(op.diff(a, b))

    def rules(self, *, lang: str | None = None) -> list[RuleOut]:
        """The rule catalogue: every code with its citation, penalty and remedy, in `lang`."""
        return self._call(op.rules(lang))

    def eras(self, *, lang: str | None = None) -> list[EraOut]:
        """The rule eras of each format; notes in `lang`."""
        return self._call(op.eras(lang))

    def infractions(self, *, lang: str | None = None) -> list[InfractionOut]:
        """The infraction catalogue, PR 3 to PR 10: every code with its penalty, citation and remedy, in `lang`."""
        return self._call(op.infractions(lang))

    def assess(self, request: Body, *, lang: str | None = None) -> AssessmentOut:
        """Assess an infraction (an AssessRequest or a mapping): its penalty, what it applies to, the remedy, and
        what the referee may raise it to."""
        return self._call(op.assess(request, lang))

    def time_limit(self, request: Body, *, lang: str | None = None) -> RulingOut:
        """Rule on a match whose time is up (a TimeLimitRequest or a mapping): TR 2.C's procedure, steps and
        winners."""
        return self._call(op.time_limit(request, lang))

    def health(self) -> Health:
        """Liveness, the size of the loaded data and the data version."""
        return self._call(op.health())

    def recheck(
        self,
        decks: Iterable[Deck],
        *,
        date: dt.date | str | None = None,
        banlist: ListChoice | None = None,
        previous: ListChoice | None = None,
        format: Format | None = None,
        lang: str | None = None,
    ) -> Iterator[RecheckAnswerLine]:
        """Recheck many decks against one list (`banlist`: an id, or an inline or lflist list; default the list in
        force on `date` in `format`), and against `previous` if given.

        `decks` is any iterable of recheck lines (`RecheckLine` or mappings `{"id": …, "ydke": …}`); it is read
        lazily and sent as a stream of NDJSON. The answer is an iterator of its lines, each read as it arrives: one
        `RecheckResultLine` or `RecheckErrorLine` per deck, in input order, then the `RecheckSummaryLine`. Nothing is
        sent until it is first advanced; close it (or run it out) to free the connection. This side never holds the
        batch: the decks go out as they are read, and each result is read as it comes in.

        The request carries `Deckcheck-Hold-Results: 1`. httpx sends the whole body before it reads an answer, and
        the service, by default, writes each result while it still reads decks: once the results unread by this
        side fill the sockets' buffers (about 20,000 decks), the service waits to write, stops reading, and the
        upload stalls until it times out. Held, the service checks the decks as they arrive, keeps the results in
        a temporary file (up to DECKCHECK_MAX_HELD_BYTES, 2 GiB by default: past it, `DeckcheckError` 413), and
        answers once the body is read. A recheck is not retried: its decks can be read only once.
        """
        params, headers = recheck_request(date, banlist, previous, format, lang)
        request = self._http.build_request(
            "POST",
            self.base_url + "/v1/rechecks",
            params=params,
            headers={**self._headers, **headers},
            content=_chunks(decks),
            timeout=self._timeout,
        )
        response = self._http.send(request, stream=True)
        try:
            if not response.is_success:
                response.read()
                raise DeckcheckError.of(response)
            for line in response.iter_lines():
                yield read_line(line)
        finally:
            response.close()


def _chunks(decks: Iterable[Deck]) -> Iterator[bytes]:
    lines = Lines()
    for deck in decks:
        if (chunk := lines.add(deck)) is not None:
            yield chunk
    yield from lines.rest()
