"""Last good data, always (issue 36, part 4), as an operator meets it on a real `deckcheck serve`: an updates folder
moved away, wiped or broken in ways the loader did not foresee keeps the data served, says so in one log line, in
/metrics and as stale in /healthz and /readyz, until a good reload clears it; a worker replaced while the folder is
broken starts on the last good data kept on disk instead of failing to start; a burst of signals makes at most two
reloads."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from deckcheck.api.live_data import fingerprint
from deckcheck.data import DataSource
from tests import served
from tests.cases import main_with, request

pytestmark = pytest.mark.server

PREMATURE_BURIAL = 70828912  # Limited on OCG 2026.10; the list the tests add forbids it
DECK = request(date="2026-12-01", main=main_with({"passcode": PREMATURE_BURIAL}, drop=1))
ADDED = (False, "ocg-2026-11-15")  # the deck's verdict and list under the added list
GONE = "is gone (moved, unmounted or removed)"


def _deckcheck(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "deckcheck", *argv]
    return subprocess.run(command, check=False, env=os.environ | env, capture_output=True, text=True, timeout=300)


def _add_list(updates: Path, tmp_path: Path) -> None:
    """An operator's `deckcheck data add-list` of a list from 2026-11-15 forbidding Premature Burial."""
    given = tmp_path / "emergency.json"
    given.write_text(orjson.dumps({"forbidden": [PREMATURE_BURIAL]}).decode(), encoding="utf-8")
    done = _deckcheck("data", "add-list", "--dir", str(updates), "--format", "ocg", "--from", "2026-11-15", str(given))
    assert done.returncode == 0, done.stderr


def _lines(server: served.Served, event: str) -> list[dict[str, Any]]:
    """The logged lines of `event`, their own fields (all but the time, level, logger and message every line has)."""
    found = [line for line in server.logged("deckcheck.data") if line["event"] == event]
    return [{k: v for k, v in line.items() if k not in ("time", "level", "logger", "message")} for line in found]


def _reloads(server: served.Served, outcome: str) -> list[dict[str, Any]]:
    return [line for line in _lines(server, "data_reload") if line["outcome"] == outcome]


def _wait_for(server: served.Served, outcome: str | None, count: int) -> None:
    """Wait until `count` reloads of `outcome` (of any outcome when None) are logged."""
    deadline = time.monotonic() + 90
    while len(_lines(server, "data_reload") if outcome is None else _reloads(server, outcome)) < count:
        assert time.monotonic() < deadline, server.log_lines()[-5:]
        assert server.process.poll() is None, server.log_lines()[-20:]
        time.sleep(0.05)


def _verdict(url: str) -> tuple[str, bool, str]:
    response = httpx.post(f"{url}/v1/validate", json=DECK, timeout=60)
    assert response.status_code == 200, response.text
    body = response.json()
    return response.headers["deckcheck-data-version"], body["legal"], body["banlist"]["id"]


def _held(url: str) -> tuple[bool, str, int, int]:
    """The verdict on the deck, and the lists and imports held, as /healthz counts them: what tells the data of
    one process from another's (the data version covers the code too, read by each process when it starts)."""
    health = httpx.get(f"{url}/healthz").json()
    return (*_verdict(url)[1:], health["banlists"], health["imports"])


def _stale(url: str) -> tuple[Any, Any]:
    """What /healthz and /readyz say of the data's staleness."""
    return httpx.get(f"{url}/healthz").json()["stale"], httpx.get(f"{url}/readyz").json()["stale"]


def _failed_count(url: str) -> str:
    found = re.search(r'deckcheck_data_reloads_total\{outcome="failed"\} (\S+)', httpx.get(f"{url}/metrics").text)
    return found.group(1) if found else "0"


@pytest.fixture(scope="module")
def with_the_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An updates folder holding the operator's list, made once: the tests change copies of it."""
    base = tmp_path_factory.mktemp("with-the-list")
    folder = base / "updates"
    folder.mkdir()
    _add_list(folder, base)
    return folder


def _copy(folder: Path, to: Path) -> Path:
    """A copy of updates folder `folder` at `to`: its snapshot links point inside it, and stay so."""
    shutil.copytree(folder, to, symlinks=True)
    return to


@pytest.fixture
def updates(tmp_path: Path, with_the_list: Path) -> Path:
    """An updates folder holding the operator's list."""
    return _copy(with_the_list, tmp_path / "updates")


