"""deckcheck.client against the real service over HTTP: every method of both clients answers what a plain request
answers, read into the same models; error answers, retries and paging (with a mock transport where the service
cannot be made to misbehave); rechecks that stream both ways; and the example of the client's guide, run as written."""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import httpx
import orjson
import pytest
from pydantic import BaseModel, TypeAdapter

from bench.corpus import Corpus
from deckcheck import Data
from deckcheck.client import AsyncClient, Client, DeckcheckError, RecheckAnswerLine, RecheckSummaryLine
from deckcheck.days import today
from deckcheck.wire.answers import (
    AssessmentOut,
    BanlistDetail,
    BanlistDiff,
    BanlistSummary,
    CardOutFull,
    ConvertResponse,
    EraOut,
    FieldError,
    Health,
    InfractionOut,
    ParseResponse,
    Problem,
    RuleOut,
    RulingOut,
    SearchHit,
    ValidateResponse,
)
from deckcheck.wire.answers.recheck import (
    NewlyIllegal,
    NewlyIllegalCard,
    RecheckErrorLine,
    RecheckLineError,
    RecheckResultLine,
    RecheckSummary,
)
from deckcheck.wire.answers.service import HEALTH as HEALTH_EXAMPLE
from deckcheck.wire.judge.requests import AssessRequest, TimeLimitRequest
from deckcheck.wire.requests import ConvertRequest, DeckIn, EntryIn, InlineBanlist, RecheckLine, ValidateRequest
from tests.cases import main_with

ROOT = Path(__file__).resolve().parent.parent
POT_OF_GREED = 55144522
REQUEST_ID = re.compile(r"[0-9a-f]{32}")  # what the service makes when the caller sends no X-Request-ID
RECHECK: dict[str, Any] = {"date": "2008-09-01", "previous": "ocg-2008-03-01"}
KINDS = ["Client", "AsyncClient"]


def _ask(kind: str, base_url: str, method: str, *args: Any, options: dict[str, Any] | None = None, **kw: Any) -> Any:
    """Call one method of a fresh client of `kind` (the async one in an event loop of its own)."""
    if kind == "Client":
        with Client(base_url, **(options or {})) as client:
            return getattr(client, method)(*args, **kw)

    async def run() -> Any:
        async with AsyncClient(base_url, **(options or {})) as client:
            return await getattr(client, method)(*args, **kw)

    return asyncio.run(run())


@pytest.fixture(params=KINDS)
def ask(request: pytest.FixtureRequest, base_url: str) -> Callable[..., Any]:
    """Calls a method by name on the blocking client, then (as a second test) on the async one."""
    return partial(_ask, request.param, base_url)


def _same(answer: Any, plain: Any, kind: Any) -> None:
    """`answer` is what the JSON of a plain request reads into as `kind`, and it holds all of that JSON."""
    adapter = TypeAdapter(kind)
    assert answer == adapter.validate_python(plain)
    assert adapter.dump_python(answer, mode="json", by_alias=True, exclude_unset=True) == plain


def _pot_of_greed() -> dict[str, Any]:
    return {"main": main_with({"passcode": POT_OF_GREED}, drop=1), "date": "2008-06-01"}


POSTS = [
    ("validate", "/v1/validate", _pot_of_greed(), ValidateResponse),
    ("parse", "/v1/decks/parse", {"text": "3 Dark Magician\n1 Pot of Gred\nExtra\n1 Stardust Dragon"}, ParseResponse),
    ("convert", "/v1/decks/convert", {"text": "3 ブラック・マジシャン\n1 Pot of Greed", "to": "ydk"}, ConvertResponse),
    (
        "convert",
        "/v1/decks/convert",
        {"ydke": "ydke://rvTMAq70zAKu9MwCSnBJAw==!viOnAg==!!", "to": "json"},
        ConvertResponse,
    ),
    ("assess", "/v1/penalties/assess", {"code": "drew_extra_card", "remedied": False, "prior": 1}, AssessmentOut),
    ("time_limit", "/v1/matches/time-limit", {"wins": [1, 1], "in_duel": False}, RulingOut),
]


