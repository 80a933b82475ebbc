"""`AsyncClient`: the deckcheck HTTP API from asyncio (or trio) code, on httpx; the same as `Client`, awaited."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, TypeVar, Unpack

import anyio
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


class AsyncClient:
    """The asynchronous twin of `deckcheck.client.Client`: the same constructor (with an `httpx.AsyncClient` or an
    `httpx.AsyncBaseTransport`, and an awaitable `sleep`), the same methods, awaited; `async with`, or `aclose()`.
    It runs on asyncio or trio."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float | httpx.Timeout = 30.0,
        retries: int = 3,
        max_retry_wait: float = 30.0,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        http: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[object]] = anyio.sleep,
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
        self._http = httpx.AsyncClient(transport=transport) if http is None else http

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections (of the httpx client made here; a client passed in stays open)."""
        if self._owned:
            await self._http.aclose()

    async def _send(self, call: Call[Any], url: httpx.URL | None = None) -> httpx.Response:
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
            response = await self._http.send(request)
            delay = self._retries.delay(response, attempt)
            if delay is None:
                break
            await self._sleep(delay)
            attempt += 1
        if not response.is_success:
            raise DeckcheckError.of(response)
        return response

    async def _call(self, call: Call[T]) -> T:
        return call.read(await self._send(call))

    async def _every_page(self, call: Call[list[T]]) -> list[T]:
        items: list[T] = []
        url = None
        while True:
            response = await self._send(call, url)
            items += call.read(response)
            if (url := next_page(response)) is None:
                return items

    async def validate(self, request: Body, *, lang: str | None = None) -> ValidateResponse:
        """Check a deck (a `ValidateRequest` or a mapping of its fields) for its event; messages in `lang`."""
        return await self._call(op.validate(request, lang))

    async def validate_link(self, ydke: str, **query: Unpack[op.LinkQuery]) -> ValidateResponse:
        """Check a deck given as a ydke:// link by GET, whose answer a CDN or the browser may keep: `date`, `format`,
        `banlist` and `lang` as the POST's."""
        return await self._call(op.validate_link(ydke, query))

    async def parse(self, deck: Body) -> ParseResponse:
        """Read a deck (a `DeckIn` or a mapping) in any form: every entry resolved, and those that name no card."""
        return await self._call(op.parse(deck))

    async def convert(self, request: Body) -> ConvertResponse:
        """Turn a deck (a `ConvertRequest` or a mapping) into the form it asks for."""
        return await self._call(op.convert(request))

    async def qr(self, request: Body, *, png: bool = False) -> bytes:
        """A QR code of a deck's ydke:// link: SVG, or PNG with `png`. `request` is a deck in any form (a `DeckIn`,
        a `ConvertRequest`, whose `to` is not used, or a mapping); `DeckcheckError` 422 (`deck_too_large_for_qr`)
        for a deck whose link no QR code holds."""
        return await self._call(op.qr(request, png))

    async def sheet(self, request: Body) -> bytes:
        """A deck's registration sheet as a PDF: `request` is a deck in any form (a `ConvertRequest`, whose `to` is
        not used, or a mapping) with `sheet` (player and event, printed blank where left out) and `names`;
        `DeckcheckError` 422 for a card that is no official card's or a deck no sheet holds."""
        return await self._call(op.sheet(request))

    async def read_paper(self, content: bytes, media_type: str, *, lang: str | None = None) -> ReadResponse:
        """The deck on a photo, a scan or a PDF of a printed list (`media_type` image/png, image/jpeg or
        application/pdf): exact from its QR code, else line by line, every uncertain line marked `needs_review` and
        kept out of `deck`; messages in `lang`."""
        return await self._call(op.read_paper(content, media_type, lang))

    async def card(self, passcode: int) -> CardOutFull:
        """A card by any of its passcodes; `DeckcheckError` 404 for a passcode that is no card's."""
        return await self._call(op.card(passcode))

    async def card_legality(self, passcode: int, *, date: dt.date | None = None) -> CardLegality:
        """A card's statuses in each format through time, as periods, and on `date` (default today in Japan)."""
        return await self._call(op.card_legality(passcode, date))

    async def search(self, q: str, *, limit: int = 10, offset: int = 0) -> list[SearchHit]:
        """One page of a name search, best first: `limit` hits (at most 50) from `offset` in the ranking."""
        return await self._call(op.search(q, limit, offset))

    async def banlists(self, *, format: Format | None = None) -> list[BanlistSummary]:
        """Every bundled list (of one format, if asked), OCG first, oldest first: every page, one after another."""
        return await self._every_page(op.banlists(format))

    async def banlist(self, list_id: str) -> BanlistDetail:
        """One bundled list with its cards."""
        return await self._call(op.banlist(list_id))

    async def banlist_lflist(self, list_id: str) -> str:
        """One bundled list as lflist.conf text (EDOPro, ygopro)."""
        return await self._call(op.banlist_lflist(list_id))

    async def diff(self, a: str, b: str) -> BanlistDiff:
        """Every card whose status changes from list `a` to list `b`."""
        return await self._call(op.diff(a, b))

    async def rules(self, *, lang: str | None = None) -> list[RuleOut]:
        """The rule catalogue: every code with its citation, penalty and remedy, in `lang`."""
        return await self._call(op.rules(lang))

    async def eras(self, *, lang: str | None = None) -> list[EraOut]:
        """The rule eras of each format; notes in `lang`."""
        return await self._call(op.eras(lang))

    async def infractions(self, *, lang: str | None = None) -> list[InfractionOut]:
        """The infraction catalogue, PR 3 to PR 10: every code with its penalty, citation and remedy, in `lang`."""
        return await self._call(op.infractions(lang))

    async def assess(self, request: Body, *, lang: str | None = None) -> AssessmentOut:
        """Assess an infraction (an AssessRequest or a mapping): its penalty, what it applies to, the remedy, and
        what the referee may raise it to."""
        return await self._call(op.assess(request, lang))

    async def time_limit(self, request: Body, *, lang: str | None = None) -> RulingOut:
        """Rule on a match whose time is up (a TimeLimitRequest or a mapping): TR 2.C's procedure, steps and
        winners."""
        return await self._call(op.time_limit(request, lang))

    async def health(self) -> Health:
        """Liveness, the size of the loaded data and the data version."""
        return await self._call(op.health())

    async def recheck(
        self,
        decks: Iterable[Deck] | AsyncIterable[Deck],
        *,
        date: dt.date | str | None = None,
        banlist: ListChoice | None = None,
        previous: ListChoice | None = None,
        format: Format | None = None,
        lang: str | None = None,
    ) -> AsyncIterator[RecheckAnswerLine]:
        """As `Client.recheck` (the results are held for the same reason): `decks` may also be an async iterable,
        and the answer's lines come from an async iterator; close it (`aclose()`) or run it out."""
        params, headers = recheck_request(date, banlist, previous, format, lang)
        request = self._http.build_request(
            "POST",
            self.base_url + "/v1/rechecks",
            params=params,
            headers={**self._headers, **headers},
            content=_chunks(decks),
            timeout=self._timeout,
        )
        response = await self._http.send(request, stream=True)
        try:
            if not response.is_success:
                await response.aread()
                raise DeckcheckError.of(response)
            async for line in response.aiter_lines():
                yield read_line(line)
        finally:
            await response.aclose()


async def _chunks(decks: Iterable[Deck] | AsyncIterable[Deck]) -> AsyncIterator[bytes]:
    lines = Lines()
    async for deck in _each(decks):
        if (chunk := lines.add(deck)) is not None:
            yield chunk
    for chunk in lines.rest():
        yield chunk


async def _each(decks: Iterable[Deck] | AsyncIterable[Deck]) -> AsyncIterator[Deck]:
    """The decks of an iterable or an async iterable (a plain iterable is read on the event loop: keep it quick)."""
    if isinstance(decks, AsyncIterable):
        async for deck in decks:
            yield deck
    else:
        for deck in decks:
            yield deck
