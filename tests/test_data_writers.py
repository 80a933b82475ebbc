"""`deckcheck data` as a transaction (issue 36): one writer at a time, a change and its record made visible in one
step whatever kills the command, sources read as regular files only, and imports that never overwrite one another
or take over how an existing name reads. Commands that race one another, hold the lock or are killed run as processes
of their own, as an operator runs them; the others run the same command line in this process (`deckcheck.cli.run`)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cli import run
from deckcheck.data import DataSource
from deckcheck.data.folder import STATE, live

ROOT = Path(__file__).resolve().parent.parent
POT_OF_GREED = 55144522
HEADER = (ROOT / "cards" / "cards.csv").read_text(encoding="utf-8").splitlines()[0] + ",provisional,replaces"


def _card(passcode: int, name: str, alias: int = 0) -> str:
    return f"{passcode},{alias},1,,{name},spell,none,0,1,1,2027-01-10,1,2027-01-10,1,0,0"


def _csv(path: Path, *rows: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of a command given an empty updates folder: the one a process is started with, and this
    process's own, for the commands run in it (`_cli`)."""
    folder = tmp_path / "updates"
    folder.mkdir()
    monkeypatch.setenv("DECKCHECK_UPDATES_DIR", str(folder))
    return {**os.environ, "DECKCHECK_UPDATES_DIR": str(folder)}


def _argv(*argv: str) -> list[str]:
    waits = ("--wait", "0") if argv[0] in ("add-list", "add-cards", "remove") else ()  # no service to wait for
    return ["data", *argv, *waits]


