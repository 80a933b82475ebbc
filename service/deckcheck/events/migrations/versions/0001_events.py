"""The events, their staff tokens, registrations (every version) and deck checks.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Make the four tables of events/tables.py."""
    op.create_table(
        "events",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("banlist", sa.String(20)),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(12), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("revoked_at", _WHEN),
        sa.UniqueConstraint("event_id", "label"),
    )
    op.create_table(
        "players",
        sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("card_game_id", sa.String(32)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("updated_at", _WHEN, nullable=False),
    )
    op.create_index("players_status", "players", ["event_id", "status"])
    op.create_table(
        "registrations",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("card_game_id", sa.String(32)),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("registered_by", sa.String(40), nullable=False),
        sa.Column("registered_at", _WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id", "player"],
            ["players.event_id", "players.player"],
            ondelete="CASCADE",
            name="registrations_player",
        ),
    )
    op.create_table(
        "deck_checks",
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
        sa.Column("checked_at", _WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id", "player"],
            ["players.event_id", "players.player"],
            ondelete="CASCADE",
            name="deck_checks_player",
        ),
    )
    op.create_index("deck_checks_player_round", "deck_checks", ["event_id", "player", "round"])


def downgrade() -> None:
    """Drop them, the events' every datum with them."""
    for table in ("deck_checks", "registrations", "players", "tokens", "events"):
        op.drop_table(table)
