"""The answers of an event's routes (/v1/events/…): the event, a player's registration and its verdict, the list of
players, a deck check (PR 3.B), and what a change of the event's list did."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import ConfigDict, Field

import deckcheck.wire.answers.event_examples as ex
from deckcheck.wire.answers.verdict import ValidateResponse
from deckcheck.wire.base import WireModel
from deckcheck.wire.enums import Penalty, RuleCode
from deckcheck.wire.request_values import Duel

StaffRole = Literal["desk", "judge", "organiser"]
PlayerStatus = Literal["legal", "needs_review", "illegal"]
DeckSource = Literal["typed", "qr", "paper"]
STATUS = Field(
    description="legal; needs_review: legal as read, but a card name was read loosely, for the desk to confirm; "
    "illegal: the deck breaks a rule.",
    examples=["illegal"],
)
PLAYER_ID = Field(description="The player's id at the event (the desk's number).", examples=["0042"])
NAME = Field(description="The player's name as registered; only token holders see it.", examples=["山田 太郎"])
CARD_GAME_ID = Field(description="The player's CARD GAME ID, when one was given.", examples=["0000123456"])


class StaffOut(WireModel):
    """The token a request came with: its role and label."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.STAFF]})

    role: StaffRole = Field(description="desk, judge or organiser.", examples=["desk"])
    label: str = Field(description="The token's label, which the records it makes name.", examples=["desk-1"])


class PlayerCounts(WireModel):
    """How many players are registered, by the status of their current registration."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.STATUS_COUNTS]})

    legal: int = Field(description="Players whose deck is legal.", examples=[118])
    needs_review: int = Field(description="Players whose deck is legal as read, a name read loosely.", examples=[2])
    illegal: int = Field(description="Players whose deck breaks a rule.", examples=[3])


class EventOut(WireModel):
    """An event: its day, format and list, who is asking, and how its players stand."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.EVENT]})

    id: str = Field(description="The event's id.", examples=[ex.EVENT_ID])
    name: str = Field(description="The event's name.", examples=["Summer regional"])
    date: dt.date = Field(
        description="The event's day: it picks the list, printings and rules.", examples=["2008-06-01"]
    )
    format: Literal["ocg", "tcg"] = Field(description="The event's format.", examples=["ocg"])
    banlist: str | None = Field(
        description="The bundled list the event is played under; null: the format's list in force on its day.",
        examples=[None],
    )
    you: StaffOut = Field(description="The token the request came with.", examples=[ex.STAFF])
    players: PlayerCounts = Field(description="The players registered, by status.", examples=[ex.STATUS_COUNTS])


class RegistrationOut(WireModel):
    """One version of a player's registration: the deck as the desk gave it, and the answer POST /v1/validate gives
    it on the event's day, format and list."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.REGISTRATION]})

    event: str = Field(description="The event's id.", examples=[ex.EVENT_ID])
    player: str = PLAYER_ID
    version: int = Field(
        description="1 for the first registration, one more for each after it; ETag names it.", examples=[2]
    )
    name: str = NAME
    card_game_id: str | None = CARD_GAME_ID
    deck: dict[str, Any] = Field(
        description="The deck as registered, in the form it was given (the `deck` of the PUT).",
        examples=[{"ydke": "ydke://rvTMAq70zAKu9MwCSnBJAw==!viOnAg==!!"}],
    )
    source: DeckSource = Field(
        description="How the desk took the list: typed, from a QR code, or from paper.", examples=["qr"]
    )
    status: PlayerStatus = STATUS
    registered_by: str = Field(description="The label of the token that registered it.", examples=["desk-1"])
    registered_at: dt.datetime = Field(description="When it was registered (UTC).", examples=["2008-06-01T00:41:07Z"])
    verdict: ValidateResponse = Field(
        description="The answer POST /v1/validate gives the deck on the event's day, format and list, now.",
        examples=[ex.VALIDATE_RESPONSE],
    )


class PlayerOut(WireModel):
    """A player in the event's list, by their current registration."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PLAYER]})

    player: str = PLAYER_ID
    version: int = Field(description="The current registration's version.", examples=[2])
    name: str = NAME
    card_game_id: str | None = CARD_GAME_ID
    status: PlayerStatus = STATUS
    updated_at: dt.datetime = Field(description="When it was registered (UTC).", examples=["2008-06-01T00:41:07Z"])


class PlayerPage(WireModel):
    """A page of the event's players, by player id."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PLAYER_PAGE]})

    players: list[PlayerOut] = Field(description="The players of this page.", examples=[[ex.PLAYER]])
    total: int = Field(description="Players that match, on every page.", examples=[3])
    offset: int = Field(description="Players skipped before this page.", examples=[0])
    limit: int = Field(description="Players a page holds at most.", examples=[50])


class _Checked(WireModel):
    """What a deck check's answer and its record share: which check, of whom, when and by whom."""

    id: int = Field(description="The record's number.", examples=[17])
    player: str = PLAYER_ID
    round: int = Field(description="The round the deck was checked in.", examples=[3])
    duel: Duel = Field(description="The duel of the match the deck was presented for.", examples=[1])
    phase: Literal["between_duels", "during_duel"] = Field(
        description="When it was checked: between duels (or before the first; a forfeit costs the next duel) or "
        "during a duel (it costs the current one), PR 1.C.",
        examples=["between_duels"],
    )
    registration_version: int = Field(description="The registration the deck was checked against.", examples=[2])
    checked_by: str = Field(description="The label of the judge's token.", examples=["judge-4"])
    checked_at: dt.datetime = Field(description="When it was checked (UTC).", examples=["2008-06-01T04:12:55Z"])


class DeckCheckOut(_Checked):
    """A deck check (PR 3.B) as made: the deck presented checked against the registration as its Deck Roster Sheet,
    every difference a roster_mismatch with its penalty."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.DECK_CHECK]})

    verdict: ValidateResponse = Field(
        description="POST /v1/validate's answer for the deck presented with the registered deck as its roster.",
        examples=[ex.VALIDATE_RESPONSE],
    )


class DeckCheckRecord(_Checked):
    """A deck check (PR 3.B) as the event keeps it: what was presented, and what the verdict was."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.DECK_CHECK_RECORD]})

    deck: dict[str, Any] = Field(
        description="The deck presented, in the form the judge gave it.",
        examples=[{"ydke": "ydke://rvTMAq70zAKu9MwCSnBJAw==!!!"}],
    )
    legal: bool = Field(description="Whether the deck presented broke no rule.", examples=[False])
    penalty: Penalty | None = Field(
        description="The most severe penalty of its violations; null when legal.", examples=["duel_forfeiture"]
    )
    codes: list[RuleCode] = Field(
        description="The code of each violation, in the verdict's order.",
        examples=[["forbidden_card", "main_deck_too_small", "roster_mismatch"]],
    )


class PlayerChange(PlayerOut):
    """A player whose status a change of the event's list changed."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PLAYER_CHANGE]})

    before: PlayerStatus = Field(description="The status under the list before.", examples=["legal"])


class ListChangeOut(WireModel):
    """What changing the event's list did: every registration checked again under it."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.LIST_CHANGE]})

    banlist: str | None = Field(
        description="The list the event is now played under; null: the format's list in force on its day.",
        examples=["ocg-2008-03-01"],
    )
    checked: int = Field(description="Registrations checked again.", examples=[123])
    changed: list[PlayerChange] = Field(
        description="Every player whose status changed, by player id.", examples=[[ex.PLAYER_CHANGE]]
    )
    newly_illegal: list[str] = Field(
        description="The players whose deck was not illegal before and is now, by player id.", examples=[["0042"]]
    )