def _serve(tmp_path: Path, updates: Path, *args: str, poll: str = "0") -> Any:
    env = {"DECKCHECK_UPDATES_DIR": str(updates), "DECKCHECK_ACCESS_LOG": "false", "DECKCHECK_UPDATES_POLL": poll}
    return served.serving(tmp_path / "log", env, *args)


def test_a_folder_moved_away_keeps_its_lists_stale_until_it_is_back(tmp_path: Path, updates: Path) -> None:
    with _serve(tmp_path, updates) as running:
        version, *verdict = _verdict(running.url)
        assert tuple(verdict) == ADDED
        updates.rename(tmp_path / "moved")
        for count in (1, 2):
            os.kill(running.process.pid, signal.SIGHUP)
            _wait_for(running, None, count)
        assert [line["outcome"] for line in _lines(running, "data_reload")] == ["failed", "failed"]
        assert _verdict(running.url) == (version, *ADDED)
        health, ready = _stale(running.url)
        first, second = _reloads(running, "failed")
        assert health == ready == {"since": first["since"], "problem": GONE, "file": str(updates), "entry": "folder"}
        line = {
            "event": "data_reload",
            "outcome": "failed",
            "cause": "SIGHUP",
            "causes": ["SIGHUP"],
            **health,
            "kept": version,
        }
        assert first == second == line
        assert _failed_count(running.url) == "2.0"
        (tmp_path / "moved").rename(updates)
        os.kill(running.process.pid, signal.SIGHUP)
        _wait_for(running, "ok", 1)
        assert _verdict(running.url) == (version, *ADDED)
        assert _stale(running.url) == (None, None)
        assert [line["version"] for line in _reloads(running, "ok")] == [version]


def test_a_wiped_folder_keeps_its_lists_stale_until_it_is_filled_again(tmp_path: Path, updates: Path) -> None:
    shutil.copytree(updates, tmp_path / "copy", symlinks=True)
    with _serve(tmp_path, updates, poll="0.2") as running:
        version, *_ = _verdict(running.url)
        # `current` first, as in `rm -rf updates/* updates/.deckcheck`: a look while the rest goes reads the folder as
        # it will be. Were the snapshots taken first, a look in between would find `current` naming one that is gone.
        (updates / "current").unlink()
        for child in updates.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
        _wait_for(running, None, 1)
        (failed,) = _lines(running, "data_reload")
        problem = "holds no data files and no record of imports, where the data served hold 1"
        where = ("failed", "updates_changed", str(updates), "folder", problem)
        assert (failed["outcome"], failed["cause"], failed["file"], failed["entry"], failed["problem"]) == where
        assert _verdict(running.url) == (version, *ADDED)
        assert [stale["problem"] for stale in _stale(running.url)] == [problem, problem]
        assert _failed_count(running.url) == "1.0"
        updates.rmdir()  # filled again whole: a look in between finds it gone, or as it was
        (tmp_path / "copy").rename(updates)
        _wait_for(running, "ok", 1)
        assert _stale(running.url) == (None, None)
        assert _verdict(running.url) == (version, *ADDED)


def test_failures_the_loader_did_not_foresee_keep_the_data_and_say_so(tmp_path: Path, updates: Path) -> None:
    nested = updates / "banlists" / "ocg" / "2027-01-01.json"
    imports = updates / "provenance" / "imports.ndjson"
    record = imports.read_bytes()
    with _serve(tmp_path, updates) as running:
        version, *_ = _verdict(running.url)
        nested.write_text("[" * 100_000, encoding="utf-8")
        os.kill(running.process.pid, signal.SIGHUP)
        _wait_for(running, "failed", 1)
        nested.unlink()
        imports.write_bytes(record + b'{"source": "\xff"}\n')
        os.kill(running.process.pid, signal.SIGHUP)
        _wait_for(running, "failed", 2)
        assert [line["kept"] for line in _reloads(running, "failed")] == [version, version]
        assert _reloads(running, "ok") == []
        assert _verdict(running.url) == (version, *ADDED)
        assert all(stale is not None for stale in _stale(running.url))
        assert _failed_count(running.url) == "2.0"
        assert running.process.poll() is None


