"""An event's registration hour under load: `python -m bench.events [--quick] [--players 2000] [--judges 50]
[--seconds 90] [--validate-seconds 30] [--connections 8] [--only sqlite-1,sqlite-2,postgresql-2]`.

Run by hand, never as a timed test: it prints figures with the targets beside them, and fails (exit code 1) only when
a registration is lost or duplicated. For each configuration (a SQLite file with `deckcheck serve --workers 1`, the
same with `--workers 2`, and PostgreSQL with `--workers 2`, its server the tests' own, tests/postgres.py) it makes a
fresh events database and the event on it with `deckcheck event create`, issues 6 desk tokens and a judge token per
judge, starts `deckcheck serve` on it (bench/server.py), and then:

1. runs a closed-loop validate load alone for `--validate-seconds`: `--connections` keep-alive clients, in a process
   of their own, sending POST /v1/validate (bench.load's legal bodies) back to back; their connections open one by
   one over a 3 s warm-up and stay open for the next step, so that both steps load the same workers alike;
2. plays the registration hour in `--seconds` of wall time. The players arrive at the desks as a Poisson queue whose
   rate fits them in the window (arrival times drawn uniformly over it); each of 6 desks takes the next arrival once
   it has come and registers the player: PUT with If-None-Match: *, a name, a CARD GAME ID and a deck of
   bench.corpus's (real cards of the bundled data, every player's its own, one in ten broken as registered decks
   are). Meanwhile each judge, one every `--judge-every` seconds, in turn reads a registered player, searches the
   list (part of a name or of a CARD GAME ID) and checks a registered player's deck (one deck in ten presented with
   a card moved to the side deck). The validate load of step 1 runs beside them for as long;
3. reads every player back with the organiser's token, 200 a page: each player once, at version 1.

It prints the latencies by kind as the clients saw them and as the server's access log timed them (and the time
outside the app, joined by request id), how long arrivals waited for a desk, the validate rate alone and during the
hour and their ratio, and the cores each part used: the clients share the machine's 2 cores with the server, and the
machine's busy cores (/proc/stat) show what other work took. A table of every configuration with the targets closes
the run. `--quick`: 200 players, 10 judges, a 15 s hour and a 15 s validate phase, a smoke run; `--connections 0`:
the hour without the validate load.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import itertools
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
import orjson

from bench.corpus import Corpus, CorpusDeck
from bench.load import bodies, check_bodies, pct
from bench.server import Server, cpu_seconds, pid_tree, serve
from deckcheck import Data, load_data
from deckcheck.events import EventStore
from tests.postgres import PostgresServer, find_binaries

DAY = "2008-06-01"
DESKS = 6
PAGE = 200
ATTEMPTS = 3  # a desk sends a registration again after a 5xx or a broken connection, as the desk's outbox does
TARGET_P99_MS, TARGET_VALIDATE_RATIO = 100.0, 0.95
# name, backend, `deckcheck serve --workers`
CONFIGS = (("sqlite-1", "sqlite", 1), ("sqlite-2", "sqlite", 2), ("postgresql-2", "postgresql", 2))
LABELS = {"sqlite-1": "SQLite, 1 worker", "sqlite-2": "SQLite, 2 workers", "postgresql-2": "PostgreSQL, 2 workers"}
FAMILY = (
    *("山田", "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺"),
    *("中村", "小林", "加藤", "吉田", "山本", "Smith", "Müller"),
)
GIVEN = ("太郎", "花子", "翔", "陽菜", "蓮", "結衣", "大輝", "美咲", "Ken", "Émile", "Yuki", "Sora")


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the event: id, family name, registration body, and their deck as registered."""

    id: str
    family: str
    card_game_id: str
    body: bytes
    deck: CorpusDeck


def make_players(data: Data, count: int) -> list[Player]:
    """`count` players, each with a deck of their own from bench.corpus (about one in ten broken)."""
    rng, decks = random.Random(2008), Corpus(data, seed=601).decks(count)
    out = []
    for number, deck in enumerate(decks, 1):
        family = rng.choice(FAMILY)
        name, card_game_id = f"{family} {rng.choice(GIVEN)}", f"{rng.randrange(10**10):010d}"
        source = rng.choice(("typed", "qr"))
        body = {"name": name, "card_game_id": card_game_id, "deck": {"ydke": deck.ydke()}, "source": source}
        out.append(Player(f"{number:04d}", family, card_game_id, orjson.dumps(body), deck))
    return out


