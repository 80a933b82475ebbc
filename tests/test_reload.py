"""Live reload, as an operator meets it: a real `deckcheck serve --workers 2` under continuous requests takes a new
list on SIGHUP with no request failing, every answer wholly by the old data or wholly by the new; keeps its data
when the update is broken, saying why in its log and metrics; and finishes a recheck in flight on the data it began
with."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from deckcheck.cli import run
from tests import served
from tests.cases import main_with, request

pytestmark = pytest.mark.server

PREMATURE_BURIAL = 70828912  # Limited on OCG 2026.10; the list the test adds forbids it
DECK = request(date="2026-12-01", main=main_with({"passcode": PREMATURE_BURIAL}, drop=1))


def _add_list(updates: Path, tmp_path: Path) -> None:
    """An operator's `deckcheck data add-list` of a list from 2026-11-15 forbidding Premature Burial. It does not
    wait for the services watching the folder to serve the list (a server that looks at the folder on SIGHUP alone
    never would, on its own): each test says when they take it."""
    given = tmp_path / "emergency.json"
    given.write_text(orjson.dumps({"forbidden": [PREMATURE_BURIAL]}).decode(), encoding="utf-8")
    argv = ["data", "add-list", "--dir", str(updates), "--wait", "0", "--format", "ocg", "--from", "2026-11-15"]
    argv.append(str(given))
    assert run(argv, io.StringIO(), io.StringIO()) == 0


@dataclass(frozen=True, slots=True)
class Reloading:
    """A running server, its updates folder and the number of lines its log held when the test began: what a test
    counts is what was logged since."""

    running: served.Served
    updates: Path
    since: int

    def lines(self) -> list[str]:
        """What the server has logged since the test began."""
        return self.running.log_lines()[self.since :]


def _reloads(server: Reloading, outcome: str) -> int:
    return sum(f'"outcome":"{outcome}"' in line for line in server.lines())


def _wait_for(server: Reloading, outcome: str, count: int) -> None:
    deadline = time.monotonic() + 60
    while _reloads(server, outcome) < count:
        assert time.monotonic() < deadline, server.lines()[-5:]
        time.sleep(0.05)


def _asking_until(condition: Callable[[], bool], askers: list[Future[None]]) -> None:
    """Wait until `condition()` holds while the askers run; a request of theirs that failed surfaces here."""
    deadline = time.monotonic() + 60
    while not condition():
        for asker in askers:
            if asker.done():
                asker.result()
        assert time.monotonic() < deadline
        time.sleep(0.02)


@dataclass(slots=True)
class TwoWorkers:
    """The module's server, its updates folder, the data version it started with, and whether a test has had it
    since it last served that version from an empty folder."""

    running: served.Served
    updates: Path
    started: str
    used: bool = False

    def restore(self) -> None:
        """Serve the bundle's data alone again from an empty updates folder, whatever a test left in it."""
        # An empty folder reads as one wiped while the data served hold files of it, and a reload keeps them
        # (data/lastgood.py): a folder holding only an empty record of imports loads as the bundle's data alone.
        shutil.rmtree(self.updates)
        (self.updates / "provenance").mkdir(parents=True)
        (self.updates / "provenance" / "imports.ndjson").write_bytes(b"")
        back = Reloading(self.running, self.updates, len(self.running.log_lines()))
        os.kill(self.running.process.pid, signal.SIGHUP)
        _wait_for(back, "ok", 2)
        versions = [orjson.loads(line)["version"] for line in back.lines() if '"outcome":"ok"' in line]
        assert versions == [self.started] * 2, back.lines()
        shutil.rmtree(self.updates)
        self.updates.mkdir()


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoWorkers]:
    """`deckcheck serve --workers 2` on an empty updates folder, reloading on SIGHUP alone (a look at the folder
    every few seconds would race the signal to the change)."""
    base = tmp_path_factory.mktemp("reload")
    updates = base / "updates"
    updates.mkdir()
    # A recheck's body waits while both workers reload (test_a_recheck_in_flight_finishes_on_its_data): on a machine
    # busy with other work that took past the 10 s body timeout, and the recheck ended with body_timeout instead of
    # showing which data its lines were judged by. The body timeout is not what these tests are about.
    env = {
        "DECKCHECK_UPDATES_DIR": str(updates),
        "DECKCHECK_UPDATES_POLL": "0",
        "DECKCHECK_ACCESS_LOG": "false",
        "DECKCHECK_BODY_TIMEOUT": "60",
    }
    with served.serving(base / "log", env, "--workers", "2") as running:
        deadline = time.monotonic() + 60  # /healthz answers once one worker runs: wait for the other too
        while sum("Application startup complete" in line for line in running.log_lines()) < 2:
            assert time.monotonic() < deadline, running.log_lines()
            time.sleep(0.05)
        yield TwoWorkers(running, updates, httpx.get(f"{running.url}/healthz").json()["data_version"])