def test_a_server_restarted_on_a_broken_folder_starts_on_the_last_good_data(tmp_path: Path, updates: Path) -> None:
    with _serve(tmp_path, updates) as running:
        held = _held(running.url)
        assert held[:2] == ADDED
    broken = updates / "banlists" / "ocg" / "2026-11-15.json"
    broken.write_text('{"name": "broken"', encoding="utf-8")
    with _serve(tmp_path, updates) as running:
        version, *_ = _verdict(running.url)
        assert _held(running.url) == held
        health, ready = _stale(running.url)
        assert health == ready
        assert (health["file"], health["entry"]) == (str(broken), "file")
        ((failed),) = _reloads(running, "failed")
        assert (failed["cause"], failed["file"], failed["kept"]) == ("start", str(broken), version)
        assert _failed_count(running.url) == "1.0"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_broken_folder_with_nothing_kept_still_stops_the_start(tmp_path: Path, updates: Path, workers: str) -> None:
    broken = updates / "banlists" / "ocg" / "2026-11-15.json"
    broken.write_text('{"name": "broken"', encoding="utf-8")
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "DECKCHECK_UPDATES_DIR": str(updates)}  # nothing kept there
    done = _deckcheck("serve", "--port", str(served.free_port()), "--workers", workers, **env)
    assert (done.returncode, done.stdout) == (2, "")  # EXIT_ERROR
    assert done.stderr.startswith(f"deckcheck: {broken}: file: "), done.stderr
    assert len(done.stderr.splitlines()) == 1


def _workers(lines: list[str]) -> list[int]:
    """The worker processes started in `lines` of a log, in order."""
    return [int(pid) for pid in re.findall(r"Started server process \[(\d+)\]", "\n".join(lines))]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _started(lines: list[str]) -> int:
    return sum("Application startup complete" in line for line in lines)


def _wait_started(server: served.Served, count: int, after: int = 0) -> None:
    """Wait until `count` workers have started since line `after` of the log."""
    deadline = time.monotonic() + 90
    while _started(server.log_lines()[after:]) < count:
        assert time.monotonic() < deadline, server.log_lines()[-20:]
        assert server.process.poll() is None, server.log_lines()[-20:]
        time.sleep(0.05)


@dataclass(slots=True)
class TwoWorkers:
    """The module's server with two workers, its updates folder (a copy of the folder with the list), the data
    version it started with, and whether a test has had it since it last served that version from such a copy."""

    running: served.Served
    updates: Path
    started: str
    used: bool = False

    def restore(self, with_the_list: Path) -> None:
        """The folder as it was, wherever a test moved it and whatever it left in it, loaded again by both workers:
        none stale."""
        shutil.rmtree(self.updates.with_name("moved"), ignore_errors=True)
        shutil.rmtree(self.updates, ignore_errors=True)
        _copy(with_the_list, self.updates)
        reloaded = len(_lines(self.running, "data_reload"))
        os.kill(self.running.process.pid, signal.SIGHUP)
        _wait_for(self.running, None, reloaded + 2)
        back = _lines(self.running, "data_reload")[reloaded:]
        assert [(line["outcome"], line["version"]) for line in back] == [("ok", self.started)] * 2, back


@pytest.fixture(scope="module")
def shared_two_workers(tmp_path_factory: pytest.TempPathFactory, with_the_list: Path) -> Iterator[TwoWorkers]:
    """`deckcheck serve --workers 2` on a copy of the folder with the list, shared by the tests that replace a
    worker: each leaves the server running, its folder put back before the next (`two_workers`)."""
    base = tmp_path_factory.mktemp("two-workers")
    updates = _copy(with_the_list, base / "updates")
    with _serve(base, updates, "--workers", "2") as running:
        _wait_started(running, 2)
        yield TwoWorkers(running, updates, _verdict(running.url)[0])


@pytest.fixture
def two_workers(shared_two_workers: TwoWorkers, with_the_list: Path) -> tuple[served.Served, Path]:
    """The module's server with two workers and its updates folder, each worker serving the folder with the list,
    none stale."""
    if shared_two_workers.used:
        shared_two_workers.restore(with_the_list)
    shared_two_workers.used = True
    return shared_two_workers.running, shared_two_workers.updates


def _replace_a_worker(running: served.Served) -> list[str]:
    """Kill a worker, wait for its replacement to start and for two more of the supervisor's looks at its workers
    (every 0.5 s: one that failed to start stops the server); the log lines written since."""
    killed = next(pid for pid in _workers(running.log_lines()) if _alive(pid))
    before = len(running.log_lines())
    os.kill(killed, signal.SIGKILL)
    _wait_started(running, 1, before)
    time.sleep(1)
    assert running.process.poll() is None
    return running.log_lines()[before:]


