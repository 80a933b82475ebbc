"""An event's routes (/v1/events/…): the event, its players' registrations (every version kept) and deck checks
(PR 3.B), over the events database (deckcheck.events). Each needs a staff token of the event, whose role allows what
it does (events/staff.py); names and CARD GAME IDs go only to those who hold one, and no answer is kept by a cache."""

from __future__ import annotations

import csv
import io
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header, Path, Query, Request, Security
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import served
from deckcheck.api.problems import problem
from deckcheck.api.responses import (
    EVENT_READ_PROBLEMS,
    EVENT_WRITE_PROBLEMS,
    AcceptLanguage,
    json_response,
    paged,
    pick_language,
)
from deckcheck.errors import NotFound
from deckcheck.events import (
    NEW,
    STATUSES,
    Action,
    DeckCheck,
    Event,
    EventStore,
    ListChanged,
    NewRegistration,
    Registration,
    Staff,
    StaleVersion,
    Status,
    Unauthorized,
    checked,
    judge,
    registered,
    status_of,
)
from deckcheck.spreadsheet import as_text
from deckcheck.wire.answers.events import DeckCheckOut, EventOut, ListChangeOut, PlayerPage, RegistrationOut
from deckcheck.wire.event_requests import EVENT_PATTERN, PLAYER_PATTERN, DeckCheckRequest, EventChange, RegisterRequest
from deckcheck.wire.inputs import bundled_list
from deckcheck.wire.requests import DeckIn

EVENT_PATH = "/v1/events/{event}"
PLAYERS_PATH = EVENT_PATH + "/players"
PLAYER_PATH = PLAYERS_PATH + "/{player}"
MAX_PAGE = 200
MAX_RETRIES = 3  # judgings of a registration whose event changed its list meanwhile
PRIVATE = {"Cache-Control": "no-store"}  # names and CARD GAME IDs: never kept by a browser's or a proxy's cache

router = APIRouter(tags=["events"])
"""The event routes, over the events database of the app."""

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


def _staff(request: Request, token: Token, event: str, action: Action) -> tuple[EventStore, Staff]:
    """The app's events and who the token is, allowed to do `action` at `event`; else 401, 403 or 404."""
    store = app_state(request).events
    if token is None:
        msg = "The event routes need Authorization: Bearer and a staff token of the event."
        raise Unauthorized.one(["header", "Authorization"], msg, "token_missing")
    staff = store.staff(token.credentials)
    if staff is None:
        msg = "The token is no staff token in use: ask the organiser for one."
        raise Unauthorized.one(["header", "Authorization"], msg, "token_unknown")
    staff.allow(event, action)
    return store, staff


def _private(body: Any, lang: str | None = None, status: int = 200) -> Response:
    response = json_response(body, lang)
    response.status_code = status
    response.headers.update(PRIVATE)
    return response


@router.get(EVENT_PATH, response_model=EventOut, responses=EVENT_READ_PROBLEMS, operation_id="getEvent")
def get_event(request: Request, event: EventId, token: Token) -> Response:
    """The event: its day, format and list, the role and label of the token, and its players by status. Any
    staff token of the event."""
    store, staff = _staff(request, token, event, "read")
    return _private(_event_json(store.event(event), staff, store.counts(event)))


@router.patch(EVENT_PATH, response_model=ListChangeOut, responses=EVENT_WRITE_PROBLEMS, operation_id="changeEvent")
def change_event(request: Request, event: EventId, body: EventChange, token: Token) -> Response:
    """Play the event under another list (an organiser's token): every player's current registration is checked
    again under it, in one transaction, and each player whose status changed is listed, the newly illegal apart."""
    store = _staff(request, token, event, "organise")[0]
    held = store.event(event)
    data = served(request).data
    if body.banlist is not None:
        bundled_list(body.banlist, held.format, data, ["body", "banlist"])  # unknown, or another format's: 422
    now = Event(held.id, held.name, held.date, held.format, body.banlist)
    changed = store.change_list(event, body.banlist, judge(now, data))
    answer = {
        "banlist": body.banlist,
        "checked": sum(store.counts(event).values()),
        "changed": [{**_player_json(player), "before": before} for player, before in changed],
        "newly_illegal": [p.player for p, before in changed if p.status == "illegal" and before != "illegal"],
    }
    return _private(answer)