@pytest.fixture
def server(two_workers: TwoWorkers) -> Reloading:
    """The module's server, serving the bundle's data alone from an empty updates folder, as it started."""
    if two_workers.used:
        two_workers.restore()
    two_workers.used = True
    return Reloading(two_workers.running, two_workers.updates, len(two_workers.running.log_lines()))


def test_sighup_swaps_the_data_with_no_request_failing(server: Reloading, tmp_path: Path) -> None:
    running, updates = server.running, server.updates
    old = httpx.get(f"{running.url}/healthz").json()["data_version"]
    card = f"{running.url}/v1/cards/{PREMATURE_BURIAL}"
    statuses_before = {row["banlist"]: row["status"] for row in httpx.get(card).json()["banlists"]}
    # Added before the askers start: the server reads the folder on SIGHUP alone, and the askers, threads of this
    # process, would starve the command run in it of the GIL.
    _add_list(updates, tmp_path)
    answers: list[tuple[float, int, str, bool, str]] = []
    stop = threading.Event()

    def ask() -> None:
        with httpx.Client(base_url=running.url, timeout=30) as client:
            while not stop.is_set():
                sent = time.monotonic()
                response = client.post("/v1/validate", json=DECK)
                body = response.json()
                version = response.headers["deckcheck-data-version"]
                answers.append((sent, response.status_code, version, body["legal"], body["banlist"]["id"]))

    with ThreadPoolExecutor(4) as pool:
        askers = [pool.submit(ask) for _ in range(4)]
        _asking_until(lambda: len(answers) >= 8, askers)
        os.kill(running.process.pid, signal.SIGHUP)
        _wait_for(server, "ok", 2)  # once per worker
        swapped = time.monotonic()
        _asking_until(lambda: sum(sent > swapped for sent, *_ in answers) >= 8, askers)
        stop.set()
        for asker in askers:
            asker.result()  # a transport error or a failed request would surface here
    new = httpx.get(f"{running.url}/healthz").json()["data_version"]
    assert new != old
    assert {status for _, status, *_ in answers} == {200}
    seen = {v: {(legal, banlist) for _, _, version, legal, banlist in answers if version == v} for v in (old, new)}
    assert seen == {old: {(True, "ocg-2026-10-01")}, new: {(False, "ocg-2026-11-15")}}
    assert {version for _, _, version, *_ in answers} == {old, new}
    # A request judged by the old data was sent before the last worker swapped; every one sent after is new.
    assert all(version == new for sent, _, version, *_ in answers if sent > swapped)
    assert _reloads(server, "ok") == 2
    # The card's statuses, kept with the lists they were read from, are those of the new lists once they serve.
    statuses = {row["banlist"]: row["status"] for row in httpx.get(card).json()["banlists"]}
    assert statuses_before["ocg-2026-10-01"] == statuses["ocg-2026-10-01"] == "limited"
    assert ("ocg-2026-11-15" in statuses_before, statuses["ocg-2026-11-15"]) == (False, "forbidden")


def test_a_broken_update_keeps_the_data_and_says_why(server: Reloading) -> None:
    running, updates = server.running, server.updates
    old = httpx.get(f"{running.url}/healthz").json()["data_version"]
    (updates / "banlists" / "ocg").mkdir(parents=True)
    (updates / "banlists" / "ocg" / "2026-11-15.json").write_text('{"name": "broken"', encoding="utf-8")
    os.kill(running.process.pid, signal.SIGHUP)
    _wait_for(server, "failed", 2)
    failed = [orjson.loads(line) for line in server.lines() if '"outcome":"failed"' in line]
    assert {(Path(f["file"]).name, f["entry"], f["kept"], f["cause"]) for f in failed} == {
        ("2026-11-15.json", "file", old, "SIGHUP")
    }
    response = httpx.post(f"{running.url}/v1/validate", json=DECK)
    assert (response.status_code, response.headers["deckcheck-data-version"]) == (200, old)
    metrics = httpx.get(f"{running.url}/metrics").text
    # Counted over the shared server's life: no other test of the module has a reload fail.
    assert 'deckcheck_data_reloads_total{outcome="failed"} 2.0' in metrics
    assert f'deckcheck_data_info{{data_version="{old}",version=' in metrics