@pytest.mark.parametrize("case", POSTS, ids=[f"{case[0]}-{n}" for n, case in enumerate(POSTS)])
def test_posts_answer_what_a_plain_request_answers(
    ask: Callable[..., Any], client: httpx.Client, case: tuple[str, str, dict[str, Any], Any]
) -> None:
    method, path, body, kind = case
    _same(ask(method, body), client.post(path, json=body).json(), kind)


def test_the_judge_takes_models_and_a_language(ask: Callable[..., Any]) -> None:
    ruling = ask("time_limit", TimeLimitRequest(wins=[1, 0], in_duel=False), lang="ja")
    assert (ruling.match_winner, ruling.steps[0].code) == (1, "one_win_decides")
    assessed = ask("assess", AssessRequest(code="slow_play", intentional=True), lang="ja")
    assert (assessed.code, assessed.penalty_name) == ("slow_play_intentional", "マッチの敗北")


def test_validate_takes_a_model_and_a_language(ask: Callable[..., Any], client: httpx.Client) -> None:
    plain = client.post("/v1/validate", json=_pot_of_greed(), headers={"Accept-Language": "ja"}).json()
    answer = ask("validate", ValidateRequest.model_validate(_pot_of_greed()), lang="ja")
    _same(answer, plain, ValidateResponse)
    assert [(v.code, v.penalty, v.message) for v in answer.violations] == [
        ("forbidden_card", "duel_forfeiture", "「強欲な壺」はOCG 2008.03で禁止カードです。")
    ]


QR_DECK = {"text": "3 Dark Magician\n1 Pot of Greed\nExtra\n1 Stardust Dragon"}


@pytest.mark.parametrize(("png", "accept"), [(False, "image/svg+xml"), (True, "image/png")])
def test_a_qr_code_is_what_a_plain_request_answers(
    ask: Callable[..., Any], client: httpx.Client, png: bool, accept: str
) -> None:
    plain = client.post("/v1/decks/convert", json={**QR_DECK, "to": "qr"}, headers={"Accept": accept})
    assert (plain.status_code, plain.headers["content-type"]) == (200, accept)
    as_model = ConvertRequest.model_validate({**QR_DECK, "to": "ydke"})  # its `to` is not used
    answers = [
        ask("qr", QR_DECK, png=png),
        ask("qr", DeckIn(text=QR_DECK["text"]), png=png),
        ask("qr", as_model, png=png),
    ]
    assert answers == [plain.content] * 3


def test_a_deck_too_large_for_a_qr_code_raises(ask: Callable[..., Any], client: httpx.Client) -> None:
    headers = {"X-Request-ID": "client-test-qr"}
    deck = {"main": [{"passcode": POT_OF_GREED, "count": 99}] * 5}
    plain = client.post("/v1/decks/convert", json={**deck, "to": "qr"}, headers=headers)
    with pytest.raises(DeckcheckError) as caught:
        ask("qr", deck, options={"headers": headers})
    problem = Problem.model_validate(plain.json())
    assert (caught.value.status, caught.value.problem) == (422, problem)
    msg = "the deck's ydke link has 2650 bytes; a QR code (version 40, error correction M) holds at most 2331"
    assert (problem.request_id, problem.errors) == (
        "client-test-qr",
        [FieldError(loc=["body"], msg=msg, type="deck_too_large_for_qr")],
    )


def test_request_models_are_built_by_keyword(base_url: str) -> None:
    # A type checker sees every default (mypy checks this file): a site's own code builds requests the same way.
    request = ValidateRequest(
        main=[EntryIn(passcode=POT_OF_GREED, count=1), EntryIn(name="Monster Reborn")],
        date=dt.date(2008, 6, 1),
        banlist=InlineBanlist(name="house", forbidden=["Monster Reborn"]),
    )
    with Client(base_url) as deckcheck:
        answer = deckcheck.validate(request)
    assert [(v.code, [c.name for c in v.cards]) for v in answer.violations] == [
        ("forbidden_card", ["Monster Reborn"]),
        ("main_deck_too_small", []),
    ]