@dataclass
class Seen:
    """What the event's clients saw: 2xx latencies and statuses by kind, the players the desks saw registered, how
    long each arrival waited in the queue for a desk, when each answered request was sent and its answer read (wall
    clock, by the request id the server answered with), and how late the clients' event loop woke (their own
    delay, in what they measure)."""

    latency: dict[str, list[float]] = field(default_factory=dict)
    status: dict[str, Counter[str]] = field(default_factory=dict)
    registered: list[Player] = field(default_factory=list)
    queued: list[float] = field(default_factory=list)
    wall: dict[str, tuple[float, float]] = field(default_factory=dict)
    lag: list[float] = field(default_factory=list)

    def note(self, kind: str, status: str, seconds: float | None) -> None:
        self.status.setdefault(kind, Counter())[status] += 1
        if seconds is not None:
            self.latency.setdefault(kind, []).append(seconds)


@dataclass(frozen=True)
class Event:
    """The event of one configuration: its id, the service's URL and the staff tokens."""

    id: str
    url: str
    desks: list[str]
    judges: list[str]
    organiser: str

    def players(self) -> str:
        return f"/v1/events/{self.id}/players"


async def timed(seen: Seen, kind: str, send: Awaitable[httpx.Response]) -> httpx.Response | None:
    """Send one request, noting its status and, if 2xx, its latency; None when the connection failed."""
    start, sent = time.perf_counter(), time.time()
    try:
        response = await send
    except httpx.HTTPError as exc:
        seen.note(kind, type(exc).__name__, None)
        return None
    elapsed = time.perf_counter() - start
    seen.note(kind, str(response.status_code), elapsed if response.is_success else None)
    seen.wall[response.headers.get("x-request-id", "")] = (sent, time.time())
    return response


@dataclass
class Floor:
    """The hour's clients share these: one HTTP client (a pool of keep-alive connections), the event, what they saw,
    the window (monotonic start and stop) and the seconds between a judge's requests."""

    client: httpx.AsyncClient
    event: Event
    seen: Seen
    window: tuple[float, float]
    every: float


async def register(floor: Floor, desk: int, player: Player) -> None:
    """One registration as a desk sends it: again after a 5xx or a broken connection, and taken as done by a 412 whose
    current registration is this desk's (an earlier attempt that was kept, its answer lost)."""
    event, seen = floor.event, floor.seen
    headers = {"Authorization": f"Bearer {event.desks[desk]}", "If-None-Match": "*", "Content-Type": "application/json"}
    for attempt in range(ATTEMPTS):
        sent = floor.client.put(f"{event.players()}/{player.id}", content=player.body, headers=headers)
        response = await timed(seen, "registration", sent)
        if response is None or response.status_code >= 500:
            await asyncio.sleep(0.2)
            continue
        current = (response.json().get("current") or {}) if response.status_code == 412 else {}
        if response.status_code == 201 or (attempt and current.get("registered_by") == f"desk-{desk + 1}"):
            seen.registered.append(player)
        return


async def desk(floor: Floor, n: int, queue: deque[tuple[float, Player]]) -> None:
    """Take the next arrival of the queue once it has come, register it, and again until the queue is empty."""
    while queue:
        arrives, player = queue.popleft()
        await asyncio.sleep(max(0.0, arrives - time.monotonic()))
        floor.seen.queued.append(time.monotonic() - arrives)
        await register(floor, n, player)


async def judge_once(floor: Floor, n: int, turn: int, rng: random.Random) -> None:
    """Judge `n`'s turn: read a registered player, search the list, or check a registered player's deck (the round
    going from 1 to 5 over the window)."""
    client, event, seen = floor.client, floor.event, floor.seen
    player = rng.choice(seen.registered)
    auth = {"Authorization": f"Bearer {event.judges[n]}"}
    if turn % 3 == 0:
        await timed(seen, "read player", client.get(f"{event.players()}/{player.id}", headers=auth))
    elif turn % 3 == 1:
        q = player.family if rng.random() < 0.5 else player.card_game_id[-5:]
        await timed(seen, "search", client.get(event.players(), params={"q": q}, headers=auth))
    else:
        deck = player.deck
        if rng.random() < 0.1:  # presented with a card moved to the side deck: a roster mismatch
            deck = CorpusDeck(deck.id, deck.main[1:], deck.extra, (*deck.side, deck.main[0]), deck.made_legal)
        start, stop = floor.window
        rnd = min(5, 1 + int(5 * (time.monotonic() - start) / (stop - start)))
        body = orjson.dumps({"deck": {"ydke": deck.ydke()}, "round": rnd})
        headers = {**auth, "Content-Type": "application/json"}
        sent = client.post(f"{event.players()}/{player.id}/deck-checks", content=body, headers=headers)
        await timed(seen, "deck check", sent)


