"""An event's state: its staff tokens, registrations (every version) and deck checks, kept in a database of its own
(SQLite by default, PostgreSQL across machines) and nowhere else. The API's event routes (api/events.py) and the
organiser's commands (cli/event.py) are thin layers over it; it imports no web framework. The store, and SQLAlchemy
with it, is loaded when `EventStore` is first asked for: a command that meets no event does not pay for it."""

from typing import TYPE_CHECKING, Any

from deckcheck.events.records import (
    NEW,
    DeckCheck,
    Event,
    EventsUnavailable,
    KeptCheck,
    ListChanged,
    NewRegistration,
    PlayerRow,
    Registration,
    StaleVersion,
)
from deckcheck.events.staff import ROLES, Action, Forbidden, Role, Staff, Unauthorized
from deckcheck.events.verdicts import STATUSES, Status, checked, judge, registered, status_of

if TYPE_CHECKING:
    from deckcheck.events.store import EventStore


def __getattr__(name: str) -> Any:
    """`EventStore`, imported on first use (PEP 562)."""
    if name == "EventStore":
        from deckcheck.events.store import EventStore  # noqa: PLC0415 - the point: loaded when first asked for

        return EventStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "NEW",
    "ROLES",
    "STATUSES",
    "Action",
    "DeckCheck",
    "Event",
    "EventStore",
    "EventsUnavailable",
    "Forbidden",
    "KeptCheck",
    "ListChanged",
    "NewRegistration",
    "PlayerRow",
    "Registration",
    "Role",
    "Staff",
    "StaleVersion",
    "Status",
    "Unauthorized",
    "checked",
    "judge",
    "registered",
    "status_of",
]
