"""An event's state: its staff tokens, registrations (every version) and deck checks, kept in a database of its own
(SQLite by default, PostgreSQL across machines) and nowhere else. The API's event routes (api/events.py) and the
organiser's commands (cli/event.py) are thin layers over it; it imports no web framework."""

from deckcheck.events.database import EventsUnavailable
from deckcheck.events.records import (
    NEW,
    DeckCheck,
    Event,
    KeptCheck,
    ListChanged,
    NewRegistration,
    PlayerRow,
    Registration,
    StaleVersion,
)
from deckcheck.events.staff import ROLES, Action, Forbidden, Role, Staff, Unauthorized
from deckcheck.events.store import EventStore
from deckcheck.events.verdicts import STATUSES, Status, checked, judge, registered, status_of

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
