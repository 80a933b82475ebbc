"""GET /v1/banlists, /v1/banlists/{id} and /v1/banlists/{id}/diff/{other}: the lists as a resource, in JSON or as
lflist.conf text (EDOPro, ygopro)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response

from deckcheck.api.live_data import served
from deckcheck.api.negotiation import choose_media, not_acceptable
from deckcheck.api.responses import BAD_QUERY, NEGOTIATED, NOT_FOUND, cached, json_response, paged
from deckcheck.data import STATUS_LIMITS, STATUS_NAMES, Banlist, CardIndex, Data, banlists_as_lflist, differences
from deckcheck.errors import NotFound
from deckcheck.model import Format
from deckcheck.wire.answers import BanlistDetail, BanlistDiff, BanlistSummary
from deckcheck.wire.reports import banlist_json
from deckcheck.wire.requests import BANLIST_ID_PATTERN

ListId = Annotated[
    str,
    Path(pattern=BANLIST_ID_PATTERN, max_length=20, description="A bundled list's id.", examples=["ocg-2008-09-01"]),
]
OtherId = Annotated[
    str,
    Path(pattern=BANLIST_ID_PATTERN, max_length=20, description="The list compared with.", examples=["ocg-2009-03-01"]),
]
LFLIST = {
    "content": {"text/plain": {"schema": {"type": "string"}}},
    "description": "The list as JSON, or as lflist.conf text with Accept: text/plain or ?as=lflist.",
}
# A page holds every bundled list unless a smaller one is asked for: a client that reads no Link header misses none.
MAX_PAGE = 500


def wants_lflist(as_: str | None, accept: str | None) -> bool:
    """Whether a list is asked for as lflist.conf text: `?as=lflist`, or an Accept header that weighs text/plain
    above JSON (JSON on a tie). A request that refuses both, and asks no `as`, is answered 406."""
    if as_ is not None:
        return as_ == "lflist"
    chosen = choose_media(accept, ["application/json", "text/plain"])
    if chosen is None:
        raise not_acceptable(["application/json", "text/plain"])
    return chosen == "text/plain"


def _summary(banlist: Banlist) -> dict[str, Any]:
    limits = list(banlist.limits.values())
    counts = {status: limits.count(limit) for status, limit in STATUS_LIMITS.items()}
    return {**banlist_json(banlist), "format": banlist.format, "counts": counts}


def _card(cards: CardIndex, passcode: int) -> dict[str, Any]:
    card = cards.by_passcode[passcode]
    return {"passcode": passcode, "name_en": card.name_en, "name_ja": card.name_ja}


router = APIRouter(tags=["banlists"])
"""The list routes, over the data each request arrived to."""


def _find(data: Data, list_id: str, where: str) -> Banlist:
    found = data.banlists.get(list_id)
    if found is None:
        raise NotFound.one(["path", where], f"No bundled list is called {list_id}.", "unknown_banlist")
    return found


@router.get(
    "/v1/banlists",
    response_model=list[BanlistSummary],
    responses={**BAD_QUERY, **cached(paged=True)},
    operation_id="listBanlists",
)
def banlists(
    request: Request,
    format: Annotated[
        Format | None, Query(description="ocg or tcg; default: both, OCG lists first.", examples=["tcg"])
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Lists on this page.", examples=[20])] = MAX_PAGE,
    offset: Annotated[int, Query(ge=0, description="Lists skipped: the page's start.", examples=[0])] = 0,
) -> Response:
    """The bundled Forbidden/Limited lists (of one format, if asked), oldest first, with their dates and counts.
    A page at a time: when more lists follow, a `Link` header names the next page (rel="next")."""
    data, caching = served(request).data, served(request).caching
    etag = caching.etag()
    if unchanged := caching.answer(request, etag):
        return unchanged
    chosen = data.banlists.lists if format is None else data.banlists.of_format(format)
    answer = json_response([_summary(b) for b in chosen[offset : offset + limit]])
    return caching.keep(paged(answer, request, offset + limit if offset + limit < len(chosen) else None), etag)


@router.get(
    "/v1/banlists/{list_id}",
    response_model=BanlistDetail,
    responses={**NEGOTIATED, **cached(ok=LFLIST)},
    operation_id="getBanlist",
)
def banlist(
    request: Request,
    list_id: ListId,
    as_: Annotated[
        Literal["json", "lflist"] | None,
        Query(
            alias="as",
            description="lflist: the list as lflist.conf text (as Accept: text/plain does); json: as JSON "
            "whatever Accept says.",
            examples=["lflist"],
        ),
    ] = None,
    accept: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> Response:
    """One list with the names of its Forbidden, Limited and Semi-Limited cards, or as lflist.conf text."""
    data, caching = served(request).data, served(request).caching
    found = _find(data, list_id, "list_id")
    lflist = wants_lflist(as_, accept)
    # The same URL answers JSON or lflist text by Accept: each has its own ETag.
    etag, vary = caching.etag("lflist" if lflist else "json"), ("Accept",)
    if unchanged := caching.answer(request, etag, vary):
        return unchanged
    if lflist:
        text = Response(
            banlists_as_lflist([found], data.cards),
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'inline; filename="{found.id}.lflist.conf"'},
        )
        return caching.keep(text, etag, vary)
    entries: dict[str, list[dict[str, Any]]] = {status: [] for status in STATUS_LIMITS}
    for passcode, limit in sorted(found.limits.items()):
        entries[STATUS_NAMES[limit]].append(_card(data.cards, passcode))
    return caching.keep(json_response({**_summary(found), **entries}), etag, vary)


@router.get(
    "/v1/banlists/{list_id}/diff/{other_id}",
    response_model=BanlistDiff,
    responses={**NOT_FOUND, **cached()},
    operation_id="diffBanlists",
)
def diff(request: Request, list_id: ListId, other_id: OtherId) -> Response:
    """Every card whose status changes from the first list to the second, old status to new."""
    data, caching = served(request).data, served(request).caching
    old, new = _find(data, list_id, "list_id"), _find(data, other_id, "other_id")
    etag = caching.etag()
    if unchanged := caching.answer(request, etag):
        return unchanged
    changes = [
        {**_card(data.cards, p), "from": STATUS_NAMES[a], "to": STATUS_NAMES[b], "from_limit": a, "to_limit": b}
        for p, a, b in differences(old, new, data.cards)
    ]
    return caching.keep(json_response({"from": banlist_json(old), "to": banlist_json(new), "changes": changes}), etag)
