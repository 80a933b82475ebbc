"""Each operation of the API as a `Call`: the request, and the model its answer is read into. Both clients send
these; a request body may be its request model or a plain mapping."""

from __future__ import annotations

import datetime as dt
from typing import TypedDict
from urllib.parse import quote

import httpx
import orjson

from deckcheck.client.common import Body, Call, json_body, language, model, post, text
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
from deckcheck.wire.request_values import Format

_VALIDATED = model(ValidateResponse)
_PARSED = model(ParseResponse)
_CONVERTED = model(ConvertResponse)
_CARD = model(CardOutFull)
_LEGALITY = model(CardLegality)
_READ = model(ReadResponse)
_HITS = model(list[SearchHit])
_LISTS = model(list[BanlistSummary])
_LIST = model(BanlistDetail)
_DIFF = model(BanlistDiff)
_RULES = model(list[RuleOut])
_ERAS = model(list[EraOut])
_HEALTH = model(Health)
_INFRACTIONS = model(list[InfractionOut])
_ASSESSED = model(AssessmentOut)
_RULED = model(RulingOut)


def _list_path(list_id: str) -> str:
    return "/v1/banlists/" + quote(list_id, safe="")


def validate(request: Body, lang: str | None) -> Call[ValidateResponse]:
    """POST /v1/validate."""
    return post("/v1/validate", request, _VALIDATED, lang)


class LinkQuery(TypedDict, total=False):
    """What GET /v1/validate takes beside the link: the event's date, format and list, and the messages' language."""

    date: dt.date
    format: Format
    banlist: str
    lang: str


def validate_link(ydke: str, query: LinkQuery) -> Call[ValidateResponse]:
    """GET /v1/validate: a deck as a ydke:// link in the query, the answer one a cache may keep."""
    params = {"ydke": ydke} | {key: str(value) for key, value in query.items()}  # a date as YYYY-MM-DD
    return Call("GET", "/v1/validate", _VALIDATED, params)


def parse(deck: Body) -> Call[ParseResponse]:
    """POST /v1/decks/parse."""
    return post("/v1/decks/parse", deck, _PARSED)


def convert(request: Body) -> Call[ConvertResponse]:
    """POST /v1/decks/convert."""
    return post("/v1/decks/convert", request, _CONVERTED)


def qr(request: Body, png: bool) -> Call[bytes]:
    """POST /v1/decks/convert with `to: qr` (whatever `to` the request gives): the QR code of the deck's ydke link,
    as SVG, or as PNG with `png`."""
    body = orjson.loads(json_body(request)) | {"to": "qr"}
    headers = {"Content-Type": "application/json", "Accept": "image/png" if png else "image/svg+xml"}
    return Call("POST", "/v1/decks/convert", _content, headers=headers, content=orjson.dumps(body))


def sheet(request: Body) -> Call[bytes]:
    """POST /v1/decks/convert with `to: sheet`: the deck's registration sheet as a PDF (the request's `sheet` and
    `names` say what it prints; without `names`, Accept-Language chooses)."""
    body = orjson.loads(json_body(request)) | {"to": "sheet"}
    headers = {"Content-Type": "application/json", "Accept": "application/pdf"}
    return Call("POST", "/v1/decks/convert", _content, headers=headers, content=orjson.dumps(body))


def read_paper(content: bytes, media_type: str, lang: str | None) -> Call[ReadResponse]:
    """POST /v1/decks/read: the deck on a photo, scan or PDF (`media_type` image/png, image/jpeg or
    application/pdf), its messages in `lang`."""
    headers = {"Content-Type": media_type, **language(lang)}
    return Call("POST", "/v1/decks/read", _READ, headers=headers, content=content)


def _content(response: httpx.Response) -> bytes:
    """The answer's bytes: an image."""
    return response.content


def card(passcode: int) -> Call[CardOutFull]:
    """GET /v1/cards/{passcode}."""
    return Call("GET", f"/v1/cards/{passcode:d}", _CARD)


def card_legality(passcode: int, date: dt.date | None) -> Call[CardLegality]:
    """GET /v1/cards/{passcode}/legality."""
    query = {} if date is None else {"date": date.isoformat()}
    return Call("GET", f"/v1/cards/{passcode:d}/legality", _LEGALITY, query)


def search(q: str, limit: int, offset: int) -> Call[list[SearchHit]]:
    """GET /v1/cards?q=…: one page of hits."""
    return Call("GET", "/v1/cards", _HITS, {"q": q, "limit": str(limit), "offset": str(offset)})


def banlists(format: Format | None) -> Call[list[BanlistSummary]]:
    """GET /v1/banlists: the first page; the others follow its Link header."""
    return Call("GET", "/v1/banlists", _LISTS, {} if format is None else {"format": format})


def banlist(list_id: str) -> Call[BanlistDetail]:
    """GET /v1/banlists/{id}."""
    return Call("GET", _list_path(list_id), _LIST, {"as": "json"})


def banlist_lflist(list_id: str) -> Call[str]:
    """GET /v1/banlists/{id}?as=lflist."""
    return Call("GET", _list_path(list_id), text, {"as": "lflist"})


def diff(a: str, b: str) -> Call[BanlistDiff]:
    """GET /v1/banlists/{a}/diff/{b}."""
    return Call("GET", f"{_list_path(a)}/diff/{quote(b, safe='')}", _DIFF)


def rules(lang: str | None) -> Call[list[RuleOut]]:
    """GET /v1/rules."""
    return Call("GET", "/v1/rules", _RULES, headers=language(lang))


def eras(lang: str | None) -> Call[list[EraOut]]:
    """GET /v1/rules/eras."""
    return Call("GET", "/v1/rules/eras", _ERAS, headers=language(lang))


def infractions(lang: str | None) -> Call[list[InfractionOut]]:
    """GET /v1/infractions."""
    return Call("GET", "/v1/infractions", _INFRACTIONS, headers=language(lang))


def assess(request: Body, lang: str | None) -> Call[AssessmentOut]:
    """POST /v1/penalties/assess."""
    return post("/v1/penalties/assess", request, _ASSESSED, lang)


def time_limit(request: Body, lang: str | None) -> Call[RulingOut]:
    """POST /v1/matches/time-limit."""
    return post("/v1/matches/time-limit", request, _RULED, lang)


def health() -> Call[Health]:
    """GET /healthz."""
    return Call("GET", "/healthz", _HEALTH)
