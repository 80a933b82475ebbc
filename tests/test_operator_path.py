"""The operator's path as docs/operators/data.md writes it, with no settings at all: `deckcheck serve`, then
`deckcheck data add-list` from an lflist.conf, and nothing else. The new list must be in force in the running service
within seconds, and the command, `data status` and /healthz must say so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests import browser
from tests.cases import request
from tests.served import serving

pytestmark = [pytest.mark.server, pytest.mark.browser]

if TYPE_CHECKING:
    from tests.test_desk_currency import Header

ROOT = Path(__file__).resolve().parent.parent
DARK_MAGICIAN = 46986414  # unlimited in OCG 2026.10; Forbidden in the list this test announces


def _deckcheck(*argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "deckcheck", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, env=os.environ.copy())


@pytest.fixture
def new_list(tmp_path: Path) -> Path:
    """An lflist.conf, as ygopro publishes lists, announcing one of 2027-01-01: the bundled OCG 2026.10 with Dark
    Magician Forbidden."""
    bundled = json.loads((ROOT / "banlists" / "ocg" / "2026-10-01.json").read_text(encoding="utf-8"))
    lines = ["#[2027.01]", "!2027.01", f"{DARK_MAGICIAN} 0"]
    for status, limit in (("forbidden", 0), ("limited", 1), ("semi_limited", 2)):
        lines += [f"{passcode} {limit}" for passcode in bundled[status]]
    path = tmp_path / "new.lflist.conf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_new_list_reaches_the_running_service_with_no_settings(
    tmp_path: Path, new_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [name for name in os.environ if name.startswith("DECKCHECK_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = tmp_path / "data" / "deckcheck" / "updates"  # the user's data folder, as platformdirs names it
    deck = request(date="2027-01-15")  # the golden cases' legal deck, three Dark Magician in it
    with serving(tmp_path / "serve.log", {}) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        health = client.get("/healthz").json()
        assert health["updates_dir"] == str(folder)
        assert health["updates_poll_seconds"] == 2.0
        assert client.post("/v1/validate", json=deck).json()["legal"] is True  # judged by OCG 2026.10
        started = [json.loads(line) for line in server.log_lines() if '"data_served"' in line]
        assert [line["updates_dir"] for line in started] == [str(folder)]

        began = time.monotonic()
        added = _deckcheck("data", "add-list", f"{new_list}#2027.01", "--format", "ocg", "--from", "2027-01-01")
        assert added.returncode == 0, added.stderr
        took = time.monotonic() - began
        lines = added.stdout.splitlines()
        assert f"{folder}: wrote banlists/ocg/2027-01-01.json" in lines
        served = client.get("/healthz").json()
        assert f"pid {server.process.pid} serves it: data version {served['data_version']}" in added.stdout
        assert served["data_version"] != health["data_version"]
        assert took < 30

        verdict = client.post("/v1/validate", json=deck).json()
        assert verdict["banlist"]["id"] == "ocg-2027-01-01"
        assert [(v["code"], [c["passcode"] for c in v["cards"]]) for v in verdict["violations"]] == [
            ("forbidden_card", [DARK_MAGICIAN])
        ]
        assert served["newest_lists"][0]["id"] == "ocg-2027-01-01"

        status = _deckcheck("data", "status", "--json", "--date", "2027-01-15")
        assert status.returncode == 0, status.stderr
        said = json.loads(status.stdout)
        assert (said["updates_dir"], said["data_version"]) == (str(folder), served["data_version"])
        assert said["newest_lists"][0]["id"] == "ocg-2027-01-01"
        assert said["newest_lists"][0]["may_be_outdated"] is False
        assert said["lists_in_force"][0] == {
            "format": "ocg",
            "id": "ocg-2027-01-01",
            "name": "OCG 2027.01",
            "effective_from": "2027-01-01",
            "may_be_outdated": False,
        }
        desk = _desk_header(tmp_path, server.url, served["data_version"])
        assert desk.summary == "2027-01-15 · OCG · In force: OCG 2027.01 (from 2027-01-01)"
        assert desk.data.startswith("Newest list held: OCG 2027.01 (from 2027-01-01)")
        assert "warn-outdated" not in desk.warnings


def _desk_header(tmp_path: Path, url: str, version: str) -> Header:
    """What the desk's header says of the data, in English, for an event on 2027-01-15, once it names `version`."""
    from tests.test_desk_currency import Page  # noqa: PLC0415 - importing it skips where Chromium is missing

    driver = browser.start(tmp_path / "chromium", [browser.ONLY_LOOPBACK], logs=True)
    try:
        return Page(driver, url, version).open("en", "2027-01-15")
    finally:
        driver.quit()


def test_a_change_no_service_watches_says_so(tmp_path: Path, new_list: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DECKCHECK_UPDATES_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    added = _deckcheck("data", "add-list", f"{new_list}#2027.01", "--format", "ocg", "--from", "2027-01-01")
    folder = tmp_path / "data" / "deckcheck" / "updates"
    assert added.returncode == 0, added.stderr
    assert added.stdout.splitlines()[-1] == (
        f"no service on this machine watches {folder}: `deckcheck serve` reads it when DECKCHECK_UPDATES_DIR names "
        "it, or when nothing is set and it is the default folder"
    )
    assert (folder / "banlists" / "ocg" / "2027-01-01.json").is_file()


def test_a_change_a_service_that_never_looks_must_be_told_of_is_said_at_once(
    tmp_path: Path, new_list: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = tmp_path / "updates"
    folder.mkdir()
    env = {"DECKCHECK_UPDATES_DIR": str(folder), "DECKCHECK_UPDATES_POLL": "0"}
    with serving(tmp_path / "serve.log", env) as server:
        argv = ["data", "add-list", f"{new_list}#2027.01", "--format", "ocg", "--from", "2027-01-01"]
        added = _deckcheck(*argv, "--dir", str(folder), "--wait", "60")
        assert added.returncode == 0, added.stderr
        # Said at once, not after the 60 s wait that would end in "has not taken it within 60 s".
        assert added.stdout.splitlines()[-1] == (
            f"pid {server.process.pid} does not look at the folder (DECKCHECK_UPDATES_POLL=0): it serves the change "
            "after `deckcheck data reload` or SIGHUP"
        )
        reloaded = _deckcheck("data", "reload", "--dir", str(folder))
        assert reloaded.stdout.startswith(f"pid {server.process.pid} loaded the data again: data version ")
        assert httpx.get(f"{server.url}/v1/banlists/ocg-2027-01-01", timeout=30).status_code == 200


def test_reload_signals_the_services_watching_the_folder_and_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    watching_ours = {"DECKCHECK_UPDATES_DIR": str(ours), "DECKCHECK_UPDATES_POLL": "0"}
    watching_theirs = {"DECKCHECK_UPDATES_DIR": str(theirs), "DECKCHECK_UPDATES_POLL": "0"}
    with serving(tmp_path / "ours.log", watching_ours) as one, serving(tmp_path / "theirs.log", watching_theirs) as two:
        reloaded = _deckcheck("data", "reload", "--dir", str(ours))
        assert reloaded.returncode == 0, reloaded.stderr
        assert reloaded.stdout.startswith(f"pid {one.process.pid} loaded the data again: data version ")
        reloads = [line for line in one.log_lines() if '"data_reload"' in line]
        assert [json.loads(line)["cause"] for line in reloads] == ["SIGHUP"]
        assert not [line for line in two.log_lines() if '"data_reload"' in line]
