"""The tables of the events database, as SQLAlchemy Core describes them for the queries (events/store.py). The
schema itself is made and moved on by the migrations (events/migrations/versions), which tests/test_events_store.py
holds to these tables.

Every row belongs to one event and goes with it: deleting an event deletes its staff tokens, registrations and deck
checks (ON DELETE CASCADE), every personal datum the service keeps."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()


def _of_event() -> sa.ForeignKey:
    """A column's reference to its event, which goes with it."""
    return sa.ForeignKey("events.id", ondelete="CASCADE")


events = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("date", sa.Date, nullable=False),
    sa.Column("format", sa.String(8), nullable=False),
    sa.Column("banlist", sa.String(20)),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""An event: its day, format and the list it is played under (NULL: the format's list in force on the day)."""

tokens = sa.Table(
    "tokens",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("event_id", sa.String(40), _of_event(), nullable=False),
    sa.Column("role", sa.String(12), nullable=False),
    sa.Column("label", sa.String(40), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("revoked_at", sa.DateTime(timezone=True)),
    sa.UniqueConstraint("event_id", "label"),
)
"""A staff token, kept only as the SHA-256 of its text; its label names who acted in every record it makes."""

players = sa.Table(
    "players",
    metadata,
    sa.Column("event_id", sa.String(40), _of_event(), primary_key=True),
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("card_game_id", sa.String(32)),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("name_folded", sa.String(300), nullable=False, server_default=""),
    sa.Index("players_status", "event_id", "status"),
)
"""A registered player and their current registration: the version a new one must follow (its compare-and-set),
and what the list of players filters and searches by. `name_folded` is the name case folded by Python (Émile as
émile, ＹＡＭＡＤＡ as ｙａｍａｄａ, up to three characters for one), which the databases' lower() cannot do: they
fold ASCII letters only (SQLite's, and PostgreSQL's under the C locale). The ids are ASCII, folded by lower()."""

registrations = sa.Table(
    "registrations",
    metadata,
    sa.Column("event_id", sa.String(40), primary_key=True),
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("card_game_id", sa.String(32)),
    sa.Column("deck", sa.Text, nullable=False),
    sa.Column("source", sa.String(8), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("registered_by", sa.String(40), nullable=False),
    sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(
        ["event_id", "player"], ["players.event_id", "players.player"], ondelete="CASCADE", name="registrations_player"
    ),
)
"""Every version of every registration, the earlier ones kept: the deck as it was given (JSON), and its status."""

deck_checks = sa.Table(
    "deck_checks",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("event_id", sa.String(40), nullable=False),
    sa.Column("player", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("duel", sa.Integer, nullable=False),
    sa.Column("phase", sa.String(16), nullable=False),
    sa.Column("deck", sa.Text, nullable=False),
    sa.Column("legal", sa.Boolean, nullable=False),
    sa.Column("penalty", sa.String(40)),
    sa.Column("codes", sa.Text, nullable=False),
    sa.Column("checked_by", sa.String(40), nullable=False),
    sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(
        ["event_id", "player"], ["players.event_id", "players.player"], ondelete="CASCADE", name="deck_checks_player"
    ),
    sa.Index("deck_checks_player_round", "event_id", "player", "round"),
)
"""A deck check (PR 3.B): the deck presented in a round (for a duel, between duels or during one), checked
against the registration of `version`; its verdict, the violation codes (a JSON list) and the judge's token label."""