async def judge(floor: Floor, n: int) -> None:
    """Judge `n`, acting every `floor.every` seconds from a random offset until the window ends (not while no player
    is registered yet), its actions in turn: read, search, deck check."""
    rng = random.Random(n)
    start, stop = floor.window
    due, turn = start + rng.uniform(0, floor.every), n
    while due < stop:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        if floor.seen.registered:
            await judge_once(floor, n, turn, rng)
            turn += 1
        due = max(due + floor.every, time.monotonic())


async def lag(stop: float, out: list[float]) -> None:
    """How late this process's event loop wakes from sleeps of 20 ms until `stop`: a delay of the clients' own."""
    while time.monotonic() < stop:
        began = time.perf_counter()
        await asyncio.sleep(0.02)
        out.append(time.perf_counter() - began - 0.02)


async def hour(event: Event, players: list[Player], window: tuple[float, float], args: argparse.Namespace) -> Seen:
    """The registration hour: the desks through the queue, the judges until the window ends."""
    start, stop = window
    rng = random.Random(61)
    arrivals = sorted(start + rng.uniform(0, stop - start) for _ in players)  # Poisson, given the count
    queue = deque(zip(arrivals, rng.sample(players, len(players)), strict=True))
    clients = DESKS + args.judges
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=event.url, limits=limits, timeout=60) as client:
        floor = Floor(client, event, Seen(), window, args.judge_every)
        crowd = [*(desk(floor, n, queue) for n in range(DESKS)), *(judge(floor, n) for n in range(args.judges))]
        await asyncio.gather(lag(stop, floor.seen.lag), *crowd)
    return floor.seen


@dataclass(frozen=True)
class Readback:
    """Every player as the organiser lists them: how many listed, lost (sent but not listed), duplicated (listed
    more than once, or at a version other than 1), and listed though never sent."""

    listed: int
    total: int
    lost: int
    duplicated: int
    unexpected: int


def read_back(event: Event, players: list[Player]) -> Readback:
    """List every player of the event, PAGE a page, with the organiser's token."""
    seen: Counter[str] = Counter()
    versions: dict[str, int] = {}
    total, offset = -1, 0
    auth = {"Authorization": f"Bearer {event.organiser}"}
    with httpx.Client(base_url=event.url, headers=auth, timeout=60) as client:
        while total < 0 or offset < total:
            page = client.get(event.players(), params={"limit": PAGE, "offset": offset})
            page.raise_for_status()
            body = page.json()
            total = int(body["total"])
            for row in body["players"]:
                seen[row["player"]] += 1
                versions[row["player"]] = int(row["version"])
            if not body["players"]:
                break
            offset += PAGE
    sent = {player.id for player in players}
    twice = sum(n - 1 for n in seen.values()) + sum(1 for v in versions.values() if v != 1)
    return Readback(sum(seen.values()), total, len(sent - seen.keys()), twice, len(seen.keys() - sent))


def make_event(url: str, judges: int) -> tuple[str, list[str], list[str], str]:
    """The event made by `deckcheck event create` on the database `url`, as an organiser makes it, then the desks'
    and judges' other tokens issued as `deckcheck event tokens` issues them (by the store, in this process: the
    command loads the card data, 3 s a token). Its id, the desk tokens, the judge tokens, the organiser's."""
    command = shutil.which("deckcheck", path=str(Path(sys.executable).parent)) or shutil.which("deckcheck")
    assert command is not None, "no deckcheck command beside this Python"
    with tempfile.TemporaryDirectory(prefix="deckcheck-updates-") as empty:
        env = {**os.environ, "DECKCHECK_EVENTS_DB": url, "DECKCHECK_UPDATES_DIR": empty}
        args = [command, "event", "create", "--name", "Regional", "--date", DAY, "--format", "ocg", "--json"]
        made = orjson.loads(subprocess.run(args, env=env, check=True, capture_output=True).stdout)
    event, tokens = str(made["event"]), made["tokens"]
    store = EventStore.open(url)
    try:
        desks = [tokens["desk"]] + [store.issue_token(event, "desk")[0] for _ in range(DESKS - 1)]
        judged = [tokens["judge"]] + [store.issue_token(event, "judge")[0] for _ in range(judges - 1)]
    finally:
        store.close()
    return event, desks, judged, str(tokens["organiser"])