GETS = [
    ("card", (POT_OF_GREED,), {}, "/v1/cards/55144522", {}, CardOutFull),
    ("search", ("Dragon",), {"limit": 5, "offset": 5}, "/v1/cards?q=Dragon&limit=5&offset=5", {}, list[SearchHit]),
    ("banlist", ("ocg-2008-03-01",), {}, "/v1/banlists/ocg-2008-03-01", {}, BanlistDetail),
    (
        "diff",
        ("ocg-2008-03-01", "ocg-2008-09-01"),
        {},
        "/v1/banlists/ocg-2008-03-01/diff/ocg-2008-09-01",
        {},
        BanlistDiff,
    ),
    ("rules", (), {"lang": "ja"}, "/v1/rules", {"Accept-Language": "ja"}, list[RuleOut]),
    ("eras", (), {"lang": "ja"}, "/v1/rules/eras", {"Accept-Language": "ja"}, list[EraOut]),
    ("infractions", (), {"lang": "ja"}, "/v1/infractions", {"Accept-Language": "ja"}, list[InfractionOut]),
    ("health", (), {}, "/healthz", {}, Health),
]


@pytest.mark.parametrize("case", GETS, ids=[case[0] for case in GETS])
def test_gets_answer_what_a_plain_request_answers(ask: Callable[..., Any], client: httpx.Client, case: Any) -> None:
    method, args, kw, path, headers, kind = case
    _same(ask(method, *args, **kw), client.get(path, headers=headers).json(), kind)


def test_a_list_as_lflist_text(ask: Callable[..., Any], client: httpx.Client) -> None:
    text = ask("banlist_lflist", "ocg-2008-03-01")
    assert text == client.get("/v1/banlists/ocg-2008-03-01", params={"as": "lflist"}).text
    assert text.startswith("#[OCG 2008.03]\n!OCG 2008.03\n")


class _SmallPages(httpx.HTTPTransport):
    """Asks the service for pages of 50 lists where the client asks for the default page."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if "limit" not in request.url.params:
            request.url = request.url.copy_add_param("limit", "50")
        return super().handle_request(request)


class _SmallAsyncPages(httpx.AsyncHTTPTransport):
    """The same, for the async client."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if "limit" not in request.url.params:
            request.url = request.url.copy_add_param("limit", "50")
        return await super().handle_async_request(request)


@pytest.mark.parametrize("kind", KINDS)
def test_every_list_over_every_page(kind: str, base_url: str, client: httpx.Client) -> None:
    every = client.get("/v1/banlists").json()
    assert [item["format"] for item in every] == ["OCG"] * 86 + ["TCG"] * 47
    assert "link" not in client.get("/v1/banlists").headers  # one page: no next
    _same(_ask(kind, base_url, "banlists"), every, list[BanlistSummary])
    small = {"transport": _SmallPages() if kind == "Client" else _SmallAsyncPages()}
    _same(_ask(kind, base_url, "banlists", options=small), every, list[BanlistSummary])  # three pages of 50
    _same(_ask(kind, base_url, "banlists", format="tcg", options=small), every[86:], list[BanlistSummary])


def test_an_invalid_request_raises_with_its_problem(ask: Callable[..., Any], client: httpx.Client) -> None:
    headers = {"X-Request-ID": "client-test-422"}
    plain = client.post("/v1/validate", json={"main": 3}, headers=headers)
    with pytest.raises(DeckcheckError) as caught:
        ask("validate", {"main": 3}, options={"headers": headers})
    error = caught.value
    assert (error.status, error.request_id) == (422, "client-test-422")
    assert error.problem == Problem.model_validate(plain.json())
    assert error.problem.request_id == "client-test-422"
    assert [(e.loc, e.type) for e in error.problem.errors] == [(["body", "main"], "list_type")]
    assert error.text == plain.text
    assert str(error) == (
        "422 Unprocessable Entity: The request does not fit the schema at body.main. (request id client-test-422)"
    )


