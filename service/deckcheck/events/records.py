"""What the events database keeps, as the rest of deckcheck reads it: events, registrations, the list of
players and deck checks, and their rows as the tables hold them (events/tables.py); and the two ways a write is
refused for what happened meanwhile. Plain data: no connection is made here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from deckcheck.errors import InvalidInput, Unavailable
from deckcheck.model import FORMATS, Format

if TYPE_CHECKING:
    from sqlalchemy.engine import RowMapping


class EventsUnavailable(Unavailable):
    """The events database cannot be reached or is busy past its wait; the request may be sent again."""


NEW = 0
"""The version a registration expects when it must be the player's first (If-None-Match: *)."""


class ListChanged(EventsUnavailable):
    """The event's list changed between a registration's verdict and its write; the caller judges it again."""


class StaleVersion(InvalidInput):
    """A registration made against a version that is no longer the player's current one: another desk registered
    the player meanwhile. `current` is the registration that won."""

    def __init__(self, message: str, current: Registration | None, header: str = "If-Match") -> None:
        super().__init__(message, [{"loc": ["header", header], "msg": message, "type": "stale_version"}])
        self.current = current


@dataclass(frozen=True, slots=True)
class Event:
    """An event: its id, name, day, format and list (None: the format's list in force on the day)."""

    id: str
    name: str
    date: dt.date
    format: Format
    banlist: str | None


@dataclass(frozen=True, slots=True)
class Registration:
    """One version of a player's registration: the deck as given (JSON) and its status when it was kept."""

    player: str
    version: int
    name: str
    card_game_id: str | None
    deck: dict[str, Any]
    source: str
    status: str
    registered_by: str
    registered_at: dt.datetime


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player in the event's list: the current registration's version, name, status and time."""

    player: str
    version: int
    name: str
    card_game_id: str | None
    status: str
    updated_at: dt.datetime


@dataclass(frozen=True, slots=True)
class NewRegistration:
    """What a desk registers for a player."""

    name: str
    card_game_id: str | None
    deck: dict[str, Any]
    source: str
    status: str


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """A deck check as kept: the deck presented, the round, the verdict and who checked it."""

    player: str
    version: int
    round: int
    duel: int
    phase: str
    deck: dict[str, Any]
    legal: bool
    penalty: str | None
    codes: Sequence[str]


@dataclass(frozen=True, slots=True)
class KeptCheck:
    """A deck check as the event keeps it: what was checked, its id, who checked it and when."""

    id: int
    check: DeckCheck
    checked_by: str
    checked_at: dt.datetime


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def when(value: dt.datetime) -> dt.datetime:
    """A time as read back: SQLite gives it without its zone, which is UTC as it was written."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def event_of(row: RowMapping) -> Event:
    fmt = next(known for known in FORMATS if known == row["format"])
    return Event(row["id"], row["name"], row["date"], fmt, row["banlist"])


def event_row(event: Event) -> dict[str, Any]:
    return {"id": event.id, "name": event.name, "date": event.date, "format": event.format, "banlist": event.banlist}


def registration_of(row: RowMapping) -> Registration:
    return Registration(
        player=row["player"],
        version=row["version"],
        name=row["name"],
        card_game_id=row["card_game_id"],
        deck=orjson.loads(row["deck"]),
        source=row["source"],
        status=row["status"],
        registered_by=row["registered_by"],
        registered_at=when(row["registered_at"]),
    )


def registration_row(kept: Registration) -> dict[str, Any]:
    return {
        "player": kept.player,
        "version": kept.version,
        "name": kept.name,
        "card_game_id": kept.card_game_id,
        "deck": orjson.dumps(kept.deck).decode(),
        "source": kept.source,
        "status": kept.status,
        "registered_by": kept.registered_by,
        "registered_at": kept.registered_at,
    }


def kept_check(row: RowMapping) -> KeptCheck:
    fields = ("player", "version", "round", "duel", "phase", "legal", "penalty")
    check = DeckCheck(**{f: row[f] for f in fields}, deck=orjson.loads(row["deck"]), codes=orjson.loads(row["codes"]))
    return KeptCheck(row["id"], check, row["checked_by"], when(row["checked_at"]))


def player_of(row: RowMapping | dict[str, Any]) -> PlayerRow:
    return PlayerRow(
        row["player"], row["version"], row["name"], row["card_game_id"], row["status"], when(row["updated_at"])
    )