def test_a_recheck_in_flight_finishes_on_its_data(server: Reloading, tmp_path: Path) -> None:
    running, updates = server.running, server.updates
    half = threading.Event()
    swapped = threading.Event()
    line = orjson.dumps({k: v for k, v in DECK.items() if k != "date"}) + b"\n"

    def body() -> Iterator[bytes]:
        for number in range(10):
            if number == 5:
                half.set()
                assert swapped.wait(60)
            yield line.replace(b"{", b'{"id":%d,' % number, 1)

    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(httpx.post, f"{running.url}/v1/rechecks?date=2026-12-01", content=body(), timeout=60)
        assert half.wait(30)
        _add_list(updates, tmp_path)
        os.kill(running.process.pid, signal.SIGHUP)
        _wait_for(server, "ok", 2)
        swapped.set()
        response: Any = answer.result()
    *results, closing = [orjson.loads(part) for part in response.content.splitlines()]
    assert [r["legal"] for r in results] == [True] * 10
    assert closing["summary"]["banlist"]["id"] == "ocg-2026-10-01"
    after = httpx.post(f"{running.url}/v1/rechecks?date=2026-12-01", content=line.replace(b"{", b'{"id":0,', 1))
    assert orjson.loads(after.content.splitlines()[-1])["summary"]["banlist"]["id"] == "ocg-2026-11-15"


def test_a_change_of_the_updates_folder_reloads_when_polled(tmp_path: Path) -> None:
    updates = tmp_path / "updates"
    updates.mkdir()
    env = {"DECKCHECK_UPDATES_DIR": str(updates), "DECKCHECK_UPDATES_POLL": "0.2", "DECKCHECK_ACCESS_LOG": "false"}
    with served.serving(tmp_path / "log", env) as running:
        assert httpx.post(f"{running.url}/v1/validate", json=DECK).json()["legal"] is True
        _add_list(updates, tmp_path)
        _wait_for(Reloading(running, updates, 0), "ok", 1)
        (reloaded,) = [orjson.loads(line) for line in running.log_lines() if '"outcome":"ok"' in line]
        assert reloaded["cause"] == "updates_changed"
        answer = httpx.post(f"{running.url}/v1/validate", json=DECK).json()
        assert (answer["legal"], answer["banlist"]["id"]) == (False, "ocg-2026-11-15")
        health = httpx.get(f"{running.url}/healthz").json()
        assert (health["data_version"], health["imports"]) == (reloaded["version"], 2)  # the bundle's, and this


INCOMING = Path(__file__).resolve().parent.parent / "sources" / "incoming"


def test_every_form_of_new_data_is_served_after_sighup(server: Reloading, tmp_path: Path) -> None:
    running, updates = server.running, server.updates
    given = tmp_path / "list.json"
    given.write_text(orjson.dumps({"forbidden": ["Pot of Greed"], "limited": [PREMATURE_BURIAL]}).decode(), "utf-8")
    imports = [
        ["add-list", "--format", "ocg", "--from", "2027-01-01", f"{INCOMING / 'ocg-2026-10.lflist.conf'}#2026.10"],
        ["add-list", "--format", "ocg", "--from", "2027-04-01", str(INCOMING / "konami-ocg-2025-04.csv")],
        ["add-list", "--format", "tcg", "--from", "2026-12-01", str(given)],
        ["add-cards", str(INCOMING / "prerelease-dbgv.cdb"), "--ocg-date", "2027-01-10"],
    ]
    # Imported before the askers start: the server reads the folder on SIGHUP alone (the commands do not wait for
    # it), and the askers, threads of this process, would starve the commands run in it of the GIL.
    for argv in imports:
        out, err = io.StringIO(), io.StringIO()
        assert run(["data", *argv[:1], "--dir", str(updates), "--wait", "0", *argv[1:]], out, err) == 0, err.getvalue()
    statuses: list[int] = []
    stop = threading.Event()

    def ask() -> None:
        with httpx.Client(base_url=running.url, timeout=30) as client:
            while not stop.is_set():
                statuses.append(client.post("/v1/validate", json=DECK).status_code)

    with ThreadPoolExecutor(2) as pool:
        askers = [pool.submit(ask) for _ in range(2)]
        _asking_until(lambda: len(statuses) >= 4, askers)
        os.kill(running.process.pid, signal.SIGHUP)
        _wait_for(server, "ok", 2)
        reloaded = len(statuses)
        _asking_until(lambda: len(statuses) >= reloaded + 4, askers)
        stop.set()
        for asker in askers:
            asker.result()
    assert set(statuses) == {200}
    lists = {
        b["id"]: b["name"] for b in httpx.get(f"{running.url}/v1/banlists", params={"limit": 50, "offset": 50}).json()
    }
    lists |= {b["id"]: b["name"] for b in httpx.get(f"{running.url}/v1/banlists", params={"format": "tcg"}).json()}
    assert {key: lists.get(key) for key in ("ocg-2027-01-01", "ocg-2027-04-01", "tcg-2026-12-01")} == {
        "ocg-2027-01-01": "OCG 2027.01",
        "ocg-2027-04-01": "OCG 2027.04",
        "tcg-2026-12-01": "TCG 2026.12",
    }
    card = httpx.get(f"{running.url}/v1/cards/100458023").json()
    assert (card["name_en"], card["extra_deck_type"], card["provisional"]) == (
        "Raise Moon Hope Squeeze - Jackpot",
        "xyz",
        True,
    )
    health = httpx.get(f"{running.url}/healthz").json()
    assert health["imports"] == 5  # the bundle's own, and these four


