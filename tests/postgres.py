"""A real PostgreSQL server for the event tests, from Debian's postgresql package (bash scripts/system-deps installs
it): a cluster of the test process's own in a temporary folder, served on a free loopback port, with an empty
database made for each test that asks."""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

import psycopg
from psycopg import sql

from tests.served import free_port

# The server's programs, all of which a folder of PostgreSQL's must hold.
PROGRAMS = ("initdb", "pg_ctl", "postgres")
# Seconds the server may take to accept connections once started, a program of its own to finish, and the processes
# of a stopped or killed server to end.
START_SECONDS = 30
PROGRAM_SECONDS = 120
STOP_SECONDS = 30
# The cluster initdb makes: its superuser postgres, let in without a password (the server listens on the loopback
# address and in its own folder only), UTF8 text compared byte by byte, and its files not synced to disk as they are
# written (the server itself syncs as usual, so that a commit survives a crash).
INITDB_OPTIONS = ("--username=postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
# The user a server started by root runs as: PostgreSQL will not run as root, and Debian's package makes this one.
SERVER_USER = "postgres"


def find_binaries() -> Path | None:
    """The folder of PostgreSQL's server programs: Debian's of the highest major version
    (/usr/lib/postgresql/<major>/bin, off PATH), else the folder of the pg_ctl on PATH; None when neither holds
    initdb, pg_ctl and postgres."""
    folders = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version, reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path is not None:
        folders.append(Path(on_path).resolve().parent)
    return next((folder for folder in folders if all((folder / name).is_file() for name in PROGRAMS)), None)


def _version(folder: Path) -> tuple[int, ...]:
    """The version a folder /usr/lib/postgresql/<version>/bin is of, as numbers (9.6 before 15)."""
    return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name))


