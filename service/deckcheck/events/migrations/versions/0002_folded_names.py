"""The players' names case folded, for the list's search to run in the database rather than read every player.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add players.name_folded and fill it for the players kept so far (Python's casefold: the databases have none
    beyond ASCII)."""
    op.add_column("players", sa.Column("name_folded", sa.String(300), nullable=False, server_default=""))
    players = sa.table(
        "players", sa.column("event_id"), sa.column("player"), sa.column("name"), sa.column("name_folded")
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.event_id, players.c.player, players.c.name)).all()
    key = (players.c.event_id == sa.bindparam("b_event"), players.c.player == sa.bindparam("b_player"))
    if rows:
        connection.execute(
            players.update().where(*key),
            [{"b_event": e, "b_player": p, "name_folded": name.casefold()} for e, p, name in rows],
        )


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_folded")
