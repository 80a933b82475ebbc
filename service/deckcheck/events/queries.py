"""The statements an event's requests run, built once: SQLAlchemy then finds each one's compiled form in its cache
and skips building it again, which halves what a short query costs here (about 80 µs in a transaction of its own
against 160 µs built anew, on SQLite). Values come as bound parameters; the WHERE clauses' take names of their own,
since a column's name is the value it is set to. The players' insert is the database's own INSERT … ON CONFLICT
DO NOTHING, so that a player registered meanwhile by another desk leaves the transaction usable for the 412."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert

from deckcheck.events.tables import deck_checks, events, players, registrations, tokens

_EVENT: sa.BindParameter[str] = sa.bindparam("b_event")
_PLAYER: sa.BindParameter[str] = sa.bindparam("b_player")
_VERSION: sa.BindParameter[int] = sa.bindparam("b_version")
_OF_PLAYER = (players.c.event_id == _EVENT, players.c.player == _PLAYER)

ACCESS = (
    sa.select(tokens.c.role, tokens.c.label, events)
    .join(events, events.c.id == tokens.c.event_id)
    .where(tokens.c.digest == sa.bindparam("b_digest"), tokens.c.revoked_at.is_(None))
)
"""Who a token is and its event, in one read: every event route begins with it."""

LISTED = sa.select(events.c.banlist).where(events.c.id == _EVENT).with_for_update(read=True)
"""The event's list, read under a shared lock (PostgreSQL; SQLite's writers queue whole) that a change of it waits
for."""

VERSION = sa.select(players.c.version).where(*_OF_PLAYER)
"""The player's current version."""

REGISTRATION = registrations.select().where(
    registrations.c.event_id == _EVENT, registrations.c.player == _PLAYER, registrations.c.version == _VERSION
)
"""One version of a player's registration."""

_CURRENT = registrations.join(
    players,
    sa.and_(
        players.c.event_id == registrations.c.event_id,
        players.c.player == registrations.c.player,
        players.c.version == registrations.c.version,
    ),
)

CURRENT = sa.select(registrations).select_from(_CURRENT).where(*_OF_PLAYER)
"""The player's current registration."""

EVERY_CURRENT = (
    sa.select(registrations)
    .select_from(_CURRENT)
    .where(registrations.c.event_id == _EVENT)
    .order_by(registrations.c.player)
)
"""Every player's current registration at the event, by player id."""

ADVANCE = players.update().where(*_OF_PLAYER, players.c.version == _VERSION)
"""The player's row moved on to a new registration if it is still at `b_version` (compare and set)."""

KEEP = registrations.insert()
"""A registration's version, kept."""

CHECK = deck_checks.insert().returning(deck_checks.c.id)
"""A deck check, kept; its id."""

CHECKS = (
    deck_checks.select()
    .where(deck_checks.c.event_id == _EVENT, deck_checks.c.player == _PLAYER)
    .order_by(deck_checks.c.id)
)
"""The player's deck checks, oldest first."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """The statements that differ by database."""

    first: Insert
    """The player's row, made unless another desk made it meanwhile: then no row is inserted, and none returned
    (psycopg's row count says -1 for either)."""

    @classmethod
    def of(cls, name: str) -> Dialect:
        insert = postgresql.insert if name == "postgresql" else sqlite.insert
        made = insert(players).on_conflict_do_nothing(index_elements=["event_id", "player"])
        return cls(made.returning(players.c.version))
