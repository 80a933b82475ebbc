"""The world of the property test of data updates as transactions (tests/test_data_transactions.py): one running
`deckcheck serve` over an updates folder, the `deckcheck data` commands an operator runs against that folder (each a
real subprocess, some killed with SIGKILL at a random moment), and the folder states that completed commands
produced, as the model the service's answers are held to.

A state is what the folder holds after a command completed: the lists it added (id, and each card's copies), the
passcodes of the cards it added, and the commands its provenance record holds, in order. The service is read over
HTTP (each list by id, each card by passcode, the count of imports in /healthz); the folder by `deckcheck data status
--json` (its record and counts) and `deckcheck data check`, run in a reader process that outlives the steps."""

from __future__ import annotations

import datetime as dt
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from stat import S_ISDIR
from typing import Any, NamedTuple

import httpx

from tests.served import Served

# Days after the newest bundled OCG list (2026-10-01): a list added on one of them is the folder's own.
DAYS = ("2027-01-01", "2027-04-01", "2027-07-01")
STATUSES = {"forbidden": 0, "limited": 1, "semi_limited": 2}
FIRST_PROBE = 88880001  # the first passcode of the cards added; no bundled card has one from here on
# What /healthz and `deckcheck data status --json` both say of the data they load.
SHARED_STATUS = ("cards", "banlists", "imports", "newest_lists")
_WAIT = 60.0  # seconds a reload, or a command, may take on a busy machine before the test gives up
_CLOCK = 0.002  # seconds by which the times a log line gives may be off


def probe_name(passcode: int) -> str:
    """The name of an added card: no bundled card's name, even loosely."""
    return f"Transaction Probe Card {passcode}"


class View(NamedTuple):
    """What the service answers from: the lists added, the cards added and how many imports the folder records."""

    lists: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
    cards: tuple[int, ...]
    records: int


@dataclass(frozen=True, slots=True)
class State:
    """A folder state a completed command produced: the lists added (id, then (passcode, copies) pairs, sorted),
    the passcodes of the cards added (sorted) and the commands recorded, oldest first."""

    lists: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    cards: tuple[int, ...] = ()
    records: tuple[tuple[str, ...], ...] = ()

    def view(self) -> View:
        """What the service answers of this state."""
        return View(self.lists, self.cards, len(self.records))

    def with_list(self, list_id: str, limits: Mapping[int, int]) -> State:
        """This state with list `list_id` holding `limits` (added, or replacing one of the same id)."""
        kept = [held for held in self.lists if held[0] != list_id]
        return replace(self, lists=tuple(sorted([*kept, (list_id, tuple(sorted(limits.items())))])))

    def with_cards(self, passcodes: Sequence[int]) -> State:
        """This state with the cards of `passcodes` added."""
        return replace(self, cards=tuple(sorted({*self.cards, *passcodes})))

    def without(self, what: str) -> State:
        """This state without list `what` or the card of passcode `what`."""
        lists = tuple(held for held in self.lists if held[0] != what)
        return replace(self, lists=lists, cards=tuple(card for card in self.cards if str(card) != what))

    def recorded(self, command: Sequence[str]) -> State:
        """This state with `command` (its words after `deckcheck`) appended to its record."""
        return replace(self, records=(*self.records, ("deckcheck", *command)))

    def held(self) -> list[str]:
        """What `deckcheck data remove` can take out of this state: its lists' ids and its cards' passcodes."""
        return [list_id for list_id, _ in self.lists] + [str(card) for card in self.cards]


@dataclass(frozen=True, slots=True)
class KillAfter:
    """SIGKILL the command `seconds` after it started."""

    seconds: float

    def due(self, elapsed: float, changes: int) -> bool:
        """Whether the kill is due `elapsed` seconds after the start, the folder's files seen changed `changes`
        times."""
        return elapsed >= self.seconds


@dataclass(frozen=True, slots=True)
class KillAtChange:
    """SIGKILL the command when a look at the folder's files finds them changed for the `number`-th time. Once the
    command has printed something (its preview: what it is about to write) or changed a file, it is stopped
    (SIGSTOP) for each look and let run between two for as long as a look takes, so that the looks see the steps of
    its writing (not each one: a rename and the append that follows it may fall between two looks)."""

    number: int

    def due(self, elapsed: float, changes: int) -> bool:
        """Whether the kill is due `elapsed` seconds after the start, the folder's files seen changed `changes`
        times."""
        return changes >= self.number


Kill = KillAfter | KillAtChange


