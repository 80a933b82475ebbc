"""What every event route (api/events.py, api/players.py) stands on: the staff token it needs (`allowed`, 401, 403
or 404 by events/staff.py), the event's and player's ids as paths take them, and answers no cache keeps (names and
CARD GAME IDs go only to those who hold a token of the event), with the JSON of what the event keeps."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Request, Security
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from deckcheck.api.app_state import app_state
from deckcheck.api.responses import json_response
from deckcheck.events import STATUSES, Action, Event, EventStore, PlayerRow, Registration, Staff, Unauthorized
from deckcheck.wire.event_requests import EVENT_PATTERN, PLAYER_PATTERN

EVENT_PATH = "/v1/events/{event}"
PLAYERS_PATH = EVENT_PATH + "/players"
PLAYER_PATH = PLAYERS_PATH + "/{player}"
PRIVATE = {"Cache-Control": "no-store"}  # never kept by a browser's or a proxy's cache

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="staffToken",
    description="A staff token of the event (desk, judge or organiser), as `deckcheck event create` or `deckcheck "
    "event tokens` printed it.",
)
Token = Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)]
EventId = Annotated[
    str,
    Path(
        pattern=EVENT_PATTERN,
        description="The event's id, as `deckcheck event create` printed it.",
        examples=["ev-3f9a1c2b7d"],
    ),
]
PlayerId = Annotated[
    str,
    Path(
        pattern=PLAYER_PATTERN, description="The player's id at the event: letters, digits, . _ -.", examples=["0042"]
    ),
]


def allowed(request: Request, token: Token, event: str, action: Action) -> tuple[EventStore, Staff, Event]:
    """The app's events, who the token is and its event, allowed to do `action` at `event`; else 401, 403 or 404."""
    store = app_state(request).events
    if token is None:
        msg = "The event routes need Authorization: Bearer and a staff token of the event."
        raise Unauthorized.one(["header", "Authorization"], msg, "token_missing")
    found = store.access(token.credentials)
    if found is None:
        msg = "The token is no staff token in use: ask the organiser for one."
        raise Unauthorized.one(["header", "Authorization"], msg, "token_unknown")
    staff, held = found
    staff.allow(event, action)
    return store, staff, held


def private(body: Any, lang: str | None = None, status: int = 200) -> Response:
    """A JSON answer that no cache keeps."""
    response = json_response(body, lang)
    response.status_code = status
    response.headers.update(PRIVATE)
    return response


def etag(version: int) -> str:
    """The ETag of a registration's version, which If-Match names."""
    return f'"v{version}"'


def time_text(when: Any) -> str:
    """A time of the event's records as the answers write it: ISO 8601 in UTC, with Z."""
    return str(when.isoformat().replace("+00:00", "Z"))


def event_json(event: Event, staff: Staff, counts: dict[str, int]) -> dict[str, Any]:
    """GET /v1/events/{event}'s answer."""
    return {
        "id": event.id,
        "name": event.name,
        "date": event.date.isoformat(),
        "format": event.format,
        "banlist": event.banlist,
        "you": {"role": staff.role, "label": staff.label},
        "players": {status: counts.get(status, 0) for status in STATUSES},
    }


def registration_json(event: Event, kept: Registration, verdict: dict[str, Any]) -> dict[str, Any]:
    """A registration and the verdict it gets now."""
    return {
        "event": event.id,
        "player": kept.player,
        "version": kept.version,
        "name": kept.name,
        "card_game_id": kept.card_game_id,
        "deck": kept.deck,
        "source": kept.source,
        "status": kept.status,
        "registered_by": kept.registered_by,
        "registered_at": time_text(kept.registered_at),
        "verdict": verdict,
    }


def player_json(row: PlayerRow) -> dict[str, Any]:
    """A player of the list of players."""
    return {
        "player": row.player,
        "version": row.version,
        "name": row.name,
        "card_game_id": row.card_game_id,
        "status": row.status,
        "updated_at": time_text(row.updated_at),
    }