@dataclass
class Window:
    """What the validate load did in one window: the latencies of its 2xx answers, its other outcomes (statuses, or
    a broken connection's error), and the CPU seconds its client process spent."""

    seconds: float
    latency: list[float] = field(default_factory=list)
    other: Counter[str] = field(default_factory=Counter)
    client_cpu: float = 0.0

    @property
    def rate(self) -> float:
        """2xx answers a second, those answered within the window only."""
        return len(self.latency) / self.seconds


Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def ask(streams: Streams, raw: bytes) -> int:
    """Send one pre-encoded request on a keep-alive connection and read its answer; its status."""
    reader, writer = streams
    writer.write(raw)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            await reader.readexactly(int(value))
    return int(lines[0].split(b" ", 2)[1])


async def exchange(streams: Streams | None, port: int, raw: bytes) -> tuple[Streams | None, str, float]:
    """One request on the connection `streams` (opened if None): the connection (None once broken), the status or
    the connection's error, and the seconds it took."""
    try:
        streams = streams or await asyncio.open_connection("127.0.0.1", port)
        began = time.perf_counter()
        status = await ask(streams, raw)
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
        if streams is not None:
            streams[1].close()
        return None, type(exc).__name__, 0.0
    return streams, str(status), time.perf_counter() - began


async def validate_client(
    port: int,
    work: list[bytes],
    turn: Iterator[int],
    windows: list[Window],
    times: list[tuple[float, float]],
    *,
    delay: float,
) -> None:
    """One keep-alive connection sending the next request of `work` back to back in each window and idle between
    them: the same connection from one window to the next (with `--workers 2`, the same worker), unless it breaks.
    It opens `delay` seconds into the first window (the warm-up)."""
    streams: Streams | None = None
    for (start, stop), window in zip(times, windows, strict=True):
        await asyncio.sleep(max(0.0, start + delay - time.monotonic()))
        delay = 0.0
        while time.monotonic() < stop:
            streams, outcome, took = await exchange(streams, port, work[next(turn) % len(work)])
            if time.monotonic() > stop:
                break  # answered after the window: not counted, the window being the divisor
            if outcome.startswith("2"):
                window.latency.append(took)
            else:
                window.other[outcome] += 1
            if streams is None:
                await asyncio.sleep(0.01)
    if streams is not None:
        streams[1].close()


async def clock(windows: list[Window], times: list[tuple[float, float]]) -> None:
    """Note the CPU seconds this process spends in each window."""
    for (start, stop), window in zip(times, windows, strict=True):
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        before = resource.getrusage(resource.RUSAGE_SELF)
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        after = resource.getrusage(resource.RUSAGE_SELF)
        window.client_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


@dataclass
class ValidateLoad:
    """A closed-loop validate load in a child process: `connections` keep-alive clients sending POST /v1/validate
    (bench.load's legal bodies) back to back in each of a few windows of time, on the same connections throughout;
    the child's windows come back when it ends."""

    process: mp.process.BaseProcess
    receive: Connection

    @classmethod
    def start(cls, port: int, work: list[bytes], connections: int, times: list[tuple[float, float]]) -> ValidateLoad:
        """Fork the child, which runs the windows `times` (monotonic starts and stops)."""
        sys.stdout.flush()
        context = mp.get_context("fork")
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=cls._child, args=(port, work, connections, times, send))
        child.start()
        send.close()  # the child's end: recv() ends with EOFError should the child die
        return cls(child, receive)

    @staticmethod
    def _child(
        port: int, work: list[bytes], connections: int, times: list[tuple[float, float]], out: Connection
    ) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent, which stops this process
        windows, turn = [Window(stop - start) for start, stop in times], itertools.count()

        async def run() -> None:
            # The connections open one by one over the warm-up, as clients come, never all in the same instant: a
            # worker that wakes to a burst of them accepts them all (asyncio accepts in a loop), and the other
            # worker of `--workers 2` gets none.
            stagger = min(0.25, 0.8 * (times[0][1] - times[0][0]) / connections)
            clients = (validate_client(port, work, turn, windows, times, delay=n * stagger) for n in range(connections))
            await asyncio.gather(clock(windows, times), *clients)

        asyncio.run(run())
        out.send(windows)

    def windows(self) -> list[Window]:
        """Each window's figures, once the child has ended."""
        try:
            windows: list[Window] = self.receive.recv()
        finally:
            self.process.join(10)
            if self.process.is_alive():
                self.process.kill()
        return windows