def deckcheck(env: Mapping[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    """`deckcheck <argv>` run to its end in a process of its own, with `env`."""
    command = [sys.executable, "-m", "deckcheck", *argv]
    return subprocess.run(command, env=dict(env), capture_output=True, text=True, timeout=_WAIT, check=False)


def killed(env: Mapping[str, str], argv: Sequence[str], folder: Path, kill: Kill) -> tuple[int, str]:
    """Run `deckcheck <argv>` (its output unbuffered) and SIGKILL it when `kill` is due; its exit code (-9 when the
    kill ended it) and what it wrote to stderr."""
    command = [sys.executable, "-m", "deckcheck", *argv]
    unbuffered = {**env, "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, env=unbuffered, stdout=subprocess.PIPE, stderr=errors)
        assert process.stdout is not None
        try:
            process.returncode = _until_killed(process.pid, process.stdout.fileno(), folder, kill)
        finally:
            if process.returncode is None:
                process.kill()
                process.wait()
            process.stdout.close()
        errors.seek(0)
        return process.returncode, errors.read().decode(errors="replace")


def _until_killed(pid: int, output: int, folder: Path, kill: Kill) -> int:
    """Watch process `pid` (its output read from the pipe `output`) and the folder's files until `kill` is due,
    then SIGKILL it; its exit code. The process is reaped here, by its pid."""
    os.set_blocking(output, False)
    began, seen, changes, stepping = time.monotonic(), _files(folder), 0, False
    while True:
        if stepping:
            os.kill(pid, signal.SIGSTOP)
        waited, status = os.waitpid(pid, os.WUNTRACED if stepping else os.WNOHANG)
        if waited and not os.WIFSTOPPED(status):
            return os.waitstatus_to_exitcode(status)
        looked = time.monotonic()
        now = _files(folder)
        changes, seen = changes + (now != seen), now
        if kill.due(looked - began, changes):
            os.kill(pid, signal.SIGKILL)
            return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        printed = _drained(output)
        stepping = stepping or (isinstance(kill, KillAtChange) and (printed or changes > 0))
        if waited:
            os.kill(pid, signal.SIGCONT)
        assert time.monotonic() - began < _WAIT, f"pid {pid} did not end"
        # Stepped, it runs between two looks as long as a look takes: at half speed at worst.
        time.sleep(max(time.monotonic() - looked, 0.0001) if stepping else 0.001)


def _drained(output: int) -> bool:
    """Read what the pipe `output` holds (without waiting); whether it held anything."""
    held = False
    with suppress(BlockingIOError):
        while os.read(output, 65536):
            held = True
    return held


def _files(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Each file and link under `folder` (not the folders): its size, modification time and inode."""
    found = {}
    for parent, folders, files in os.walk(folder):  # a folder that goes while it is walked is passed over
        for name in [*folders, *files]:
            path = os.path.join(parent, name)
            with suppress(OSError):  # gone between the listing and the look
                stat = os.lstat(path)
                if not S_ISDIR(stat.st_mode):
                    found[os.path.relpath(path, folder)] = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    return found


_READER = """
import contextlib, io, json, sys
from deckcheck.cli import run
for line in sys.stdin:
    said = []
    for argv in json.loads(line):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(argv, out, err)
        said.append((out.getvalue(), err.getvalue(), code))
    print(json.dumps(said), flush=True)
"""


class Reader:
    """A process of its own that runs `deckcheck` command lines (`deckcheck.cli.run`, what the command runs) asked
    of it, one after the other, each reading its data afresh, and gives what each printed and its exit code: the
    commands that read the folder, without starting Python and importing deckcheck again for each. What they write
    to sys.stderr, logs and warnings included, is given as theirs."""

    def __init__(self, env: Mapping[str, str], errors: Path) -> None:
        command = [sys.executable, "-c", _READER]
        with errors.open("wb") as sink:
            self.process = subprocess.Popen(
                command, env=dict(env), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sink, text=True
            )
        self.errors = errors
        self.asked = 0  # the answers not read yet

    def ask(self, *argvs: Sequence[str]) -> None:
        """Have the command lines `argvs` run, in order, from now: their answer is the next one not read yet."""
        while self.asked:  # left by a step that failed before it read them
            self.answer()
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps([list(argv) for argv in argvs]) + "\n")
        self.process.stdin.flush()
        self.asked += 1

    def answer(self) -> list[tuple[str, str, int]]:
        """What each command line of the oldest answer not read yet printed to stdout and stderr, and its exit
        code; waited for."""
        assert self.asked, "nothing asked"
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], _WAIT)
        line = self.process.stdout.readline() if ready else ""
        assert line, f"the reader gave no answer: {self.process.poll()}, {self.errors.read_text(errors='replace')}"
        self.asked -= 1
        return [(out, err, code) for out, err, code in json.loads(line)]

    def close(self) -> None:
        """Let the process end, and wait for it."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=_WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()


@dataclass
class World:
    """The service, its folder and the model: the state the last completed command produced."""

    server: Served
    client: httpx.Client
    folder: Path
    env: Mapping[str, str]
    sources: Path  # where the files the commands import are written
    baseline: int  # the imports the bundle records, before any of the folder's
    reader: Reader  # reads the folder as `deckcheck data status` and `check` do
    state: State = field(default_factory=State)
    probes: int = 0  # the cards added so far
    written: int = 0  # the source files written so far
    steps: list[str] = field(default_factory=list)  # the steps of the sequence running
    failure: str | None = None  # the first failure, with the steps that led to it

    def source(self, suffix: str, text: str) -> Path:
        """A new source file holding `text`, named by its number and `suffix`."""
        self.written += 1
        path = self.sources / f"source-{self.written}{suffix}"
        path.write_text(text, encoding="utf-8")
        return path

    def new_passcodes(self, count: int) -> list[int]:
        """`count` passcodes no card had: the next probes."""
        self.probes += count
        return list(range(FIRST_PROBE + self.probes - count, FIRST_PROBE + self.probes))

    def settle(self, acceptable: Sequence[State]) -> State:
        """Reload the service (SIGHUP) and wait until that reload has ended; then hold what it answers from to one
        of the `acceptable` states, and the folder (as `deckcheck data status` and `check` read it) to the same
        one, which becomes the model's. The state taken. Called once nothing writes to the folder any more: so the
        folder is read while the service reloads, each reading the same files."""
        self.reader.ask(["data", "status", "--json"], ["data", "check", str(self.folder)])
        self.reload(self.sighup)
        view, health = self.served()
        matching = [state for state in acceptable if state.view() == view]
        assert matching, f"the service answers from {view}; commands produced {[state.view() for state in acceptable]}"
        status = self.folder_status()
        records = self.records(status)
        taken = [state for state in matching if state.records == records]
        assert taken, f"{self.folder} records {records}; the service answers from {matching[0]}"
        assert {key: status[key] for key in SHARED_STATUS} == {key: health[key] for key in SHARED_STATUS}
        self.state = taken[0]
        return self.state

    def records(self, status: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
        """The commands the folder records, as `deckcheck data status --json` (`status`) gives its record."""
        return tuple(tuple(record["command"]) for record in status["updates"][self.baseline :])

    def sighup(self) -> str:
        """Tell the service to load its data again; the cause its reload logs."""
        os.kill(self.server.process.pid, signal.SIGHUP)
        return "SIGHUP"

    def reload(self, send: Callable[[], str]) -> dict[str, Any]:
        """Call `send`, which makes the service reload and says the cause that reload logs, and wait until a reload
        that began after the call ends; its log line. The service merges an ask made while another waits to begin
        into that one, whose line names every cause merged: so that is a reload naming the cause that ended after
        the call, and whose loading, when it succeeded, did not begin before it (its line's time less its seconds; a
        failed reload does not log when it began)."""
        since = len(self.reloads())
        sent = time.time()
        cause = send()
        deadline = time.monotonic() + _WAIT
        while True:
            for line in self.reloads()[since:]:
                if cause not in line["causes"]:
                    continue
                if "seconds" not in line:
                    return line
                began = dt.datetime.fromisoformat(line["time"]).timestamp() - line["seconds"]
                if began > sent - _CLOCK:  # the log's times are cut to milliseconds: a margin
                    return line
            assert time.monotonic() < deadline, (cause, self.server.log_lines()[-5:])
            time.sleep(0.01)

    def reloads(self) -> list[dict[str, Any]]:
        """The service's log lines of its reloads, oldest first."""
        return [json.loads(line) for line in self.server.log_lines() if '"event":"data_reload"' in line]

    def served(self) -> tuple[View, dict[str, Any]]:
        """What the service answers from, and its /healthz."""
        lists = []
        for day in DAYS:
            answer = self.client.get(f"/v1/banlists/ocg-{day}")
            if answer.status_code == 404:
                continue
            assert answer.status_code == 200, answer.text
            body = answer.json()
            limits = {card["passcode"]: limit for status, limit in STATUSES.items() for card in body[status]}
            lists.append((f"ocg-{day}", tuple(sorted(limits.items()))))
        cards = []
        for passcode in range(FIRST_PROBE, FIRST_PROBE + self.probes):
            answer = self.client.get(f"/v1/cards/{passcode}")
            if answer.status_code == 404:
                continue
            assert (answer.status_code, answer.json()["name_en"]) == (200, probe_name(passcode)), answer.text
            cards.append(passcode)
        health = self.client.get("/healthz").json()
        return View(tuple(lists), tuple(cards), health["imports"] - self.baseline), health

    def folder_status(self) -> dict[str, Any]:
        """`deckcheck data status --json` of the folder, and `deckcheck data check` of it, as the reader gives them
        (asked by `settle` when the command had ended); both must pass."""
        (status, status_err, status_code), (check, check_err, check_code) = self.reader.answer()
        assert (check_code, check_err) == (0, ""), check
        assert check.startswith(f"{self.folder}: good ("), check
        assert (status_code, status_err) == (0, ""), status
        said: dict[str, Any] = json.loads(status)
        return said