@router.delete(EVENT_PATH, status_code=204, responses=EVENT_READ_PROBLEMS, operation_id="deleteEvent")
def delete_event(request: Request, event: EventId, token: Token) -> Response:
    """Delete the event and everything kept of it: its tokens, every registration and deck check (an organiser's
    token). It cannot be undone."""
    store = _staff(request, token, event, "organise")[0]
    store.delete_event(event)
    return Response(status_code=204, headers=PRIVATE)


@router.put(
    PLAYER_PATH,
    response_model=RegistrationOut,
    responses={
        201: {"model": RegistrationOut, "description": "The player's first registration."},
        **EVENT_WRITE_PROBLEMS,
    },
    operation_id="registerPlayer",
)
def register_player(
    request: Request,
    *,
    event: EventId,
    player: PlayerId,
    body: RegisterRequest,
    token: Token,
    accept_language: AcceptLanguage = None,
    if_match: Annotated[
        str | None,
        Header(
            description="The ETag of the registration this one follows: 412 if another came since.", examples=['"v1"']
        ),
    ] = None,
    if_none_match: Annotated[
        str | None,
        Header(description="`*`: register only if the player has no registration yet, else 412.", examples=["*"]),
    ] = None,
) -> Response:
    """Register a player's deck (201), or register it again (200): a new version, the earlier ones kept. The answer
    holds the verdict POST /v1/validate gives the deck on the event's day, format and list. Two desks registering
    the same player at once: one wins, the other gets 412 with the registration that won (`current`). A desk's or
    an organiser's token."""
    store, staff = _staff(request, token, event, "register")
    lang = pick_language(accept_language)
    deck = body.deck.model_dump(mode="json", exclude_unset=True)
    for _attempt in range(MAX_RETRIES):
        held = store.event(event)
        answer, report = registered(held, body.deck, served(request).data, lang)
        new = NewRegistration(body.name, body.card_game_id, deck, body.source, status_of(report))
        try:
            kept = store.register(staff, player, new, _expected(if_match, if_none_match), held)
            break
        except StaleVersion as exc:
            return _stale(exc, held, request, lang)
        except ListChanged:
            continue  # the organiser changed the list meanwhile: judged again under the new one
    else:
        raise ListChanged("The event's list kept changing while the registration was judged: send it again.")
    response = _private(_registration_json(held, kept, answer), lang, 201 if kept.version == 1 else 200)
    response.headers["ETag"] = _etag(kept.version)
    return response


def _expected(if_match: str | None, if_none_match: str | None) -> int | None:
    """The version a registration follows, as its preconditions say (NEW: none), or None for any."""
    if if_none_match is not None and if_none_match.strip() == "*":
        return NEW
    if if_match is None or if_match.strip() == "*":
        return None
    tag = if_match.strip().removeprefix("W/").strip('"')
    return int(tag[1:]) if tag[:1] == "v" and tag[1:].isdigit() and len(tag) < 12 else -1  # -1: matches none


def _stale(exc: StaleVersion, event: Event, request: Request, lang: str) -> Response:
    """412, with the registration that is current when there is one."""
    if exc.current is None:
        return problem(412, str(exc), exc.errors, headers=PRIVATE)
    answer, _report = registered(event, DeckIn.model_validate(exc.current.deck), served(request).data, lang)
    extra = {"current": _registration_json(event, exc.current, answer)}
    return problem(412, str(exc), exc.errors, headers={**PRIVATE, "ETag": _etag(exc.current.version)}, extra=extra)


