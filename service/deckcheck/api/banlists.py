"""GET /v1/banlists, /v1/banlists/{id} and /v1/banlists/{id}/diff/{other}: the lists as a resource."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import Response

from deckcheck.api.responses import NOT_FOUND, json_response
from deckcheck.api.schemas import BanlistDetail, BanlistDiff, BanlistSummary
from deckcheck.data import STATUS_LIMITS, STATUS_NAMES, Banlist, CardIndex, Data, differences
from deckcheck.errors import RequestError
from deckcheck.wire import BANLIST_ID_PATTERN, banlist_json

ListId = Annotated[str, Path(pattern=BANLIST_ID_PATTERN, max_length=20)]


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

    @router.get("/v1/banlists", response_model=list[BanlistSummary])
    def banlists() -> Response:
        """Every bundled Forbidden/Limited list, oldest first, with its dates and counts."""
        return json_response([_summary(b) for b in data.banlists.lists])

    @router.get("/v1/banlists/{list_id}", response_model=BanlistDetail, responses=NOT_FOUND)
    def banlist(list_id: ListId) -> Response:
        """One list with the names of its Forbidden, Limited and Semi-Limited cards."""
        found = find(list_id, "list_id")
        entries: dict[str, list[dict[str, Any]]] = {status: [] for status in STATUS_LIMITS}
        for passcode, limit in sorted(found.limits.items()):
            entries[STATUS_NAMES[limit]].append(_card(data.cards, passcode))
        return json_response({**_summary(found), **entries})

    @router.get("/v1/banlists/{list_id}/diff/{other_id}", response_model=BanlistDiff, responses=NOT_FOUND)
    def diff(list_id: ListId, other_id: ListId) -> Response:
        """Every card whose status changes from the first list to the second, old status to new."""
        old, new = find(list_id, "list_id"), find(other_id, "other_id")
        changes = [
            {**_card(data.cards, p), "from": STATUS_NAMES[a], "to": STATUS_NAMES[b], "from_limit": a, "to_limit": b}
            for p, a, b in differences(old, new)
        ]
        return json_response({"from": banlist_json(old), "to": banlist_json(new), "changes": changes})

    return router
