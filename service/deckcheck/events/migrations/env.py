"""Alembic's entry to the migrations: they run on the connection events/database.py `migrate` opens (a transaction
under a lock), never on one of their own."""

from __future__ import annotations

from alembic import context

from deckcheck.events.tables import metadata

context.configure(
    connection=context.config.attributes["connection"],
    target_metadata=metadata,
    render_as_batch=True,  # SQLite alters a table by copying it
)
with context.begin_transaction():
    context.run_migrations()