def libpq_url(url: str) -> str:
    """The URL psycopg connects with to the database a SQLAlchemy URL of the server names: the same, without the
    driver's name."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class PostgresServer:
    """A PostgreSQL server of the test process's own: a cluster made by initdb (trust authentication, UTF8, locale C)
    in a fresh temporary folder, served on a free port of 127.0.0.1 and on a unix socket in that folder. It runs as
    the postgres user when the tests run as root, and as whoever runs them otherwise. It can be stopped, killed and
    started again on the same data and port, for the tests of what a database keeps across a restart or a crash."""

    def __init__(self, binaries: Path) -> None:
        """Make the cluster, not started yet; the folder is removed again if that fails."""
        self._binaries = binaries
        self._account = _server_account()
        self.folder = Path(tempfile.mkdtemp(prefix="deckcheck-postgres-"))
        self.log = self.folder / "server.log"
        self.port = free_port()
        self._process: subprocess.Popen[bytes] | None = None
        self._databases = 0
        try:
            if self._account is not None:
                os.chown(self.folder, *self._account)
            self._run("initdb", "-D", "data", *INITDB_OPTIONS)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the server's own postgres database."""
        return self._url("postgres")

    @property
    def running(self) -> bool:
        """Whether the server was started and has not been stopped or killed since."""
        return self._process is not None

    def start(self) -> None:
        """Start the server on its data folder and port (after a kill, it recovers from its write-ahead log first),
        and wait until it accepts connections."""
        if self._process is not None:
            raise RuntimeError("the PostgreSQL server is already running")
        settings = ["listen_addresses=127.0.0.1", f"unix_socket_directories={self.folder}"]
        arguments = ["-D", "data", "-p", str(self.port), *(part for item in settings for part in ("-c", item))]
        with self.log.open("ab") as log:
            self._process = self._spawn("postgres", arguments, log)
        self._wait_until_ready(self._process)

    def stop(self) -> None:
        """Stop the server as an operator would (pg_ctl stop -m fast: its sessions ended, a checkpoint written), and
        wait until it is down."""
        process = self._running()
        self._run("pg_ctl", "stop", "-D", "data", "-m", "fast", "-w", "-t", str(STOP_SECONDS))
        process.wait(timeout=STOP_SECONDS)
        self._process = None

    def restart(self) -> None:
        """Stop the server and start it again on the same data and port."""
        self.stop()
        self.start()

    def kill(self) -> None:
        """Crash the server: SIGKILL to the postmaster and to each of its processes (each leads a process group of
        its own, so they are named one by one, the postmaster held still meanwhile so that it forks no other), with
        nothing flushed or shut down. Returns once they have all ended, so that start() finds none of them still
        holding the old server's shared memory."""
        process = self._running()
        os.kill(process.pid, signal.SIGSTOP)
        children = _children(process.pid)
        for pid in (process.pid, *children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait(timeout=STOP_SECONDS)
        self._process = None
        _wait_for_exit(children)

    def close(self) -> None:
        """Stop the server if it runs, and remove its folder: the data and the log."""
        try:
            if self._process is not None:
                self.stop()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def fresh_database(self, name_prefix: str) -> str:
        """A new, empty database on the server, named after `name_prefix` (a test's name, say) and a number no other
        database of this server has; its SQLAlchemy URL."""
        self._databases += 1
        name = f"{re.sub(r'[^a-z0-9_]+', '_', name_prefix.lower())[:40]}_{self._databases}"
        with psycopg.connect(libpq_url(self.url), autocommit=True) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self._url(name)

    def _url(self, database: str) -> str:
        """The SQLAlchemy URL of one of the server's databases, as its superuser, over TCP."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def _running(self) -> subprocess.Popen[bytes]:
        """The server's process, or a RuntimeError when it is not running."""
        if self._process is None:
            raise RuntimeError("the PostgreSQL server is not running")
        return self._process

    def _wait_until_ready(self, process: subprocess.Popen[bytes]) -> None:
        """Wait until the server accepts a connection to its postgres database; a RuntimeError carrying its log if
        it exits first or is not ready within START_SECONDS, when it is killed."""
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                self._process = None
                raise self._failure(f"PostgreSQL exited with code {process.returncode} as it started")
            try:
                psycopg.connect(libpq_url(self.url), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise self._failure(f"PostgreSQL did not accept connections within {START_SECONDS} s") from None
            time.sleep(0.05)

    def _failure(self, message: str) -> RuntimeError:
        """An error saying what went wrong, with the server's log."""
        log = self.log.read_text(errors="replace") if self.log.exists() else "(none)"
        return RuntimeError(f"{message}; the server's log ({self.log}):\n{log}")

    def _run(self, program: str, *arguments: str) -> None:
        """Run one of the server's programs to its end; a RuntimeError with its output if it fails."""
        with self._spawn(program, list(arguments), subprocess.PIPE) as process:
            try:
                output, _ = process.communicate(timeout=PROGRAM_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
        if process.returncode != 0:
            text = output.decode(errors="replace")
            raise RuntimeError(f"{program} {' '.join(arguments)} failed with code {process.returncode}:\n{text}")

    def _spawn(self, program: str, arguments: list[str], output: IO[bytes] | int) -> subprocess.Popen[bytes]:
        """One of the server's programs started in the server's folder, as the server's user, its output (and
        errors) to `output`. In a session of its own, so that a Ctrl-C meant for pytest leaves the server to be
        stopped by the tests' teardown."""
        user, group = self._account or (None, None)
        return subprocess.Popen(
            [str(self._binaries / program), *arguments],
            cwd=self.folder,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            user=user,
            group=group,
            extra_groups=None if self._account is None else [],
            start_new_session=True,
        )


def _server_account() -> tuple[int, int] | None:
    """The user and group ids the server runs as: the postgres user's when the tests run as root, as PostgreSQL will
    not; None (whoever runs the tests) otherwise."""
    if os.geteuid() != 0:
        return None
    try:
        account = pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise RuntimeError(
            f"the tests run as root, which PostgreSQL refuses, and there is no {SERVER_USER} user to run it as "
            "(Debian's postgresql package makes it: bash scripts/system-deps)"
        ) from None
    return account.pw_uid, account.pw_gid


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state (R, S, D, Z…) and its parent's id, from /proc; None once it is gone."""
    try:
        text = Path("/proc", str(pid), "stat").read_text()
    except OSError:
        return None
    state, parent = text.rpartition(")")[2].split()[:2]
    return state, int(parent)


def _children(parent: int) -> list[int]:
    """The ids of the processes whose parent is `parent`."""
    pids = (int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit())
    return [pid for pid in pids if (stat := _stat(pid)) is not None and stat[1] == parent]


def _alive(pid: int) -> bool:
    """Whether a process still runs: it is there and is not a zombie (ended, but not yet reaped by its parent,
    which for an orphan is init, and some inits never reap)."""
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def _wait_for_exit(pids: list[int]) -> None:
    """Wait until each of the processes has ended; a RuntimeError naming those that still run after STOP_SECONDS."""
    deadline = time.monotonic() + STOP_SECONDS
    while running := [pid for pid in pids if _alive(pid)]:
        if time.monotonic() > deadline:
            raise RuntimeError(f"processes of the killed PostgreSQL server still run: {running}")
        time.sleep(0.01)
