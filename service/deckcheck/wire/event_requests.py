"""The request bodies of an event's routes: a registration, a deck check (PR 3.B) and a change of the event's list."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

import deckcheck.wire.answers.event_examples as ex
from deckcheck.wire.request_values import Duel
from deckcheck.wire.requests import BanlistId, DeckIn

PLAYER_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
EVENT_PATTERN = r"^ev-[0-9a-f]{10}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class RegisterRequest(_Strict):
    """A player's registration: their name, CARD GAME ID and deck, and how the desk took the list."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.REGISTER_REQUEST]})

    name: str = Field(min_length=1, max_length=100, description="The player's name.", examples=["山田 太郎"])
    card_game_id: str | None = Field(
        default=None,
        pattern=r"^[0-9A-Za-z-]{1,32}$",
        description="The player's CARD GAME ID (digits), when they have one.",
        examples=["0000123456"],
    )
    deck: DeckIn = Field(
        description="The deck, in any form POST /v1/validate takes.", examples=[{"ydke": ex.SMALL_YDKE}]
    )
    source: Literal["typed", "qr", "paper"] = Field(
        default="typed",
        description="How the desk took the list: typed, from the player's QR code, or read from paper.",
        examples=["qr"],
    )


class DeckCheckRequest(_Strict):
    """The deck a player presents in a deck check (PR 3.B), and the round."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.DECK_CHECK_REQUEST]})

    deck: DeckIn = Field(
        description="The deck presented, in any form POST /v1/validate takes.", examples=[{"ydke": ex.SMALL_YDKE}]
    )
    round: int = Field(ge=1, le=99, description="The round of the event.", examples=[3])
    duel: Duel = Field(default=1, description="The duel of the match it is presented for; default 1.", examples=[1])
    phase: Literal["between_duels", "during_duel"] = Field(
        default="between_duels",
        description="When it is checked: between duels (or before the first, the default; a forfeit costs the "
        "next duel, PR 1.C) or during a duel (it costs the current one).",
        examples=["between_duels"],
    )


class EventChange(_Strict):
    """A change the organiser makes to the event: the list it is played under."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.EVENT_CHANGE]})

    banlist: BanlistId | None = Field(
        description="A bundled list id of the event's format; null: the format's list in force on the event's day.",
        examples=["ocg-2008-03-01"],
    )