def encoded(port: int, legal: list[bytes]) -> list[bytes]:
    """Each body as a whole HTTP/1.1 request to POST /v1/validate."""
    head = f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
    return [f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body for body in legal]


def process_cpu(pid: int) -> float:
    """User plus system CPU seconds of the process `pid` alone (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu(postmaster: int) -> float:
    """CPU seconds of a PostgreSQL server: its postmaster's, those of the backends it has reaped (a connection
    closed), and those of its processes still running."""
    try:
        fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    reaped = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return cpu_seconds(postmaster) + reaped


def busy() -> float:
    """CPU seconds the whole machine has spent busy (neither idle nor waiting on a disk) since it started, from
    /proc/stat: with ours taken away, what other work on the machine used meanwhile."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Sample:
    """CPU seconds so far: of each process of the server, of PostgreSQL's, of this process, and of the machine."""

    at: float
    server: dict[int, float]
    postgres: float
    own: float
    machine: float

    @classmethod
    def take(cls, server: Server, pg: int | None) -> Sample:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        processes = {pid: process_cpu(pid) for pid in pid_tree(server.process.pid)}
        postgres = postgres_cpu(pg) if pg is not None else 0.0
        return cls(time.monotonic(), processes, postgres, usage.ru_utime + usage.ru_stime, busy())


@dataclass(frozen=True)
class Cores:
    """The cores each part used between two samples: each server process, PostgreSQL (None: SQLite), the events'
    clients (this process), the validate client, and the whole machine."""

    server: list[float]
    postgres: float | None
    events_client: float
    validate_client: float | None
    machine: float

    @classmethod
    def between(cls, a: Sample, b: Sample, pg: int | None, window: Window | None) -> Cores:
        took = b.at - a.at
        server = [(cpu - a.server.get(pid, 0.0)) / took for pid, cpu in b.server.items()]
        postgres = (b.postgres - a.postgres) / took if pg is not None else None
        validate = window.client_cpu / window.seconds if window is not None else None
        return cls(server, postgres, (b.own - a.own) / took, validate, (b.machine - a.machine) / took)

    def line(self) -> str:
        ours = sum(self.server) + (self.postgres or 0.0) + self.events_client + (self.validate_client or 0.0)
        each = " + ".join(f"{n:.2f}" for n in self.server if n >= 0.005)
        parts = [f"server {sum(self.server):.2f}" + (f" ({each})" if len(self.server) > 1 else "")]
        parts += [f"PostgreSQL {self.postgres:.2f}"] if self.postgres is not None else []
        parts += [f"events client {self.events_client:.2f}"]
        parts += [f"validate client {self.validate_client:.2f}"] if self.validate_client is not None else []
        return f"{', '.join(parts)}; the machine busy {self.machine:.2f} (other work {self.machine - ours:.2f})"


ROUTES = {
    ("PUT", "/v1/events/{event}/players/{player}"): "registration",
    ("POST", "/v1/events/{event}/players/{player}/deck-checks"): "deck check",
    ("GET", "/v1/events/{event}/players/{player}"): "read player",
    ("GET", "/v1/events/{event}/players"): "search",
}


