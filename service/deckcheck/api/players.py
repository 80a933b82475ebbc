"""A player's routes at an event (/v1/events/{event}/players/{player}…): registering their deck (every version
kept, two desks at once settled by If-Match), reading it with the verdict it gets now, and deck checks (PR 3.B)
against it, made and read back. What they stand on: api/event_access.py."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response

from deckcheck.api.event_access import (
    PLAYER_PATH,
    PRIVATE,
    EventId,
    PlayerId,
    Token,
    allowed,
    etag,
    private,
    registration_json,
    time_text,
)
from deckcheck.api.live_data import served
from deckcheck.api.problems import problem
from deckcheck.api.responses import EVENT_READ_PROBLEMS, EVENT_WRITE_PROBLEMS, AcceptLanguage, pick_language
from deckcheck.errors import NotFound
from deckcheck.events import (
    NEW,
    DeckCheck,
    Event,
    KeptCheck,
    ListChanged,
    NewRegistration,
    StaleVersion,
    checked,
    registered,
    status_of,
)
from deckcheck.wire.answers.events import DeckCheckOut, DeckCheckRecord, RegistrationOut
from deckcheck.wire.event_requests import DeckCheckRequest, RegisterRequest
from deckcheck.wire.requests import DeckIn

MAX_RETRIES = 3  # judgings of a registration whose event changed its list meanwhile
IfMatch = Annotated[
    str | None,
    Header(description="The ETag of the registration this one follows: 412 if another came since.", examples=['"v1"']),
]
IfNoneMatch = Annotated[
    str | None,
    Header(description="`*`: register only if the player has no registration yet, else 412.", examples=["*"]),
]
FIRST: dict[int | str, dict[str, Any]] = {
    201: {"model": RegistrationOut, "description": "The player's first registration."}
}

router = APIRouter(tags=["events"])
"""A player's routes at an event, over the events database of the app."""


@router.put(
    PLAYER_PATH,
    response_model=RegistrationOut,
    responses={**FIRST, **EVENT_WRITE_PROBLEMS},
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
    if_match: IfMatch = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Register a player's deck (201), or register it again (200): a new version, the earlier ones kept. The answer
    holds the verdict POST /v1/validate gives the deck on the event's day, format and list. Two desks registering
    the same player at once: one wins, the other gets 412 with the registration that won (`current`). A desk's or
    an organiser's token."""
    store, staff, held = allowed(request, token, event, "register")
    lang = pick_language(accept_language)
    deck = body.deck.model_dump(mode="json", exclude_unset=True)
    for attempt in range(MAX_RETRIES):
        if attempt:
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
    response = private(registration_json(held, kept, answer), lang, 201 if kept.version == 1 else 200)
    response.headers["ETag"] = etag(kept.version)
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
    extra = {"current": registration_json(event, exc.current, answer)}
    return problem(412, str(exc), exc.errors, headers={**PRIVATE, "ETag": etag(exc.current.version)}, extra=extra)


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
    store, _staff, held = allowed(request, token, event, "read")
    kept = store.registration(event, player, version)
    if kept is None:
        which = "" if version is None else f" of version {version}"
        raise NotFound.one(["path", "player"], f"Player {player} has no registration{which}.", "not_registered")
    lang = pick_language(accept_language)
    answer, _report = registered(held, DeckIn.model_validate(kept.deck), served(request).data, lang)
    response = private(registration_json(held, kept, answer), lang)
    response.headers["ETag"] = etag(kept.version)
    return response


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
    store, staff, held = allowed(request, token, event, "check")
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
    record = DeckCheck(
        player, kept.version, body.round, body.duel, body.phase, deck, report.legal, report.penalty, codes
    )
    made, when = store.record_check(staff, record)
    return private(
        {
            "id": made,
            "player": player,
            "round": body.round,
            "duel": body.duel,
            "phase": body.phase,
            "registration_version": kept.version,
            "checked_by": staff.label,
            "checked_at": time_text(when),
            "verdict": answer,
        },
        lang,
        201,
    )


@router.get(
    PLAYER_PATH + "/deck-checks",
    response_model=list[DeckCheckRecord],
    responses=EVENT_READ_PROBLEMS,
    operation_id="listPlayerDeckChecks",
)
def list_deck_checks(request: Request, event: EventId, player: PlayerId, token: Token) -> Response:
    """The player's deck checks at the event, oldest first: the round, duel and phase, the registration checked
    against, the deck presented, the verdict's legality, penalty and violation codes, and who checked it when. Any
    staff token of the event."""
    store = allowed(request, token, event, "read")[0]
    return private([_record_json(kept) for kept in store.deck_checks(event, player)])


def _record_json(kept: KeptCheck) -> dict[str, Any]:
    check = kept.check
    return {
        "id": kept.id,
        "player": check.player,
        "round": check.round,
        "duel": check.duel,
        "phase": check.phase,
        "registration_version": check.version,
        "deck": check.deck,
        "legal": check.legal,
        "penalty": check.penalty,
        "codes": list(check.codes),
        "checked_by": kept.checked_by,
        "checked_at": time_text(kept.checked_at),
    }