def test_the_store_swaps_keeps_and_polls_in_process(tmp_path: Path) -> None:
    # The same reloads as above, in this process, where the coverage of the store is measured.
    from deckcheck.api.live_data import DataStore, fingerprint  # noqa: PLC0415
    from deckcheck.api.metrics import Metrics  # noqa: PLC0415
    from deckcheck.data import DataSource  # noqa: PLC0415
    from deckcheck.versions import data_version  # noqa: PLC0415

    updates = tmp_path / "updates"
    updates.mkdir()
    source = DataSource(updates=updates)
    seen = fingerprint(source)
    data = source.load()
    metrics = Metrics(data_version(data), "test")
    store = DataStore(source, data, metrics, 60, seen)
    first = store.current

    async def scenario() -> tuple[bool, bool, bool]:
        _add_list(updates, tmp_path)
        swapped = await store.reload("test")
        (updates / "banlists" / "ocg" / "2027-01-01.json").write_text("{", encoding="utf-8")
        kept = await store.reload("test")
        (updates / "banlists" / "ocg" / "2027-01-01.json").unlink()
        poller = asyncio.create_task(store.poll(0.05))
        deadline = time.monotonic() + 30
        while store.current.data.banlists.get("ocg-2026-11-15") is not None and time.monotonic() < deadline:
            (updates / "banlists" / "ocg" / "2026-11-15.json").unlink(missing_ok=True)
            await asyncio.sleep(0.05)
        poller.cancel()
        return swapped, kept, store.current.data.banlists.get("ocg-2026-11-15") is None

    assert asyncio.run(scenario()) == (True, False, True)
    assert store.current.version == first.version  # the list added, then taken away: the same files again
    exposition = metrics.exposition().decode()
    assert 'deckcheck_data_reloads_total{outcome="failed"} 1.0' in exposition
    assert 'deckcheck_data_reloads_total{outcome="ok"} 2.0' in exposition


def test_a_folder_moved_away_while_it_is_read_fails_the_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder is looked at before a load and read by it: moved away in between, its files are gone from under
    the load, which would read it as a folder without updates and serve the bundle alone. It is looked at again once
    read: gone, the load fails and the operator's lists are still served."""
    from deckcheck.api.live_data import DataStore, fingerprint  # noqa: PLC0415
    from deckcheck.api.metrics import Metrics  # noqa: PLC0415
    from deckcheck.data import DataSource, loader  # noqa: PLC0415
    from deckcheck.versions import data_version  # noqa: PLC0415

    updates = tmp_path / "updates"
    updates.mkdir()
    _add_list(updates, tmp_path)
    source = DataSource(updates=updates)
    seen = fingerprint(source)
    data = source.load()
    store = DataStore(source, data, Metrics(data_version(data), "test"), 60, seen)
    looked = loader.check_folder

    def moved_once_looked_at(folder: Path, held: Path) -> None:
        looked(folder, held)
        updates.rename(tmp_path / "moved")  # between the load's look and its reading

    monkeypatch.setattr(loader, "check_folder", moved_once_looked_at)
    assert asyncio.run(store.reload("test")) is False
    assert store.current.data.banlists.get("ocg-2026-11-15") is not None
    assert store.current.stale is not None
    assert store.current.stale.problem == "is gone (moved, unmounted or removed)"
