"""The events database's reads and writes: events and their staff tokens, registrations and deck checks (what it
keeps: events/records.py). It knows no HTTP and no rule: the verdicts it keeps are given to it (events/verdicts.py
makes them)."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from deckcheck.errors import InvalidInput, NotFound
from deckcheck.events import queries as q
from deckcheck.events.database import Schema, engine_for, reading, writing
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
    event_of,
    event_row,
    kept_check,
    now,
    player_of,
    registration_of,
    registration_row,
)
from deckcheck.events.staff import ROLES, Role, Staff, digest, new_token
from deckcheck.events.tables import events, players, tokens
from deckcheck.model import Format


class EventStore:
    """The events of one database, safe to share between threads (a pool of connections)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.schema = Schema(engine)
        self.dialect = q.Dialect.of(engine.dialect.name)

    @classmethod
    def open(cls, url: str | None) -> EventStore:
        """The store over the database `url` names (None: the default SQLite file); nothing connected yet."""
        return cls(engine_for(url))

    def close(self) -> None:
        """Close the pool's connections."""
        self.engine.dispose()

    def _writing(self) -> Any:
        self.schema.ensure()
        return writing(self.engine)

    def _reading(self) -> Any:
        self.schema.ensure()
        return reading(self.engine)

    # Events and tokens: the organiser's command line (cli/event.py).

    def create_event(self, name: str, date: dt.date, fmt: Format, banlist: str | None) -> Event:
        """A new event, its id made here."""
        event = Event(f"ev-{secrets.token_hex(5)}", name, date, fmt, banlist)
        with self._writing() as db:
            db.execute(events.insert().values(**event_row(event), created_at=now()))
        return event

    def event(self, event_id: str) -> Event:
        """The event of `event_id`; NotFound when there is none."""
        with self._reading() as db:
            row = db.execute(events.select().where(events.c.id == event_id)).mappings().first()
        if row is None:
            raise NotFound.one(["event"], f"No event has the id {event_id[:40]}.", "unknown_event")
        return event_of(row)

    def issue_token(self, event_id: str, role: Role, label: str | None = None) -> tuple[str, str]:
        """A new token of `role` at the event, and its label (`label`, or the role numbered: desk-2)."""
        self.event(event_id)
        token = new_token()
        with self._writing() as db:
            if label is None:
                issued = db.execute(
                    sa.select(sa.func.count()).where(tokens.c.event_id == event_id, tokens.c.role == role)
                ).scalar_one()
                taken = set(db.execute(sa.select(tokens.c.label).where(tokens.c.event_id == event_id)).scalars())
                number = int(issued) + 1
                while f"{role}-{number}" in taken:  # a label given by hand that looks like one of these
                    number += 1
                label = f"{role}-{number}"
            row = {"digest": digest(token), "event_id": event_id, "role": role, "label": label, "created_at": now()}
            try:
                db.execute(tokens.insert().values(**row))
            except IntegrityError:
                raise InvalidInput.one(["label"], f"The event has a token labelled {label}.", "label_taken") from None
        return token, label

    def revoke_token(self, event_id: str, label: str) -> None:
        """End the token labelled `label` at the event; NotFound when it has none of that label."""
        with self._writing() as db:
            done = db.execute(
                tokens.update()
                .where(tokens.c.event_id == event_id, tokens.c.label == label, tokens.c.revoked_at.is_(None))
                .values(revoked_at=now())
            )
        if done.rowcount == 0:
            raise NotFound.one(["label"], f"The event has no token labelled {label} in use.", "unknown_token")

    def delete_event(self, event_id: str) -> int:
        """Remove the event and everything kept of it: tokens, registrations, deck checks. The players it had."""
        with self._writing() as db:
            count = db.execute(sa.select(sa.func.count()).where(players.c.event_id == event_id)).scalar_one()
            if db.execute(events.delete().where(events.c.id == event_id)).rowcount == 0:
                raise NotFound.one(["event"], f"No event has the id {event_id[:40]}.", "unknown_event")
        if self.engine.dialect.name == "sqlite":
            # The deleted rows (overwritten in the file: secure_delete) live on in the write-ahead log until it is
            # copied back: copy it back now and empty it.
            with self.engine.connect() as db:
                db.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(count)

    def access(self, token: str) -> tuple[Staff, Event] | None:
        """Who `token` is and its event, or None when it is no staff token in use."""
        with self._reading() as db:
            row = db.execute(q.ACCESS, {"b_digest": digest(token)}).mappings().first()
        if row is None or row["role"] not in ROLES:
            return None
        return Staff(row["id"], row["role"], row["label"]), event_of(row)

    # Registrations.

    def registration(self, event_id: str, player: str, version: int | None = None) -> Registration | None:
        """The player's registration of `version` (None: the current one), or None."""
        with self._reading() as db:
            return _registration(db, event_id, player, version)

    def register(
        self, staff: Staff, player: str, new: NewRegistration, expect: int | None, judged: Event
    ) -> Registration:
        """Keep `new` as the player's next registration, the earlier ones kept. `expect`: the version it follows
        (NEW: none), or None for whichever is current. StaleVersion when that is not the current version, or when
        another registration of the player was kept between this one's read and write; ListChanged when the event's
        list is no longer the one of `judged`, the event its status was judged at (the organiser changed it
        meanwhile: judged again, it is sent again)."""
        with self._writing() as db:
            listed = db.execute(q.LISTED, {"b_event": staff.event}).first()
            if listed is None:
                raise NotFound.one(["event"], f"No event has the id {staff.event[:40]}.", "unknown_event")
            if listed.banlist != judged.banlist:
                raise ListChanged("The event's list changed while the registration was judged.")
            follows = expect
            if follows is None:
                current = db.execute(q.VERSION, {"b_event": staff.event, "b_player": player}).scalar_one_or_none()
                follows = int(current or NEW)
            kept = Registration(player, follows + 1, new.name, new.card_game_id, new.deck, new.source, new.status,
                                staff.label, now())  # fmt: skip
            if not self._advance(db, staff.event, kept, follows):
                raise _stale(db, staff.event, player, follows)
            db.execute(q.KEEP, {"event_id": staff.event, **registration_row(kept)})
        return kept

    def players(
        self, event_id: str, status: str | None, query: str | None, offset: int, limit: int
    ) -> tuple[list[PlayerRow], int]:
        """A page of the event's players by player id, of one status and matching `query` (in the id, name or CARD
        GAME ID, case folded), and how many match in all."""
        where = [players.c.event_id == event_id]
        if status is not None:
            where.append(players.c.status == status)
        if query:
            folded = query.casefold()  # the ids are ASCII, where lower() and casefold agree
            where.append(
                sa.or_(
                    sa.func.lower(players.c.player).contains(folded, autoescape=True),
                    players.c.name_folded.contains(folded, autoescape=True),
                    sa.func.lower(players.c.card_game_id).contains(folded, autoescape=True),
                )
            )
        with self._reading() as db:
            total = db.execute(sa.select(sa.func.count()).select_from(players).where(*where)).scalar_one()
            rows = db.execute(
                sa.select(players).where(*where).order_by(players.c.player).offset(offset).limit(limit)
            ).mappings()
            return [player_of(row) for row in rows], int(total)

    def counts(self, event_id: str) -> dict[str, int]:
        """How many of the event's players have each status."""
        with self._reading() as db:
            rows = db.execute(
                sa.select(players.c.status, sa.func.count())
                .where(players.c.event_id == event_id)
                .group_by(players.c.status)
            )
            return {status: int(count) for status, count in rows}

    def current_registrations(self, event_id: str) -> Iterator[Registration]:
        """Every player's current registration, by player id."""
        with self._reading() as db:
            rows = db.execute(q.EVERY_CURRENT, {"b_event": event_id}).mappings()
            yield from (registration_of(row) for row in rows)

    def change_list(
        self, event_id: str, banlist: str | None, judge: Callable[[dict[str, Any]], str]
    ) -> list[tuple[PlayerRow, str]]:
        """Play the event under `banlist` from now on, every current registration judged again by `judge` (its
        deck to its status) in the same transaction; each player whose status changed, with the status before."""
        changed: list[tuple[PlayerRow, str]] = []
        with self._writing() as db:
            if db.execute(events.update().where(events.c.id == event_id).values(banlist=banlist)).rowcount == 0:
                raise NotFound.one(["event"], f"No event has the id {event_id[:40]}.", "unknown_event")
            for player in db.execute(players.select().where(players.c.event_id == event_id)).mappings().all():
                kept = _registration(db, event_id, player["player"], player["version"])
                assert kept is not None  # the foreign key holds every player to a registration
                status = judge(kept.deck)
                if status != player["status"]:
                    # Only the version judged: a registration another desk kept meanwhile (PostgreSQL lets it commit
                    # during this transaction) keeps its own status, not the verdict of the deck it replaced.
                    key = (
                        players.c.event_id == event_id,
                        players.c.player == player["player"],
                        players.c.version == player["version"],
                    )
                    if db.execute(players.update().where(*key).values(status=status)).rowcount:
                        changed.append((player_of({**player, "status": status}), player["status"]))
        return changed

    def _advance(self, db: Connection, event_id: str, kept: Registration, version: int) -> bool:
        """Make `kept` the player's current registration if `version` still is (compare and set); False if not."""
        values = {
            "version": kept.version,
            "name": kept.name,
            "name_folded": kept.name.casefold(),
            "card_game_id": kept.card_game_id,
            "status": kept.status,
            "updated_at": kept.registered_at,
        }
        if version == NEW:
            made = db.execute(self.dialect.first, {"event_id": event_id, "player": kept.player, **values})
            return made.first() is not None
        moved = db.execute(q.ADVANCE, {"b_event": event_id, "b_player": kept.player, "b_version": version, **values})
        return bool(moved.rowcount)

    # Deck checks.

    def record_check(self, staff: Staff, check: DeckCheck) -> tuple[int, dt.datetime]:
        """Keep a deck check made by `staff`; its id and time."""
        when = now()
        row = {
            "event_id": staff.event,
            "player": check.player,
            "version": check.version,
            "round": check.round,
            "duel": check.duel,
            "phase": check.phase,
            "deck": orjson.dumps(check.deck).decode(),
            "legal": check.legal,
            "penalty": check.penalty,
            "codes": orjson.dumps(list(check.codes)).decode(),
            "checked_by": staff.label,
            "checked_at": when,
        }
        with self._writing() as db:
            made = db.execute(q.CHECK, row).scalar_one()
        return int(made), when

    def deck_checks(self, event_id: str, player: str) -> list[KeptCheck]:
        """The player's deck checks at the event, oldest first."""
        with self._reading() as db:
            rows = db.execute(q.CHECKS, {"b_event": event_id, "b_player": player}).mappings().all()
        return [kept_check(row) for row in rows]


def _stale(db: Connection, event_id: str, player: str, expected: int) -> StaleVersion:
    current = _registration(db, event_id, player, None)
    if current is None:
        msg = f"Player {player} has no registration of version {expected}: none is kept yet."
    elif expected == NEW:
        msg = f"Player {player} is registered already (version {current.version}, by {current.registered_by})."
    else:
        msg = f"Player {player}'s registration is at version {current.version}, not {expected}."
    return StaleVersion(msg, current, "If-None-Match" if expected == NEW else "If-Match")


def _registration(db: Connection, event_id: str, player: str, version: int | None) -> Registration | None:
    key = {"b_event": event_id, "b_player": player}
    if version is None:
        row = db.execute(q.CURRENT, key).mappings().first()
    else:
        row = db.execute(q.REGISTRATION, {**key, "b_version": version}).mappings().first()
    return None if row is None else registration_of(row)