def _start(env: dict[str, str], *argv: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "deckcheck", *_argv(*argv)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _run(env: dict[str, str], *argv: str) -> tuple[int, str, str]:
    process = _start(env, *argv)
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


def _cli(*argv: str) -> tuple[int, str, str]:
    """The command run in this process, with the environment `env` gave it."""
    out, err = io.StringIO(), io.StringIO()
    code = run(_argv(*argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _folder(env: dict[str, str]) -> Path:
    return Path(env["DECKCHECK_UPDATES_DIR"])


def _records(folder: Path) -> list[dict[str, Any]]:
    path = live(folder) / "provenance" / "imports.ndjson"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.is_file() else []


def _list(tmp_path: Path, *forbidden: int) -> Path:
    path = tmp_path / f"list-{'-'.join(map(str, forbidden))}.json"
    path.write_text(json.dumps({"forbidden": list(forbidden)}), encoding="utf-8")
    return path


@pytest.mark.slow
def test_two_writers_of_one_list_at_once_one_adds_it_the_other_is_told(env: dict[str, str], tmp_path: Path) -> None:
    given = _list(tmp_path, POT_OF_GREED)
    argv = ("add-list", "--format", "ocg", "--from", "2027-04-01", str(given))
    first, second = _start(env, *argv), _start(env, *argv)
    outcomes = []
    for process in (first, second):
        _out, err = process.communicate(timeout=120)
        outcomes.append((process.returncode, err))
    outcomes.sort()
    folder = _folder(env)
    already = f"deckcheck: banlists/ocg/2027-04-01.json: {folder} holds this list already; to replace it, say so"
    assert [code for code, _err in outcomes] == [0, 2]
    assert outcomes[1][1].startswith(already)
    assert [record["action"] for record in _records(folder)] == ["add-list"]


@pytest.mark.slow
def test_two_card_imports_at_once_both_land_and_the_folder_loads(env: dict[str, str], tmp_path: Path) -> None:
    one = _csv(tmp_path / "a" / "cards.csv", _card(990000001, "Writer Probe One"))
    two = _csv(tmp_path / "b" / "cards.csv", _card(990000002, "Writer Probe Two"))
    started = [_start(env, "add-cards", str(one)), _start(env, "add-cards", str(two))]
    assert [(p.communicate(timeout=120)[1], p.returncode) for p in started] == [("", 0), ("", 0)]
    folder = _folder(env)
    data = DataSource(updates=folder).load()
    assert {990000001, 990000002} <= data.cards.by_passcode.keys()
    digests = sorted(hashlib.sha256(path.read_bytes()).hexdigest()[:12] for path in (one, two))
    assert sorted(path.name for path in (folder / "cards").glob("*.csv")) == [f"cards-{d}.csv" for d in digests]
    assert [record["action"] for record in _records(folder)] == ["add-cards", "add-cards"]


@pytest.mark.slow
def test_a_card_of_an_earlier_import_is_taken_only_when_told(env: dict[str, str], tmp_path: Path) -> None:
    one = _csv(tmp_path / "set1" / "cards.csv", _card(990000011, "Writer Probe Eleven"))
    two = _csv(tmp_path / "set2" / "cards.csv", _card(990000011, "Writer Probe Eleven Again"))
    assert _cli("add-cards", str(one))[0] == 0
    first = f"cards/cards-{hashlib.sha256(one.read_bytes()).hexdigest()[:12]}.csv"
    code, out, err = _cli("add-cards", str(two))
    told = f"card 990000011 is a card of {first} already, from an earlier import; to take it from this file, say so"
    assert (code, out, err) == (2, "", f"deckcheck: cards.csv: {told} (--replace)\n")
    assert DataSource(updates=_folder(env)).load().cards.by_passcode[990000011].name_en == "Writer Probe Eleven"
    assert _cli("add-cards", str(two), "--replace")[0] == 0
    data = DataSource(updates=_folder(env)).load()
    assert data.cards.by_passcode[990000011].name_en == "Writer Probe Eleven Again"
    assert not (_folder(env) / first).exists()  # it held that card alone


@pytest.mark.slow
def test_a_name_that_reads_as_a_bundled_card_is_refused(env: dict[str, str], tmp_path: Path) -> None:
    given = _csv(tmp_path / "greedy.csv", _card(990000021, "Pot of Greed!"), _card(990000022, "Pot Of  Greed"))
    code, out, err = _cli("add-cards", str(given))
    clash = "is the name of card 55144522 (Pot of Greed) beneath, written {}; "
    clash += "a name may not change which card it reads as"
    assert (code, out) == (2, "")
    assert err == (
        f"deckcheck: greedy.csv: card 990000021: its name 'Pot of Greed!' {clash.format('loosely')}; "
        f"card 990000022: its name 'Pot Of  Greed' {clash.format('alike')}\n"
    )
    assert _records(_folder(env)) == []
    data = DataSource(updates=_folder(env)).load()
    assert data.cards.read_name("Pot of Greed!") == (data.cards.by_passcode[POT_OF_GREED], "Pot of Greed")
    alternate = _csv(tmp_path / "alt.csv", _card(990000023, "Pot of Greed", alias=POT_OF_GREED))
    assert _cli("add-cards", str(alternate))[0] == 0  # an alternate artwork shares its card's name


def test_an_error_found_when_the_data_load_names_the_source_not_a_copy(env: dict[str, str], tmp_path: Path) -> None:
    given = _csv(tmp_path / "stray.csv", _card(990000031, "Writer Probe Stray Alternate", alias=990009999))
    code, _out, err = _cli("add-cards", str(given))
    written = _folder(env) / "cards" / f"stray-{hashlib.sha256(given.read_bytes()).hexdigest()[:12]}.csv"
    assert (code, err) == (2, f"deckcheck: stray.csv (as {written}): line 2: alias 990009999 is not a canonical card\n")


def test_a_fifo_as_a_source_is_refused_at_once(env: dict[str, str], tmp_path: Path) -> None:
    fifo = tmp_path / "list.json"
    os.mkfifo(fifo)
    code, out, err = _run(env, "add-list", "--format", "ocg", "--from", "2027-04-01", str(fifo))
    refused = "list.json: is not a regular file (a pipe, device or folder is never read as data)"
    assert (code, out, err) == (2, "", f"deckcheck: {refused}\n")


@pytest.mark.slow
def test_a_second_writer_waits_then_names_the_holder(env: dict[str, str], tmp_path: Path) -> None:
    folder = _folder(env)
    holding = (
        "import sys, time; from pathlib import Path; from deckcheck.data.folder import writing\n"
        "with writing(Path(sys.argv[1]), 0, ['add-cards', 'big.cdb']):\n"
        "    print('held', flush=True); time.sleep(60)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", holding, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"
        given = _list(tmp_path, POT_OF_GREED)
        code, _out, err = _run(
            env, "add-list", "--format", "ocg", "--from", "2027-04-01", str(given), "--lock-wait", "1"
        )
    finally:
        holder.kill()
        holder.communicate()
    held = rf"pid {holder.pid} \(deckcheck data add-cards big\.cdb\) since \d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
    told = rf"deckcheck: {re.escape(str(folder))}: another command is changing it, {held}; waited 1 s \(--lock-wait\)\n"
    assert code == 2
    assert re.fullmatch(told, err), err
    assert _records(folder) == []
    assert _cli("add-list", "--format", "ocg", "--from", "2027-04-01", str(given), "--lock-wait", "1")[0] == 0


@pytest.mark.slow
def test_a_command_killed_at_any_moment_leaves_the_folder_before_or_after(env: dict[str, str], tmp_path: Path) -> None:
    folder = _folder(env)
    for attempt, delay in enumerate((0.3, 0.8, 1.2, 1.6, 2.0, 2.4, 2.8, 3.5)):
        day = f"2027-{attempt + 1:02d}-01"
        process = _start(env, "add-list", "--format", "ocg", "--from", day, str(_list(tmp_path, POT_OF_GREED)))
        try:
            process.wait(timeout=delay)  # one that is done by then is done: a kill would find nothing to stop
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
        process.communicate()
        listed = (live(folder) / "banlists" / "ocg" / f"{day}.json").is_file()
        recorded = any(f"banlists/ocg/{day}.json" in record.get("files", []) for record in _records(folder))
        assert listed == recorded, f"killed after {delay} s: the list {'without' if listed else 'with'} its record"
        assert _cli("check", str(folder))[0] == 0
    assert _cli("status")[0] == 0


@pytest.mark.slow
def test_a_command_killed_the_moment_its_list_shows_leaves_the_record_with_it(
    env: dict[str, str], tmp_path: Path
) -> None:
    folder = _folder(env)
    for attempt in range(3):
        day = f"2027-{attempt + 1:02d}-01"
        shown = folder / "banlists" / "ocg" / f"{day}.json"  # through the folder's own path, as a person looks
        process = _start(env, "add-list", "--format", "ocg", "--from", day, str(_list(tmp_path, POT_OF_GREED)))
        # Nothing shows before the writer stages its change (data/folder.py): until then the command starts, reads
        # its source and loads the data, and a loop spinning here would take the CPU it needs for that.
        while not any((folder / STATE).glob("staging-*")) and process.poll() is None:
            time.sleep(0.002)
        assert process.poll() is None, "the command ended before its change was seen staged"
        while not shown.exists() and process.poll() is None:
            pass  # no sleep: the kill lands within microseconds of the list showing
        process.send_signal(signal.SIGKILL)
        process.communicate()
        recorded = any(f"banlists/ocg/{day}.json" in record.get("files", []) for record in _records(folder))
        assert (shown.exists(), recorded) == (True, True)


def test_a_folder_from_before_snapshots_is_carried_into_the_first(env: dict[str, str], tmp_path: Path) -> None:
    folder = _folder(env)
    (folder / "banlists" / "ocg").mkdir(parents=True)
    body: dict[str, object] = {
        "name": "By hand",
        "format": "OCG",
        "effective_from": "2027-02-01",
        "effective_until": None,
    }
    body |= {"forbidden": [POT_OF_GREED], "limited": [], "semi_limited": []}
    (folder / "banlists" / "ocg" / "2027-02-01.json").write_text(json.dumps(body), encoding="utf-8")
    before = DataSource(updates=folder).load()
    assert _cli("add-list", "--format", "ocg", "--from", "2027-04-01", str(_list(tmp_path, POT_OF_GREED)))[0] == 0
    after = DataSource(updates=folder).load()
    assert after.banlists.by_id.keys() - before.banlists.by_id.keys() == {"ocg-2027-04-01"}
    assert sorted(os.readlink(folder / entry) for entry in ("banlists", "cards", "provenance")) == [
        "current/banlists",
        "current/cards",
        "current/provenance",
    ]
    assert (folder / "banlists" / "ocg" / "2027-02-01.json").is_file()


@pytest.mark.slow
def test_names_and_records_are_bounded_and_printed_escaped(env: dict[str, str], tmp_path: Path) -> None:
    given = tmp_path / "a\x1b[31mred.json"
    given.write_text(json.dumps({"forbidden": [POT_OF_GREED]}), encoding="utf-8")
    argv = ("add-list", "--format", "ocg", "--from", "2027-04-01", str(given))
    code, out, err = _cli(*argv, "--name", "x\x1b[2J")
    assert (code, out, err) == (2, "", "deckcheck: --name: a list's name may not hold the control character \\x1b\n")
    code, _out, err = _cli(*argv, "--name", "n" * 101)
    assert (code, err) == (2, "deckcheck: --name: a list's name must be 1 to 100 characters, not 101\n")
    assert _cli(*argv)[0] == 0
    code, out, _err = _cli("status")
    assert code == 0
    assert "\x1b" not in out
    assert out.rstrip().splitlines()[-1].startswith("update ")
    assert "add-list a\\x1b[31mred.json (sha256 " in out
