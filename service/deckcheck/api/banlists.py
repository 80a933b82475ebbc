"""GET /v1/banlists, /v1/banlists/{id} and /v1/banlists/{id}/diff/{other}: the lists as a resource, in JSON or as
lflist.conf text (EDOPro, ygopro)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query
from fastapi.responses import Response

from deckcheck.api.responses import BAD_QUERY, NOT_FOUND, json_response
from deckcheck.data import STATUS_LIMITS, STATUS_NAMES, Banlist, CardIndex, Data, banlists_as_lflist, differences
from deckcheck.errors import RequestError
from deckcheck.model import Format
from deckcheck.wire import BANLIST_ID_PATTERN, banlist_json
from deckcheck.wire.answers import BanlistDetail, BanlistDiff, BanlistSummary

ListId = Annotated[str, Path(pattern=BANLIST_ID_PATTERN, max_length=20)]
LFLIST = {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "The list as lflist.conf text."}


def wants_lflist(as_: str | None, accept: str | None) -> bool:
    """Whether a list is asked for as lflist.conf text: `?as=lflist`, or an Accept header that takes text/plain
    and not JSON."""
    if as_ is not None:
        return as_ == "lflist"
    types = {part.split(";")[0].strip().lower() for part in (accept or "").split(",")}
    return "text/plain" in types and not types & {"application/json", "application/*"}


def _summary(banlist: Banlist) -> dict[str, Any]:
    limits = list(banlist.limits.values())
    counts = {status: limits.count(limit) for status, limit in STATUS_LIMITS.items()}
    return {**banlist_json(banlist), "format": banlist.format, "counts": counts}


def _card(cards: CardIndex, passcode: int) -> dict[str, Any]:
    card = cards.by_passcode[passcode]
    return {"passcode": passcode, "name_en": card.name_en, "name_ja": card.name_ja}


def build_banlists_router(data: Data) -> APIRouter:
    """The list routes, bound to the data loaded at start-up."""
    router = APIRouter(tags=["banlists"])

    def find(list_id: str, where: str) -> Banlist:
        found = data.banlists.get(list_id)
        if found is None:
            raise RequestError.one(["path", where], f"No bundled list is called {list_id}.", "unknown_banlist", 404)
        return found

    @router.get("/v1/banlists", response_model=list[BanlistSummary], responses=BAD_QUERY)
    def banlists(
        format: Annotated[Format | None, Query(description="ocg or tcg; default: both, OCG lists first.")] = None,
    ) -> Response:
        """Every bundled Forbidden/Limited list (of one format, if asked), oldest first, with its dates and counts."""
        chosen = data.banlists.lists if format is None else data.banlists.of_format(format)
        return json_response([_summary(b) for b in chosen])

    @router.get("/v1/banlists/{list_id}", response_model=BanlistDetail, responses={**NOT_FOUND, 200: LFLIST})
    def banlist(
        list_id: ListId,
        as_: Annotated[
            Literal["json", "lflist"] | None,
            Query(alias="as", description="lflist: the list as lflist.conf text (as Accept: text/plain does)."),
        ] = None,
        accept: Annotated[str | None, Header(include_in_schema=False)] = None,
    ) -> Response:
        """One list with the names of its Forbidden, Limited and Semi-Limited cards, or as lflist.conf text."""
        found = find(list_id, "list_id")
        if wants_lflist(as_, accept):
            return Response(
                banlists_as_lflist([found], data.cards),
                media_type="text/plain; charset=utf-8",
                headers={"Content-Disposition": f'inline; filename="{found.id}.lflist.conf"', "Vary": "Accept"},
            )
        entries: dict[str, list[dict[str, Any]]] = {status: [] for status in STATUS_LIMITS}
        for passcode, limit in sorted(found.limits.items()):
            entries[STATUS_NAMES[limit]].append(_card(data.cards, passcode))
        answer = json_response({**_summary(found), **entries})
        answer.headers["Vary"] = "Accept"  # the same URL answers JSON or lflist text by Accept
        return answer

    @router.get("/v1/banlists/{list_id}/diff/{other_id}", response_model=BanlistDiff, responses=NOT_FOUND)
    def diff(list_id: ListId, other_id: ListId) -> Response:
        """Every card whose status changes from the first list to the second, old status to new."""
        old, new = find(list_id, "list_id"), find(other_id, "other_id")
        changes = [
            {**_card(data.cards, p), "from": STATUS_NAMES[a], "to": STATUS_NAMES[b], "from_limit": a, "to_limit": b}
            for p, a, b in differences(old, new, data.cards)
        ]
        return json_response({"from": banlist_json(old), "to": banlist_json(new), "changes": changes})

    return router