@dataclass
class Served:
    """The server's own account of the hour's requests, from its access log (a JSON line a request,
    deckcheck/logs.py): the seconds each took by kind, from the app's first look at it to its answer's end; and by
    request id, the wall-clock time of its end and its seconds."""

    times: dict[str, list[float]] = field(default_factory=dict)
    ends: dict[str, tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def read(cls, server: Server) -> Served:
        server.log.flush()
        out = cls()
        for line in Path(server.log.name).read_text(errors="replace").splitlines():
            entry = orjson.loads(line) if line.startswith("{") else {}
            kind = ROUTES.get((str(entry.get("method")), str(entry.get("route"))))
            if kind is None or entry.get("logger") != "deckcheck.access":
                continue
            seconds = float(entry["ms"]) / 1000
            out.times.setdefault(kind, []).append(seconds)
            end = dt.datetime.fromisoformat(str(entry["time"]).replace("Z", "+00:00")).timestamp()
            out.ends[str(entry["request_id"])] = (end, seconds)
        return out

    def outside(self, seen: Seen) -> tuple[list[float], list[float]]:
        """For each request both saw, the seconds from the client's sending it to the app's first look at it, and
        from the app's answer (as the log line's millisecond clock has it) to the client's reading it."""
        before, after = [], []
        for request, (sent, read) in seen.wall.items():
            if request in self.ends:
                end, seconds = self.ends[request]
                before.append(max(0.0, end - seconds - sent))
                after.append(max(0.0, read - end))
        return before, after


@dataclass
class Result:
    """One configuration's figures: what the events' clients saw, the read-back, the server's own times by kind, the
    validate load alone and during the hour (None when not run), and the cores used in each."""

    name: str
    seen: Seen
    readback: Readback
    served: Served
    alone: Window | None
    during: Window | None
    alone_cores: Cores | None
    hour_cores: Cores

    @property
    def ratio(self) -> float:
        """Validate's 2xx answers a second during the hour over those alone (nan when not run)."""
        if self.alone is None or self.during is None or not self.alone.rate:
            return float("nan")
        return self.during.rate / self.alone.rate

    def p(self, kind: str, q: float) -> float:
        kinds = ("read player", "search") if kind == "judge read" else (kind,)
        return pct([x for k in kinds for x in self.seen.latency.get(k, [])], q)

    @property
    def sound(self) -> bool:
        return self.readback.lost == self.readback.duplicated == self.readback.unexpected == 0


@contextmanager
def database(backend: str) -> Iterator[tuple[str, Path | None]]:
    """A fresh events database: a SQLite file in a temporary folder, or a database on a PostgreSQL server of this
    run's own. Its URL, and the PostgreSQL server's folder (None for SQLite)."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="deckcheck-bench-events-") as folder:
            yield f"sqlite:///{Path(folder) / 'events.sqlite3'}", None
        return
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server programs (bash scripts/system-deps installs them); --only sqlite-1,…")
    server = PostgresServer(binaries)
    try:
        server.start()
        yield server.fresh_database("bench_events"), server.folder
    finally:
        server.close()


def postmaster(folder: Path | None) -> int | None:
    """The PostgreSQL server's process id, from its data folder (None for SQLite)."""
    if folder is None:
        return None
    return int((folder / "data" / "postmaster.pid").read_text().split()[0])


def warm_events(event: Event) -> None:
    """A few reads of the event on fresh connections, so that each worker has opened the events database and checked
    its schema before the hour."""
    for _ in range(20):
        for token in (event.desks[0], event.judges[0]):
            answer = httpx.get(f"{event.url}/v1/events/{event.id}", headers={"Authorization": f"Bearer {token}"})
            answer.raise_for_status()


@dataclass(frozen=True)
class Bench:
    """What every configuration is measured with: the players, the validate bodies and the options."""

    players: list[Player]
    legal: list[bytes]
    args: argparse.Namespace


def measure(name: str, backend: str, workers: int, bench: Bench) -> Result:
    """One configuration: its database, event and server; the validate load's windows (a 3 s warm-up, alone, then
    beside the hour) on the same connections; the hour; the read-back."""
    args, label = bench.args, LABELS[name]
    print(f"\n== {label}: `deckcheck serve --workers {workers}` (load average {os.getloadavg()[0]:.2f}) ==")
    with database(backend) as (url, pg_folder):
        event_id, desks, judges, organiser = make_event(url, args.judges)
        with serve(workers, env={"DECKCHECK_EVENTS_DB": url}) as server:
            event = Event(event_id, f"http://127.0.0.1:{server.port}", desks, judges, organiser)
            check_bodies(server.port, {"legal": bench.legal})
            warm_events(event)
            pg, start = postmaster(pg_folder), time.monotonic() + 1.0
            load, alone_cores = None, None
            if args.connections:
                alone = (start + 3.5, start + 3.5 + args.validate_seconds)
                times = [(start, start + 3.0), alone, (alone[1] + 1.0, alone[1] + 1.0 + args.seconds)]
                load = ValidateLoad.start(server.port, encoded(server.port, bench.legal), args.connections, times)
                alone_samples = (sample_at(alone[0], server, pg), sample_at(alone[1], server, pg))
                start = times[2][0]
            seen, hour_samples = in_the_hour(server, pg, event, bench, start)
            windows = load.windows() if load is not None else [None, None, None]
            if load is not None:
                alone_cores = Cores.between(*alone_samples, pg, windows[1])
            hour_cores = Cores.between(*hour_samples, pg, windows[2])
            served = Served.read(server)  # before the read-back, whose pages are the search's route
            readback = read_back(event, bench.players)
            if server.errors():
                print("server log errors:", *server.errors()[:10], sep="\n  ")
    result = Result(name, seen, readback, served, windows[1], windows[2], alone_cores, hour_cores)
    report(result, args)
    return result


def sample_at(at: float, server: Server, pg: int | None) -> Sample:
    """A sample taken at `at` (monotonic), once it has come."""
    time.sleep(max(0.0, at - time.monotonic()))
    return Sample.take(server, pg)


def in_the_hour(
    server: Server, pg: int | None, event: Event, bench: Bench, begin: float
) -> tuple[Seen, tuple[Sample, Sample]]:
    """Play the hour from `begin`: what the clients saw, and samples of the CPU used at its start and end."""
    first = sample_at(begin, server, pg)
    seen = asyncio.run(hour(event, bench.players, (begin, begin + bench.args.seconds), bench.args))
    last = Sample.take(server, pg)
    print(f"  the hour took {last.at - begin:.1f} s for a {bench.args.seconds:g} s window")
    return seen, (first, last)


def report(result: Result, args: argparse.Namespace) -> None:
    """One configuration's figures."""
    seen, back = result.seen, result.readback
    print("  latencies at the client; in brackets, the server's own time from its access log")
    for kind in ("registration", "deck check", "read player", "search"):
        times, statuses = seen.latency.get(kind, []), dict(seen.status.get(kind, Counter()))
        own = result.served.times.get(kind, [])
        print(
            f"  {kind:12} {len(times):>6,} answered 2xx, p50 {pct(times, 0.5):6.1f} ms, p99 {pct(times, 0.99):6.1f}"
            f" ms, max {pct(times, 1.0):6.1f} ms (p50 {pct(own, 0.5):.1f}, p99 {pct(own, 0.99):.1f}); {statuses}"
        )
    before, after = (sorted(x) for x in result.served.outside(seen))
    print(
        f"  outside the app: from sending to the app p50 {pct(before, 0.5):.1f} ms, p99 {pct(before, 0.99):.1f} ms",
        end="",
    )
    print(f", max {pct(before, 1.0):.0f} ms; from the answer to reading it p99 {pct(after, 0.99):.1f} ms", end="")
    print(f", max {pct(after, 1.0):.0f} ms")
    lag = seen.lag
    print(f"  the clients' own event loop woke late by p99 {pct(lag, 0.99):.1f} ms, max {pct(lag, 1.0):.0f} ms")
    print(
        f"  queue: an arrival waited for a desk p50 {pct(seen.queued, 0.5):.0f} ms, p99 {pct(seen.queued, 0.99):.0f}"
        f" ms, max {pct(seen.queued, 1.0):.0f} ms; the desks saw {len(seen.registered):,} registered"
    )
    print(
        f"  read back: {back.listed:,} listed (total {back.total:,}) of {args.players:,} sent; lost {back.lost},"
        f" duplicated {back.duplicated}, unexpected {back.unexpected}"
    )
    for label, window in (("alone", result.alone), ("during the hour", result.during)):
        if window is not None:
            lat = window.latency
            print(
                f"  /v1/validate {label}: {window.rate:,.0f}/s, p50 {pct(lat, 0.5):.1f} ms, p99 {pct(lat, 0.99):.1f}",
                end="",
            )
            print(f" ms, {args.connections} clients back to back; other outcomes {dict(window.other)}")
    if result.alone is not None:
        print(f"  /v1/validate during the hour / alone: {result.ratio:.3f}")
    print(f"  cores of {os.cpu_count()}, shared by the server and the clients:")
    if result.alone_cores is not None:
        print(f"    validate alone: {result.alone_cores.line()}")
    print(f"    the hour: {result.hour_cores.line()}")


def verdict(ok: bool, measured: bool = True) -> str:
    return "not measured" if not measured else "met" if ok else "MISSED"


def table(results: list[Result]) -> None:
    """Every configuration beside the targets."""
    print(
        f"\n{'':22} {'registration':>15} {'deck check':>15} {'judge read':>15} {'lost':>5} {'dup':>4}"
        f" {'validate/s alone':>17} {'during':>7} {'ratio':>6} {'machine busy':>13}"
    )
    print(f"{'':22} {'p50 / p99 ms':>15} {'p50 / p99 ms':>15} {'p50 / p99 ms':>15} {'alone / hour':>56}")
    for r in results:
        cells = [f"{r.p(k, 0.5):.1f} / {r.p(k, 0.99):.1f}" for k in ("registration", "deck check", "judge read")]
        alone, during = (w.rate if w is not None else float("nan") for w in (r.alone, r.during))
        busy_alone = r.alone_cores.machine if r.alone_cores is not None else float("nan")
        print(
            f"{LABELS[r.name]:22} {cells[0]:>15} {cells[1]:>15} {cells[2]:>15} {r.readback.lost:>5}"
            f" {r.readback.duplicated:>4} {alone:>17,.0f} {during:>7,.0f} {r.ratio:>6.3f}"
            f" {busy_alone:>6.2f} / {r.hour_cores.machine:.2f}"
        )
    print(
        f"targets: registration and deck check p99 < {TARGET_P99_MS:.0f} ms; 0 lost or duplicated; "
        f"/v1/validate during / alone ≥ {TARGET_VALIDATE_RATIO}"
    )
    for r in results:
        p99 = max(r.p("registration", 0.99), r.p("deck check", 0.99)) < TARGET_P99_MS
        print(
            f"  {LABELS[r.name]:22} p99 {verdict(p99)}, lost/duplicated {verdict(r.sound)},"
            f" validate {verdict(r.ratio >= TARGET_VALIDATE_RATIO, r.ratio == r.ratio)}"
        )


def main() -> None:
    """Measure each configuration, print its figures and the table; exit 1 if a registration was lost or doubled."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="200 players, 10 judges, a 15 s hour, 15 s validate")
    parser.add_argument("--players", type=int, help="players registered in the hour (default 2000)")
    parser.add_argument("--judges", type=int, help="judge clients (default 50)")
    parser.add_argument("--seconds", type=float, help="the hour's length in wall time (default 90)")
    parser.add_argument("--validate-seconds", type=float, help="the validate phase alone (default 30)")
    parser.add_argument(
        "--connections",
        type=int,
        default=8,
        help="validate clients, back to back (default 8; 0: the hour alone, without validate load)",
    )
    parser.add_argument("--judge-every", type=float, default=2.0, help="seconds between a judge's requests (2)")
    parser.add_argument("--only", help="configurations, comma-separated: " + ", ".join(c[0] for c in CONFIGS))
    args = parser.parse_args()
    for key, full, quick in (
        ("players", 2000, 200),
        ("judges", 50, 10),
        ("seconds", 90.0, 15.0),
        ("validate_seconds", 30.0, 15.0),
    ):
        if getattr(args, key) is None:
            setattr(args, key, quick if args.quick else full)
    only = args.only.split(",") if args.only else [c[0] for c in CONFIGS]
    if unknown := set(only) - {c[0] for c in CONFIGS}:
        parser.error(f"--only: no configuration {', '.join(sorted(unknown))}")
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, shared by the server, PostgreSQL and this "
        f"load generator; {args.players:,} players at {DESKS} desks and {args.judges} judges (one request every "
        f"{args.judge_every:g} s each) in {args.seconds:g} s; validate: {args.connections} clients back to back, "
        f"{args.validate_seconds:g} s alone"
    )
    data = load_data()
    bench = Bench(make_players(data, args.players), bodies(data, legal=2000, faulty=0, garbage=0)["legal"], args)
    results = [measure(name, backend, workers, bench) for name, backend, workers in CONFIGS if name in only]
    table(results)
    if not all(r.sound for r in results):
        raise SystemExit("a registration was lost or duplicated")


if __name__ == "__main__":
    main()
