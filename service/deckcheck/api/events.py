"""An event's own routes (/v1/events/{event}, …/players, …/players.csv): the event, a change of its list that
judges every registration again, its deletion, and the list of its players, paged or as CSV. The players' own routes
are api/players.py's; what both stand on, api/event_access.py's."""

from __future__ import annotations

import csv
import io
from typing import Annotated

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from deckcheck.api.event_access import (
    EVENT_PATH,
    PLAYERS_PATH,
    PRIVATE,
    EventId,
    Token,
    allowed,
    event_json,
    player_json,
    private,
)
from deckcheck.api.live_data import served
from deckcheck.api.responses import EVENT_READ_PROBLEMS, EVENT_WRITE_PROBLEMS, paged
from deckcheck.events import Event, Registration, Status, judge
from deckcheck.spreadsheet import as_text
from deckcheck.wire.answers.events import EventOut, ListChangeOut, PlayerPage
from deckcheck.wire.event_requests import EventChange
from deckcheck.wire.inputs import bundled_list

MAX_PAGE = 200
CSV_HEAD = ["player", "name", "card_game_id", "version", "status", "registered_by", "registered_at", "source", "deck"]
PlayerStatusQuery = Annotated[
    Status | None, Query(description="Only the players of this status.", examples=["illegal"])
]
SearchQuery = Annotated[
    str | None,
    Query(min_length=1, max_length=100, description="Part of a player id, name or CARD GAME ID.", examples=["山田"]),
]

router = APIRouter(tags=["events"])
"""The event's own routes, over the events database of the app."""


@router.get(EVENT_PATH, response_model=EventOut, responses=EVENT_READ_PROBLEMS, operation_id="getEvent")
def get_event(request: Request, event: EventId, token: Token) -> Response:
    """The event: its day, format and list, the role and label of the token, and its players by status. Any
    staff token of the event."""
    store, staff, held = allowed(request, token, event, "read")
    return private(event_json(held, staff, store.counts(event)))


@router.patch(EVENT_PATH, response_model=ListChangeOut, responses=EVENT_WRITE_PROBLEMS, operation_id="changeEvent")
def change_event(request: Request, event: EventId, body: EventChange, token: Token) -> Response:
    """Play the event under another list (an organiser's token): every player's current registration is checked
    again under it, in one transaction, and each player whose status changed is listed, the newly illegal apart."""
    store, _staff, held = allowed(request, token, event, "organise")
    data = served(request).data
    if body.banlist is not None:
        bundled_list(body.banlist, held.format, data, ["body", "banlist"])  # unknown, or another format's: 422
    now = Event(held.id, held.name, held.date, held.format, body.banlist)
    changed = store.change_list(event, body.banlist, judge(now, data))
    answer = {
        "banlist": body.banlist,
        "checked": sum(store.counts(event).values()),
        "changed": [{**player_json(player), "before": before} for player, before in changed],
        "newly_illegal": [p.player for p, before in changed if p.status == "illegal" and before != "illegal"],
    }
    return private(answer)


@router.delete(EVENT_PATH, status_code=204, responses=EVENT_READ_PROBLEMS, operation_id="deleteEvent")
def delete_event(request: Request, event: EventId, token: Token) -> Response:
    """Delete the event and everything kept of it: its tokens, every registration and deck check (an organiser's
    token). It cannot be undone."""
    store = allowed(request, token, event, "organise")[0]
    store.delete_event(event)
    return Response(status_code=204, headers=PRIVATE)


@router.get(PLAYERS_PATH, response_model=PlayerPage, responses=EVENT_READ_PROBLEMS, operation_id="listPlayers")
def list_players(
    request: Request,
    *,
    event: EventId,
    token: Token,
    status: Annotated[
        Status | None, Query(description="Only the players of this status.", examples=["illegal"])
    ] = None,
    q: Annotated[
        str | None,
        Query(
            min_length=1, max_length=100, description="Part of a player id, name or CARD GAME ID.", examples=["山田"]
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Players on this page.", examples=[50])] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000, description="Players skipped.", examples=[0])] = 0,
) -> Response:
    """The event's players by player id, a page at a time (a `Link` header names the next), of one status and
    matching `q` if given. Any staff token of the event."""
    store = allowed(request, token, event, "read")[0]
    rows, total = store.players(event, status, q, offset, limit)
    answer = {"players": [player_json(row) for row in rows], "total": total, "offset": offset, "limit": limit}
    return paged(private(answer), request, offset + limit if offset + limit < total else None)


@router.get(
    PLAYERS_PATH + ".csv",
    responses={200: {"content": {"text/csv": {}}, "description": "A row a player."}, **EVENT_READ_PROBLEMS},
    response_class=Response,
    operation_id="exportPlayers",
)
def export_players(request: Request, event: EventId, token: Token) -> Response:
    """Every player's current registration as CSV for a spreadsheet (UTF-8 with a byte order mark; a cell that
    would begin as a formula is kept as text): player, name, CARD GAME ID, version, status, who registered it and
    when, how, and the deck as JSON. An organiser's token."""
    store = allowed(request, token, event, "export")[0]
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(
        ["player", "name", "card_game_id", "version", "status", "registered_by", "registered_at", "source", "deck"]
    )
    for kept in store.current_registrations(event):
        writer.writerow([as_text(cell) for cell in _csv_row(kept)])
    headers = {**PRIVATE, "Content-Disposition": f'attachment; filename="{event}-players.csv"'}
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers=headers)


def _csv_row(kept: Registration) -> list[str]:
    when = kept.registered_at.isoformat().replace("+00:00", "Z")
    deck = orjson.dumps(kept.deck).decode()
    return [
        kept.player,
        kept.name,
        kept.card_game_id or "",
        str(kept.version),
        kept.status,
        kept.registered_by,
        when,
        kept.source,
        deck,
    ]