def test_an_unknown_card_raises_404(ask: Callable[..., Any], data: Data) -> None:
    with pytest.raises(DeckcheckError) as caught:
        ask("card", 1)
    assert caught.value.status == 404
    assert caught.value.problem is not None
    # Asked after the card data end, the passcode may be a card printed since (api/cards.py).
    until = data.cards.printings_until
    newer = f" (The card data cover printings until {until}: a card printed since may be missing.)"
    missing = "1 is not the passcode of an official card."
    assert caught.value.problem.detail == missing + (newer if data.cards.may_lack_printings(today()) else "")
    assert caught.value.request_id == caught.value.problem.request_id
    assert REQUEST_ID.fullmatch(caught.value.request_id or "")


@pytest.mark.parametrize("kind", KINDS)
def test_a_client_of_ones_own_is_used_and_left_open(kind: str, base_url: str) -> None:
    seen: list[str] = []

    async def run() -> Health:
        async def hook(request: httpx.Request) -> None:
            seen.append(request.url.path)

        async with httpx.AsyncClient(event_hooks={"request": [hook]}) as http:
            async with AsyncClient(base_url, http=http) as deckcheck:
                answer = await deckcheck.health()
            assert not http.is_closed
        return answer

    if kind == "AsyncClient":
        health = asyncio.run(run())
    else:
        with httpx.Client(event_hooks={"request": [lambda request: seen.append(request.url.path)]}) as http:
            with Client(base_url, http=http) as deckcheck:
                health = deckcheck.health()
            assert not http.is_closed
    assert health.cards == 14216
    assert seen == ["/healthz"]
    with httpx.Client() as http, pytest.raises(ValueError, match="not both"):
        Client(base_url, http=http, transport=httpx.MockTransport(lambda request: httpx.Response(200)))


def test_the_async_client_runs_on_trio(base_url: str) -> None:
    pytest.importorskip("trio")

    async def run() -> tuple[Health, list[Any]]:
        async def decks() -> AsyncIterator[dict[str, Any]]:
            yield {"id": 1, "main": main_with()}

        async with AsyncClient(base_url) as deckcheck:
            return await deckcheck.health(), [line async for line in deckcheck.recheck(decks(), date="2008-06-01")]

    health, (result, closing) = anyio.run(run, backend="trio")
    assert (health.cards, result.legal, closing.summary.lines) == (14216, True, 1)


def test_what_cannot_be_json_is_refused_before_it_is_sent(base_url: str) -> None:
    with Client(base_url) as deckcheck, pytest.raises(TypeError, match="set"):
        deckcheck.validate({"main": {POT_OF_GREED}})


MOCK_URL = "http://deckcheck.test"
HEALTH = HEALTH_EXAMPLE
OVERLOADED = {
    "type": "urn:deckcheck:problem:overloaded",
    "title": "Service Unavailable",
    "status": 503,
    "detail": "Every check thread is busy and the queue is full; try again in 1 s.",
    "errors": [],
    "request_id": "0123456789abcdef0123456789abcdef",
}


def _overloaded(retry_after: str | None, status: int = 503) -> httpx.Response:
    headers = {"Content-Type": "application/problem+json"} | (
        {} if retry_after is None else {"Retry-After": retry_after}
    )
    return httpx.Response(status, content=orjson.dumps(OVERLOADED | {"status": status}), headers=headers)