@router.get(PLAYER_PATH, response_model=RegistrationOut, responses=EVENT_READ_PROBLEMS, operation_id="getPlayer")
def get_player(
    request: Request,
    *,
    event: EventId,
    player: PlayerId,
    token: Token,
    accept_language: AcceptLanguage = None,
    version: Annotated[
        int | None, Query(ge=1, le=1_000_000, description="An earlier version; default the current one.", examples=[1])
    ] = None,
) -> Response:
    """A player's registration (the current one, or `version`): the deck, who registered it and when, and the
    verdict it gets now on the event's day, format and list. Any staff token of the event."""
    store = _staff(request, token, event, "read")[0]
    held = store.event(event)
    kept = store.registration(event, player, version)
    if kept is None:
        which = "" if version is None else f" of version {version}"
        raise NotFound.one(["path", "player"], f"Player {player} has no registration{which}.", "not_registered")
    lang = pick_language(accept_language)
    answer, _report = registered(held, DeckIn.model_validate(kept.deck), served(request).data, lang)
    response = _private(_registration_json(held, kept, answer), lang)
    response.headers["ETag"] = _etag(kept.version)
    return response


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
    store = _staff(request, token, event, "read")[0]
    rows, total = store.players(event, status, q, offset, limit)
    answer = {"players": [_player_json(row) for row in rows], "total": total, "offset": offset, "limit": limit}
    return paged(_private(answer), request, offset + limit if offset + limit < total else None)


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
    store = _staff(request, token, event, "export")[0]
    store.event(event)
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


@router.post(
    PLAYER_PATH + "/deck-checks",
    status_code=201,
    response_model=DeckCheckOut,
    responses=EVENT_WRITE_PROBLEMS,
    operation_id="checkPlayerDeck",
)
def check_deck(
    request: Request,
    *,
    event: EventId,
    player: PlayerId,
    body: DeckCheckRequest,
    token: Token,
    accept_language: AcceptLanguage = None,
) -> Response:
    """A deck check (PR 3.B): the deck the player presents, checked against their current registration as its Deck
    Roster Sheet (TR 2.B), so that each difference is a roster_mismatch with its penalty and the duel it costs; and
    recorded, with the round and the judge's token label. A judge's or an organiser's token."""
    store, staff = _staff(request, token, event, "check")
    held = store.event(event)
    kept = store.registration(event, player)
    if kept is None:
        raise NotFound.one(
            ["path", "player"], f"Player {player} has no registration to check against.", "not_registered"
        )
    lang = pick_language(accept_language)
    roster = DeckIn.model_validate(kept.deck)
    data = served(request).data
    answer, report = checked(held, body.deck, roster, data, lang, duel=body.duel, phase=body.phase)
    codes = [violation.code for violation in report.violations]
    deck = body.deck.model_dump(mode="json", exclude_unset=True)
    record = DeckCheck(player, kept.version, body.round, deck, report.legal, report.penalty, codes)
    made, when = store.record_check(staff, record)
    return _private(
        {
            "id": made,
            "player": player,
            "round": body.round,
            "duel": body.duel,
            "phase": body.phase,
            "registration_version": kept.version,
            "checked_by": staff.label,
            "checked_at": _time(when),
            "verdict": answer,
        },
        lang,
        201,
    )


def _etag(version: int) -> str:
    return f'"v{version}"'


def _time(when: Any) -> str:
    return str(when.isoformat().replace("+00:00", "Z"))


def _event_json(event: Event, staff: Staff, counts: dict[str, int]) -> dict[str, Any]:
    return {
        "id": event.id,
        "name": event.name,
        "date": event.date.isoformat(),
        "format": event.format,
        "banlist": event.banlist,
        "you": {"role": staff.role, "label": staff.label},
        "players": {status: counts.get(status, 0) for status in STATUSES},
    }


def _registration_json(event: Event, kept: Registration, verdict: dict[str, Any]) -> dict[str, Any]:
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
        "registered_at": _time(kept.registered_at),
        "verdict": verdict,
    }


def _player_json(row: Any) -> dict[str, Any]:
    return {
        "player": row.player,
        "version": row.version,
        "name": row.name,
        "card_game_id": row.card_game_id,
        "status": row.status,
        "updated_at": _time(row.updated_at),
    }
