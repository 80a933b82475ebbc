"""The PostgreSQL server the event tests run against (tests/postgres.py): a committed row outlives a restart and a
crash, each test's database is new and empty, and a stopped server turns connections away until it is started."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
import sqlalchemy as sa
from psycopg.rows import TupleRow

from tests.postgres import PostgresServer, libpq_url

pytestmark = pytest.mark.server


@pytest.fixture(autouse=True)
def left_running(postgres_server: PostgresServer) -> Iterator[None]:
    """The run's server started again after a test that stopped or killed it, for the tests after it."""
    yield
    if not postgres_server.running:
        postgres_server.start()


def connect(url: str) -> psycopg.Connection[TupleRow]:
    """A psycopg connection to the database a SQLAlchemy URL of the server names."""
    return psycopg.connect(libpq_url(url), connect_timeout=5)


def keep_a_row(url: str) -> None:
    """A table made and a row written in the database, committed."""
    with connect(url) as connection:
        connection.execute("CREATE TABLE kept (id integer PRIMARY KEY, name text NOT NULL)")
        connection.execute("INSERT INTO kept VALUES (1, 'committed')")


def rows(url: str) -> list[TupleRow]:
    """The rows of the table keep_a_row makes, in order."""
    with connect(url) as connection:
        return connection.execute("SELECT id, name FROM kept ORDER BY id").fetchall()


def tables(url: str) -> list[TupleRow]:
    """The names of the tables in the database's public schema."""
    with connect(url) as connection:
        return connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()


def test_a_committed_row_outlives_a_restart(postgres_server: PostgresServer, postgres_url: str) -> None:
    keep_a_row(postgres_url)

    postgres_server.restart()

    assert rows(postgres_url) == [(1, "committed")]


def test_a_committed_row_outlives_a_crash_and_an_open_transaction_does_not(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    keep_a_row(postgres_url)
    pending = connect(postgres_url)
    try:
        pending.execute("INSERT INTO kept VALUES (2, 'never committed')")
        postgres_server.kill()
    finally:
        pending.close()
    logged = postgres_server.log.stat().st_size

    postgres_server.start()

    assert rows(postgres_url) == [(1, "committed")]
    # The server found its data as a crash leaves it, not as a shutdown does, and recovered it from its log.
    assert "automatic recovery in progress" in postgres_server.log.read_bytes()[logged:].decode()


def test_each_fresh_database_is_another_and_empty(postgres_server: PostgresServer, postgres_url: str) -> None:
    other = postgres_server.fresh_database("other")
    assert tables(postgres_url) == tables(other) == []

    keep_a_row(postgres_url)

    assert sa.make_url(other).database != sa.make_url(postgres_url).database
    assert tables(postgres_url) == [("kept",)]
    assert tables(other) == []


def test_the_url_opens_the_database_through_sqlalchemy(postgres_url: str) -> None:
    engine = sa.create_engine(postgres_url)
    try:
        with engine.connect() as connection:
            name = connection.execute(sa.text("SELECT current_database()")).scalar_one()
    finally:
        engine.dispose()

    assert name == sa.make_url(postgres_url).database


def test_a_stopped_server_turns_connections_away_until_started(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    postgres_server.stop()

    with pytest.raises(psycopg.OperationalError):
        connect(postgres_url).close()

    postgres_server.start()
    with connect(postgres_url) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