class Mocked:
    """Clients of one kind whose requests get `answers` in turn, with the requests sent and the waits asked for."""

    def __init__(self, kind: str, *answers: httpx.Response) -> None:
        self.kind = kind
        self.answers = iter(answers)
        self.requests: list[httpx.Request] = []
        self.waits: list[float] = []

    def _handle(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        return next(self.answers)

    def run(self, call: Callable[[Any], Any], **options: Any) -> Any:
        """`call` on a new client (for the async one, what `call` returns is awaited); its waits are not spread
        unless `options` give a `jitter`."""
        transport = httpx.MockTransport(self._handle)
        options = {"jitter": lambda: 0.0} | options
        if self.kind == "Client":
            with Client(MOCK_URL, transport=transport, sleep=self.waits.append, **options) as client:
                return call(client)

        async def sleep(seconds: float) -> None:
            self.waits.append(seconds)

        async def run() -> Any:
            async with AsyncClient(MOCK_URL, transport=transport, sleep=sleep, **options) as client:
                return await call(client)

        return asyncio.run(run())


@pytest.mark.parametrize("status", [503, 429])  # the service's, and the proxy's flood guard's
@pytest.mark.parametrize("kind", KINDS)
def test_a_503_is_retried_after_the_seconds_it_asks(kind: str, status: int) -> None:
    mock = Mocked(kind, _overloaded("0", status), _overloaded("0", status), httpx.Response(200, json=HEALTH))
    assert mock.run(lambda client: client.health()) == Health.model_validate(HEALTH)
    assert len(mock.requests) == 3
    assert mock.waits == [0, 0]


@pytest.mark.parametrize("kind", KINDS)
def test_a_503_past_the_retries_raises_with_its_problem(kind: str) -> None:
    mock = Mocked(kind, *[_overloaded("1")] * 3)
    with pytest.raises(DeckcheckError) as caught:
        mock.run(lambda client: client.validate({"ydke": "ydke://!!"}), retries=2)
    assert caught.value.status == 503
    assert caught.value.problem == Problem.model_validate(OVERLOADED)
    assert [request.content for request in mock.requests] == [b'{"ydke":"ydke://!!"}'] * 3  # the same body again
    assert mock.waits == [1, 2]  # doubled while the service stays busy


@pytest.mark.parametrize("kind", KINDS)
def test_the_waits_follow_retry_after_within_the_cap(kind: str) -> None:
    past = "Wed, 21 Oct 2015 07:28:00 GMT"
    future = email.utils.format_datetime(dt.datetime.now(dt.UTC) + dt.timedelta(days=1), usegmt=True)
    asked = ["7", None, "soon", "120", past, future]  # None: no Retry-After; "soon": one that cannot be read
    for cap, waits in ((30.0, [7, 2, 4, 30, 0, 30]), (3.0, [3, 2, 3, 3, 0, 3])):
        mock = Mocked(kind, *map(_overloaded, asked), httpx.Response(200, json=HEALTH))
        mock.run(lambda client: client.health(), retries=6, max_retry_wait=cap)
        assert mock.waits == waits


@pytest.mark.parametrize("kind", KINDS)
def test_the_waits_are_spread_above_what_retry_after_asks(kind: str) -> None:
    draws = iter([0.0, 0.5, 0.999, 0.25])
    mock = Mocked(kind, *[_overloaded("1")] * 4, httpx.Response(200, json=HEALTH))
    mock.run(lambda client: client.health(), retries=4, jitter=lambda: next(draws))
    assert mock.waits == [1.0, 3.0, 7.996, 10.0]  # 1 s asked, times 2**n, plus that times the draw


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("status", "content_type", "body"),
    [
        (502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>"),
        (500, "application/problem+json", '{"detail": "not the service\'s problem body"}'),
    ],
)
def test_an_answer_that_is_no_problem_raises_the_same_error(
    kind: str, status: int, content_type: str, body: str
) -> None:
    mock = Mocked(kind, httpx.Response(status, text=body, headers={"Content-Type": content_type}))
    with pytest.raises(DeckcheckError) as caught:
        mock.run(lambda client: client.card(POT_OF_GREED))
    error = caught.value
    assert (error.status, error.problem, error.text, error.request_id) == (status, None, body, None)
    assert str(error) == f"{status} {body}"
    assert len(mock.requests) == 1  # only a 503 or a 429 is retried


@pytest.mark.parametrize("kind", KINDS)
def test_a_model_sends_only_the_fields_it_was_given(kind: str, client: httpx.Client) -> None:
    verdict = client.post("/v1/validate", json=_pot_of_greed()).json()
    mock = Mocked(kind, httpx.Response(200, json=verdict), httpx.Response(200, json=verdict))
    model = ValidateRequest.model_validate(
        {"ydke": "ydke://!!", "date": "2008-06-01", "protectors": {"opaque_back": True}}
    )
    mapping = {"main": [{"passcode": POT_OF_GREED}], "date": dt.date(2008, 6, 1), "phase": "registration"}
    assert mock.run(lambda deckcheck: deckcheck.validate(model, lang="ja")) == ValidateResponse.model_validate(verdict)
    mock.run(lambda deckcheck: deckcheck.validate(mapping))
    assert [orjson.loads(request.content) for request in mock.requests] == [
        {"ydke": "ydke://!!", "date": "2008-06-01", "protectors": {"opaque_back": True}},
        {"main": [{"passcode": POT_OF_GREED}], "date": "2008-06-01", "phase": "registration"},
    ]
    assert [request.headers.get("accept-language") for request in mock.requests] == ["ja", None]
    assert {request.headers["content-type"] for request in mock.requests} == {"application/json"}


@pytest.mark.parametrize("kind", KINDS)
def test_paging_follows_next_links_until_there_is_none(kind: str, client: httpx.Client) -> None:
    lists = client.get("/v1/banlists").json()[:3]
    pages = f"{MOCK_URL}/v1/banlists?format=ocg&offset="
    both = f'<{pages}0>; rel="prev", <{pages}2>; rel="next"'
    mock = Mocked(
        kind,
        httpx.Response(200, json=lists[:1], headers={"Link": '</v1/banlists?format=ocg&offset=1>; rel="next"'}),
        httpx.Response(200, json=lists[1:2], headers={"Link": both}),
        httpx.Response(200, json=lists[2:], headers={"Link": '</v1/banlists?format=ocg&offset=0>; rel="first"'}),
    )
    assert mock.run(lambda deckcheck: deckcheck.banlists(format="ocg")) == [BanlistSummary(**item) for item in lists]
    assert [str(request.url) for request in mock.requests] == [
        f"{MOCK_URL}/v1/banlists?format=ocg",
        f"{MOCK_URL}/v1/banlists?format=ocg&offset=1",
        f"{MOCK_URL}/v1/banlists?format=ocg&offset=2",
    ]


def _recheck(kind: str, base_url: str, decks: list[Any], *, stream: bool = True, **kw: Any) -> list[Any]:
    """Every line of a recheck of `decks`, sent from a generator (an async one to the async client), or as the list
    itself when not `stream`."""

    def each() -> Iterator[Any]:
        yield from decks

    async def each_async() -> AsyncIterator[Any]:
        for deck in decks:
            yield deck

    if kind == "Client":
        with Client(base_url) as client:
            return list(client.recheck(each() if stream else decks, **kw))

    async def run() -> list[Any]:
        async with AsyncClient(base_url) as client:
            return [line async for line in client.recheck(each_async() if stream else decks, **kw)]

    return asyncio.run(run())


@pytest.fixture(scope="module")
def stored(data: Data) -> list[dict[str, Any]]:
    """3,000 stored decks (ydke links built for OCG 2008.03, one in ten broken), and two lines that are no deck."""
    decks: list[dict[str, Any]] = [{"id": deck.id, "ydke": deck.ydke()} for deck in Corpus(data).decks(3000)]
    decks[100] = {"id": "broken", "ydke": "ydke://@@!!"}
    decks[200] = {"id": "no deck", "main": 3}
    return decks


@pytest.mark.parametrize("kind", KINDS)
def test_a_recheck_answers_what_a_plain_request_answers(
    kind: str, base_url: str, client: httpx.Client, stored: list[dict[str, Any]]
) -> None:
    decks = [RecheckLine.model_validate(deck) if number % 2 else deck for number, deck in enumerate(stored)]
    lines = _recheck(kind, base_url, decks, **RECHECK)
    body = b"".join(orjson.dumps(deck) + b"\n" for deck in stored)
    plain = client.post("/v1/rechecks", params=RECHECK, content=body).text.splitlines()
    _same(lines, [orjson.loads(line) for line in plain], list[RecheckAnswerLine])
    *results, closing = lines
    assert [(result.line, result.id) for result in results] == [(n, deck["id"]) for n, deck in enumerate(stored, 1)]
    assert [result.line for result in results if isinstance(result, RecheckErrorLine)] == [101, 201]
    assert isinstance(closing, RecheckSummaryLine)
    summary = closing.summary
    assert (summary.lines, summary.errors, summary.legal + summary.illegal) == (3000, 2, 2998)
    newly = [result.id for result in results if isinstance(result, RecheckResultLine) and result.newly_illegal]
    assert summary.newly_illegal is not None
    assert (summary.newly_illegal.count, summary.newly_illegal.ids) == (len(newly), newly)
    assert newly


# The two lines the examples of deckcheck.wire.answers.recheck answer: a 40-card deck holding one Premature Burial
# (Limited on OCG 2008.03, Forbidden on 2008.09) and a broken ydke link, each with an organiser's own fields.
EXAMPLE_DECKS = [
    {
        "id": "deck-0042",
        "ydke": "ydke://rvTMAq70zAKu9MwCQ15lBENeZQRDXmUEgv4eBIL+HgSC/h4EklPjAJJT4wCSU+MAIF3IBSBdyAUgXcgFzabyBM2m8gTNpv"
        "IE/lfJBP5XyQT+V8kEJ7aLACe2iwAntosAQH3jA0B94wNAfeMDhgzYBYYM2AWGDNgFm1RYA5tUWAObVFgDXqPAAV6jwAFeo8AB37CzAd+wswHuJf"
        "4EcMM4BA==!!!",
        "player": "Yugi Muto",
        "table": 12,
    },
    {"id": "deck-0043", "ydke": "ydke://@@!!", "player": "Seto Kaiba", "table": 13},
]


def test_the_recheck_line_examples_are_what_the_service_answers(base_url: str) -> None:
    examples = [model.model_json_schema()["examples"][0] for model in (RecheckResultLine, RecheckErrorLine)]
    examples.append(RecheckSummaryLine.model_json_schema()["examples"][0])
    _same(_recheck("Client", base_url, EXAMPLE_DECKS, **RECHECK), examples, list[RecheckAnswerLine])


@pytest.mark.parametrize("kind", KINDS)
def test_inline_lists_travel_in_their_headers(kind: str, base_url: str) -> None:
    proposed = InlineBanlist.model_validate({"name": "提案", "forbidden": ["ブラック・マジシャン"]})  # escaped to ASCII
    before = {"lflist": "#[old]\n!old\n55144522 0 --Pot of Greed\n"}
    decks = [{"id": 1, "main": main_with()}]  # 40 cards, three Dark Magician
    lines = _recheck(
        kind, base_url, decks, stream=False, date="2008-06-01", banlist=proposed, previous=before, lang="ja"
    )
    result, closing = lines
    assert (result.legal_before, result.newly_illegal) == (True, True)
    assert [v.message for v in result.violations] == ["「ブラック・マジシャン」は提案で禁止カードです。"]
    assert (closing.summary.banlist.name, closing.summary.previous.name) == ("提案", "old")


@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_recheck_raises(kind: str, base_url: str, stored: list[dict[str, Any]]) -> None:
    with pytest.raises(DeckcheckError) as caught:
        _recheck(kind, base_url, stored[:10], banlist="ocg-1900-01-01")
    assert caught.value.status == 422
    assert caught.value.problem is not None
    assert [error.loc for error in caught.value.problem.errors] == [["query", "banlist"]]


# A client in a process of its own rechecks a batch from a generator and reports what it saw: whether the results
# came in input order, the bytes sent and received, its peak of traced memory, and the summary.
STREAM = """
import json, sys, tracemalloc
import orjson
from deckcheck.client import Client, RecheckResultLine
from deckcheck.wire.answers.recheck import RECHECK_ANSWER_LINE

# The reader of answer lines is built on its first line; built first, it is not counted as what the client holds.
RECHECK_ANSWER_LINE.rebuild(force=True)
url, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, encoding="utf-8") as file:
    stored = [json.loads(line) for line in file]
sent = 0

def decks():
    global sent
    for number in range(count):
        deck = {**stored[number % len(stored)], "id": number}
        sent += len(orjson.dumps(deck)) + 1
        yield deck

results = in_order = received = 0
with Client(url) as client:
    tracemalloc.start()
    for line in client.recheck(decks(), date="2008-09-01", previous="ocg-2008-03-01"):
        if isinstance(line, RecheckResultLine):
            in_order += (line.line, line.id) == (results + 1, results)
            results += 1
        received += len(line.model_dump_json(exclude_unset=True)) + 1
    peak = tracemalloc.get_traced_memory()[1]
report = {"results": results, "in_order": in_order, "sent": sent, "received": received, "peak": peak}
print(json.dumps(report | {"last": line.model_dump(mode="json")}))
"""


@pytest.mark.slow
def test_a_batch_that_would_stall_without_held_results(base_url: str, data: Data, tmp_path: Path) -> None:
    path = tmp_path / "stored.ndjson"
    path.write_bytes(b"".join(orjson.dumps({"ydke": deck.ydke()}) + b"\n" for deck in Corpus(data).decks(1000)))
    count = 30_000
    argv = [sys.executable, "-c", STREAM, base_url, str(count), str(path)]
    report = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    assert (report["results"], report["in_order"]) == (count, count)
    summary = report["last"]["summary"]
    assert (summary["lines"], summary["errors"], summary["legal"] + summary["illegal"]) == (count, 0, count)
    # Unheld, the service stops reading once a few MB of results wait unread, and the upload stalls: on the development
    # machine 20,000 such decks (7.8 MB each way) went through, and from 21,000 on the upload stalled until httpx's
    # write timeout. This batch is half as large again.
    assert report["sent"] > 11_000_000
    assert report["received"] > 11_000_000
    # Neither the decks nor the results are held by the client: its peak is a small part of either.
    assert report["peak"] < 1_000_000


def _guide_example() -> str:
    guide = (ROOT / "docs" / "developers" / "client.md").read_text(encoding="utf-8")
    found = re.search(r"^# Clients: Python and TypeScript\n.*?^```python\n(.*?)^```", guide, re.S | re.M)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("path", "printed"),
    [
        ("", r"forbidden_card duel_forfeiture\nmain_deck_too_small duel_forfeiture\n"),
        ("/nowhere", r"refused: 404 Not Found: Not Found \(request id [0-9a-f]{32}\)\n"),
    ],
)
def test_the_guide_example_runs_as_written(base_url: str, path: str, printed: str) -> None:
    env = {**os.environ, "DECKCHECK_URL": base_url + path}
    run = subprocess.run([sys.executable, "-c", _guide_example()], env=env, capture_output=True, text=True, check=True)
    assert re.fullmatch(printed, run.stdout)


@pytest.mark.parametrize(
    "model",
    [
        RecheckResultLine,
        RecheckErrorLine,
        RecheckLineError,
        RecheckSummaryLine,
        RecheckSummary,
        NewlyIllegal,
        NewlyIllegalCard,
    ],
)
def test_every_recheck_field_is_described_with_examples_that_fit(model: type[BaseModel]) -> None:
    for name, field in model.model_fields.items():
        assert field.description, name
        assert field.examples, name
        assert field.annotation is not None
        for example in field.examples:
            TypeAdapter(field.annotation).validate_python(example)
    examples = model.model_json_schema()["examples"]
    assert examples
    for example in examples:
        model.model_validate(example)
