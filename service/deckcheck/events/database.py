"""Where the events database is and how it is opened: a SQLite file in the user's data folder by default
(~/.local/share/deckcheck/events.sqlite3 on Linux, in WAL mode), or the PostgreSQL server DECKCHECK_EVENTS_DB names
when several processes or machines share the events; its schema brought to the newest migration on first use."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError

from deckcheck.errors import InvalidInput
from deckcheck.events.records import EventsUnavailable

MIGRATIONS = Path(__file__).parent / "migrations"
# Seconds a PostgreSQL connection may take before the database is called unreachable, and a SQLite writer waits
# for another's lock: short, so that a request answers 503 rather than hang with the database.
CONNECT_SECONDS = 3
BUSY_SECONDS = 5
_IMMEDIATE = "deckcheck_immediate"
_WAL_RETRY = 0.01  # seconds between tries to put a new file in WAL mode
_LOG = logging.getLogger("deckcheck.events")


def default_database() -> Path:
    """The SQLite file of the events when DECKCHECK_EVENTS_DB is not set: in the platform's data folder for the
    user, beside the updates folder."""
    return Path(platformdirs.user_data_dir("deckcheck", appauthor=False)) / "events.sqlite3"


def engine_for(url: str | None) -> Engine:
    """An engine over the events database `url` names (sqlite:///path or postgresql://…), or the default SQLite
    file, its folder made; an InvalidInput naming the setting for anything else. Nothing is connected yet."""
    if url is None:
        path = default_database()
        path.parent.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{path}"
    if url.startswith("postgres://"):  # the scheme Heroku and others write, which SQLAlchemy no longer reads
        url = "postgresql://" + url.removeprefix("postgres://")
    try:
        parsed = sa.make_url(url)
    except ArgumentError:
        raise InvalidInput("DECKCHECK_EVENTS_DB: not a database URL (sqlite:///path or postgresql://…)") from None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return _sqlite(parsed)
    if parsed.get_backend_name() == "postgresql":
        import psycopg  # noqa: PLC0415 - the driver, named rather than found by SQLAlchemy; only for PostgreSQL

        return sa.create_engine(
            parsed.set(drivername="postgresql+psycopg"),
            module=psycopg,
            pool_pre_ping=True,  # a connection from before a server restart is replaced, not failed on
            pool_size=4,
            max_overflow=4,
            pool_timeout=CONNECT_SECONDS,
            connect_args={"connect_timeout": CONNECT_SECONDS},
        )
    raise InvalidInput(
        f"DECKCHECK_EVENTS_DB: {parsed.get_backend_name()} is not a database the events are kept in "
        "(sqlite:///path to a file, or postgresql://…)"
    )


def _sqlite(url: sa.URL) -> Engine:
    """A SQLite engine in WAL mode whose connections enforce foreign keys and overwrite what is deleted, and whose
    writes take the database's write lock when they begin (BEGIN IMMEDIATE), so that two writers queue for it rather
    than fail half-way. The file is made readable by its owner alone (names and CARD GAME IDs; its WAL files follow
    its mode); InvalidInput naming it when its folder is missing or the file cannot be made."""
    path = Path(str(url.database))
    try:
        path.touch(mode=0o600, exist_ok=True)
    except OSError as exc:
        raise InvalidInput(f"DECKCHECK_EVENTS_DB: the SQLite file {path} cannot be made ({exc.strerror})") from None
    engine = sa.create_engine(url, connect_args={"timeout": BUSY_SECONDS, "check_same_thread": False})

    @sa_event.listens_for(engine, "connect")
    def _connected(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None  # the transactions are begun below, not by the driver
        _wal(dbapi_connection)
        for pragma in ("foreign_keys=ON", "synchronous=NORMAL", "secure_delete=ON"):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @sa_event.listens_for(engine, "begin")
    def _began(connection: Connection) -> None:
        immediate = connection.get_execution_options().get(_IMMEDIATE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def _wal(dbapi_connection: sqlite3.Connection) -> None:
    """Put the file in WAL mode. While another connection puts a new file in it, SQLite says the database is locked
    at once, without waiting as it waits for a lock elsewhere (two workers starting on one new file met it): try
    again for BUSY_SECONDS."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            dbapi_connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(_WAL_RETRY)


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """A transaction that writes, committed when the block ends and rolled back on an error; on SQLite it holds
    the write lock from its start."""
    with (
        unavailable_as_503(),
        engine.connect() as connection,
        connection.execution_options(**{_IMMEDIATE: True}).begin(),
    ):
        yield connection


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A transaction that only reads."""
    with unavailable_as_503(), engine.connect() as connection, connection.begin():
        yield connection


@contextmanager
def unavailable_as_503() -> Iterator[None]:
    """The database's own failures (unreachable, restarting, busy) as EventsUnavailable; a broken constraint
    passes, for the caller to answer."""
    try:
        yield
    except IntegrityError:
        raise
    except DBAPIError as exc:
        # Where the database is and why it failed are the operator's to read, in the log, not a client's.
        _LOG.warning("the events database cannot serve a request: %s", _first_line(exc))
        raise EventsUnavailable("The events database cannot serve the request now; send it again shortly.") from None
    except sa.exc.TimeoutError:
        raise EventsUnavailable("The events database has no free connection now.") from None


def _first_line(exc: DBAPIError) -> str:
    """The driver's message, its first line only (PostgreSQL adds the server's address and hints)."""
    return str(exc.orig).strip().splitlines()[0] if exc.orig is not None else type(exc).__name__


class Schema:
    """Brings an engine's database to the newest migration, once per process: on the first request that needs
    it, so that a server whose PostgreSQL is down starts, answers /v1/validate, and reaches the events when the
    database comes back. Two processes migrating at once queue on a lock (PostgreSQL's advisory lock, SQLite's
    write lock)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._done = False
        self._lock = threading.Lock()

    def ensure(self) -> None:
        """The schema at the newest migration, or EventsUnavailable when the database cannot be reached."""
        if self._done:
            return
        with self._lock:
            if not self._done:
                migrate(self.engine)
                self._done = True


def migrate(engine: Engine) -> None:
    """Apply every migration the database lacks (Alembic), in one transaction under a lock."""
    from alembic import command  # noqa: PLC0415 - only a process that meets the events pays for Alembic
    from alembic.config import Config  # noqa: PLC0415

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with writing(engine) as connection:
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7301)")  # the key names deckcheck's migrations
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