def test_a_worker_replaced_while_the_folder_is_broken_serves_the_last_good_data(
    two_workers: tuple[served.Served, Path],
) -> None:
    running, updates = two_workers
    held = _held(running.url)
    assert held[:2] == ADDED
    broken = updates / "banlists" / "ocg" / "2026-11-15.json"
    broken.write_text('{"name": "broken"', encoding="utf-8")
    earlier = len(_reloads(running, "failed"))
    after = _replace_a_worker(running)
    # Every worker started since is serving (a busy machine may have the supervisor replace one that is slow to
    # answer its health check while it loads): none failed to start, each started on the last good data.
    assert not any("failed to start" in line for line in after)
    assert len(_workers(after)) == _started(after) >= 1
    assert _alive(_workers(after)[-1])
    starts = [line for line in _reloads(running, "failed")[earlier:] if line["cause"] == "start"]
    assert {(line["file"], line["entry"]) for line in starts} == {(str(broken), "file")}
    assert len(starts) == len(_workers(after))
    failed = len(_reloads(running, "failed"))
    os.kill(running.process.pid, signal.SIGHUP)  # both workers fail to reload: both stale, both on the same data
    _wait_for(running, "failed", failed + 2)
    answers = {(*_held(running.url), _stale(running.url)[0]["file"]) for _ in range(20)}
    assert answers == {(*held, str(broken))}
    # Every failed reload of the server's life, those of workers gone since included.
    assert _failed_count(running.url) == f"{len(_reloads(running, 'failed'))}.0"


def test_signals_during_a_reload_merge_into_one(tmp_path: Path, updates: Path) -> None:
    with _serve(tmp_path, updates) as running:
        # A burst well within one reload (about half a second): one spread wider, as a loaded machine stretched 50
        # pauses of 10 ms, outlasts the reload it began with and the one it merged into, and rightly makes a third.
        for _ in range(50):
            os.kill(running.process.pid, signal.SIGHUP)
            time.sleep(0.002)
        _wait_for(running, "ok", 1)
        # Settled: no reload logged for three times the longest one took (unmerged, they run back to back).
        seen, since = len(_reloads(running, "ok")), time.monotonic()
        while time.monotonic() - since < 1 + 3 * max(line["seconds"] for line in _reloads(running, "ok")):
            assert len(_reloads(running, "ok")) <= 2, running.log_lines()[-5:]
            if len(_reloads(running, "ok")) != seen:
                seen, since = len(_reloads(running, "ok")), time.monotonic()
            time.sleep(0.05)
        assert (len(_reloads(running, "ok")) in (1, 2), _reloads(running, "failed")) == (True, [])


def test_the_last_good_data_are_kept_once_whole_and_only_as_loaded(tmp_path: Path, updates: Path) -> None:
    # In this process, where its coverage is measured; imported here, the tests above run without the module.
    from deckcheck.data.lastgood import home, keep, load_kept  # noqa: PLC0415

    source = DataSource(updates=updates)
    seen = fingerprint(source)
    data = source.load()
    place = home(updates)
    (place / ".copy-left-by-a-writer-that-died").mkdir(parents=True)
    assert keep(source, data.digest, lambda: False) is False  # changed while copied: not kept
    assert load_kept(source) is None
    assert keep(source, data.digest, lambda: fingerprint(source) == seen) is True
    assert keep(source, data.digest, lambda: True) is False  # kept already
    assert sorted(path.name for path in place.iterdir()) == sorted([".lock", "latest", data.digest])
    kept = load_kept(source)
    assert kept is not None
    found = (kept.data.digest, kept.folder, kept.files, len(kept.data.imports))
    assert found == (data.digest, place / data.digest, 1, len(data.imports))
    shutil.rmtree(updates)
    assert load_kept(source) is not None  # kept apart from the folder


def test_a_worker_replaced_while_the_folder_is_gone_serves_the_last_good_data(
    two_workers: tuple[served.Served, Path],
) -> None:
    running, updates = two_workers
    held = _held(running.url)
    updates.rename(updates.with_name("moved"))
    earlier = len(_reloads(running, "failed"))
    after = _replace_a_worker(running)
    assert not any("failed to start" in line for line in after)
    starts = [line for line in _reloads(running, "failed")[earlier:] if line["cause"] == "start"]
    assert {(line["file"], line["entry"]) for line in starts} == {(str(updates), "folder")}
    assert _alive(_workers(after)[-1])
    assert _held(running.url) == held
