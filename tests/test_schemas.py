"""Every data file read through its schema and held to its bounds (data/schemas.py), as an operator meets it: a key
misspelled, a file nested a hundred thousand deep, a byte that is not UTF-8, a pipe where a file should be, or a
file past a bound is refused by `deckcheck data check`, by every import and by a running service's reload, naming
the file, the entry and the key, and never as a traceback."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from unittest import mock

import httpx
import orjson
import pytest

from deckcheck.cli import run
from deckcheck.data.cdb import read_cdb
from deckcheck.errors import SourceError
from tests import served

ROOT = Path(__file__).resolve().parent.parent
HEADER = (ROOT / "cards" / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
COLUMNS = f"{HEADER} (then provisional,replaces in an updates folder)"
LIST_KEYS = "name, format, effective_from, effective_until, forbidden, limited, semi_limited, replaces"
RECORD_KEYS = "time, action, command, source, sha256, files, removed"
RECORD = {"time": "2027-01-02T03:04:05Z", "action": "remove", "command": ["deckcheck", "data", "remove", "1"]}
POT_OF_GREED = 55144522
# The bounds docs/operators/data.md quotes (data/schemas.py), as figures: cards of one import or folder, lists of
# one folder.
MAX_CARDS, MAX_LISTS, MAX_CDB_BYTES = 50_000, 1_000, 64 * 1024 * 1024
A_LIST = {"name": "OCG 2027.01", "format": "OCG", "effective_from": "2027-01-01", "effective_until": None}
STATUSES = {"forbidden": [POT_OF_GREED], "limited": [], "semi_limited": []}


def _deckcheck(*argv: str, **env: str) -> tuple[int, str, str]:
    """`deckcheck ARGV` as an operator runs it, over the bundled data unless `env` says otherwise: the command line's
    own run(), in this process (anything it wrote to the process's standard streams instead, such as a traceback or
    a log line, fails the test: `_nothing_else_written`)."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.dict(os.environ, env):
        code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _nothing_else_written(capfd: pytest.CaptureFixture[str]) -> Iterator[None]:
    """The refusals are each command's own lines: nothing else reaches the process's standard output or error."""
    yield
    assert capfd.readouterr() == ("", "")


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def _list_file(folder: Path, day: str, body: object) -> Path:
    return _write(folder / "banlists" / "ocg" / f"{day}.json", json.dumps(body))


def _card_rows(count: int, name: str = "Schema Probe Card {n}", first: int = 910_000_000) -> str:
    """`count` new cards in an updates folder's card columns, passcodes and names no bundled card has."""
    rows = [f"{first + n},0,1,,{name.format(n=first + n)},spell,none,0,1,0,2027-01-10,1,,0,0,0" for n in range(count)]
    return "\n".join([f"{HEADER},provisional,replaces", *rows]) + "\n"


def _refused(folder: Path, file: Path, entry: str, problem: str) -> None:
    """`deckcheck data check FOLDER` refuses it with one line naming `file`, `entry` and `problem`."""
    assert _deckcheck("data", "check", str(folder)) == (2, "", f"deckcheck: {file}: {entry}: {problem}\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({**A_LIST, "forbidden": [POT_OF_GREED], "limited": [], "semi-limited": []}, "semi-limited"),
        ({**A_LIST, **STATUSES, "efective_until": "2027-04-01"}, "efective_until"),
    ],
)
def test_a_list_file_with_a_key_misspelled_is_refused(tmp_path: Path, body: dict[str, object], key: str) -> None:
    path = _list_file(tmp_path, "2027-01-01", body)
    _refused(tmp_path, path, key, f"is not a key of this file; its keys are {LIST_KEYS}")


def test_a_list_name_with_an_escape_sequence_is_refused(tmp_path: Path) -> None:
    path = _list_file(tmp_path, "2027-01-01", {**A_LIST, **STATUSES, "name": "\x1b[2J\x1b[31mOCG"})
    _refused(tmp_path, path, "name", "a list's name may not hold the control character \\x1b")


def test_an_imported_list_with_a_key_misspelled_is_refused(tmp_path: Path) -> None:
    given = _write(tmp_path / "list.json", json.dumps({"forbidden": [POT_OF_GREED], "semi-limited": ["Raigeki"]}))
    updates = tmp_path / "updates"
    argv = ["data", "add-list", "--dir", str(updates), "--format", "ocg", "--from", "2027-01-01", "--wait", "0"]
    code, out, err = _deckcheck(*argv, str(given))
    assert (code, out) == (2, "")
    assert err == f"deckcheck: list.json: semi-limited: is not a key of this file; its keys are {LIST_KEYS}\n"
    assert not (updates / "banlists").exists()


@pytest.mark.slow
def test_json_nested_a_hundred_thousand_deep_is_refused_naming_the_file(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    path = _write(tmp_path / "folder" / "banlists" / "ocg" / "2027-01-01.json", f'{{"forbidden": {deep}}}')
    _refused(tmp_path / "folder", path, "file", "lists and objects nest more than 8 deep")
    argv = ["data", "add-list", "--dir", str(tmp_path / "updates"), "--format", "ocg", "--from", "2027-01-01"]
    code, out, err = _deckcheck(*argv, "--wait", "0", str(_write(tmp_path / "deep.json", deep)))
    assert (code, out, err) == (2, "", "deckcheck: deep.json: lists and objects nest more than 8 deep\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("second", "problem"),
    [
        (b'{"time": "2027-01-02T03:04:05Z", "action": "remove\xff"}', "byte 0xff is not UTF-8 text"),
        (orjson.dumps({**RECORD, "colour": "red"}), f"colour: is not a key of this file; its keys are {RECORD_KEYS}"),
        (orjson.dumps({**RECORD, "sha256": "abc"}), "sha256: must be a SHA-256 in 64 lower-case hexadecimal digits"),
        (orjson.dumps({**RECORD, "command": ["deckcheck", 7]}), "command[1]: must be a string"),
        (b"[1, 2]", "must hold a JSON object"),
        (b"[" * 50_000, "lists and objects nest more than 8 deep"),
    ],
)
def test_a_broken_record_of_imports_is_named_by_line_and_key(tmp_path: Path, second: bytes, problem: str) -> None:
    path = _write(tmp_path / "provenance" / "imports.ndjson", orjson.dumps(RECORD) + b"\n" + second + b"\n")
    _refused(tmp_path, path, "line 2", problem)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("file", "text", "entry", "problem"),
    [
        (
            "cards/extra.csv",
            _card_rows(1).replace("provisional,replaces", "colour,replaces", 1),
            "header",
            f"expected columns {COLUMNS}; unknown column 'colour'",
        ),
        (
            "cards/readings.tsv",
            "written\tpasscode\tname\tkind\tsource\tnote\n",
            "header",
            "expected columns written passcode name kind source, tab-separated; unknown column 'note'",
        ),
        (
            "cards/long.csv",
            _card_rows(2, name="Probe {n}" + "x" * 200),
            "line 2",
            "name_en: longer than the 200 characters a card name may have",
        ),
        ("cards/escape.csv", _card_rows(2, name="Probe {n}\x1b[31m"), "line 2", "holds the control character \\x1b"),
        (
            "cards/latin1.csv",
            _card_rows(2).encode().replace(b"Card 910000001", b"Card \xe9"),
            "line 3",
            "byte 0xe9 is not UTF-8 text",
        ),
    ],
)
def test_a_broken_card_or_readings_file_is_named(
    tmp_path: Path, file: str, text: str | bytes, entry: str, problem: str
) -> None:
    _refused(tmp_path, _write(tmp_path / file, text), entry, problem)


def test_a_pipe_among_the_card_files_is_refused_not_waited_on(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    os.mkfifo(tmp_path / "cards" / "pipe.csv")
    # In a process of its own, so that a hang ends the test here.
    done = subprocess.run(
        [sys.executable, "-m", "deckcheck", "data", "check", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    code, out, err = done.returncode, done.stdout, done.stderr
    assert (code, out, err) == (2, "", f"deckcheck: {tmp_path / 'cards' / 'pipe.csv'}: file: is not a regular file\n")


def test_printings_of_the_data_folder_are_read_by_their_schema(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(ROOT / "cards", bundle / "cards")
    (bundle / "banlists").symlink_to(ROOT / "banlists")
    path = _write(bundle / "cards" / "printings.json", '{"complete_until": "2025-11-15", "complete_from": "1999"}')
    (tmp_path / "updates").mkdir()
    code, out, err = _deckcheck("data", "check", str(tmp_path / "updates"), DECKCHECK_DATA_DIR=str(bundle))
    assert (code, out) == (2, "")
    assert err == f"deckcheck: {path}: complete_from: is not a key of this file; its keys are complete_until\n"


def test_a_folder_of_more_cards_than_the_bound_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "cards" / "many.csv", _card_rows(MAX_CARDS + 1))
    _refused(tmp_path, path, f"line {MAX_CARDS + 2}", f"a card file may hold at most {MAX_CARDS:,} cards")
    half = MAX_CARDS // 2 + 1
    _write(tmp_path / "cards" / "many.csv", _card_rows(half))
    more = _write(tmp_path / "cards" / "more.csv", _card_rows(half, first=920_000_000))
    _refused(tmp_path, more, f"line {half}", f"a folder's card files may hold at most {MAX_CARDS:,} cards")


def test_a_folder_of_more_lists_than_the_bound_is_refused(tmp_path: Path) -> None:
    first = 2100
    for n in range(MAX_LISTS + 1):
        day = f"{first + n // 12}-{n % 12 + 1:02d}-01"
        _list_file(tmp_path, day, {**A_LIST, **STATUSES, "effective_from": day})
    code, out, err = _deckcheck("data", "check", str(tmp_path))
    folder = tmp_path / "banlists"
    assert (code, out, err) == (
        2,
        "",
        f"deckcheck: {folder}: directory: holds {MAX_LISTS + 1:,} lists, more than the {MAX_LISTS:,} allowed\n",
    )


def _cdb(path: Path, count: int) -> Path:
    """A cards.cdb of the ygopro tables (the columns read) holding `count` spells of both formats."""
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, type INTEGER)")
        conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT)")
        conn.executemany("INSERT INTO datas VALUES (?, 3, 0, 2)", ((930_000_000 + n,) for n in range(count)))
        conn.executemany("INSERT INTO texts VALUES (?, ?)", ((930_000_000 + n, f"Cdb Probe {n}") for n in range(count)))
    return path


def test_a_cdb_past_the_bounds_is_refused(tmp_path: Path) -> None:
    many = _cdb(tmp_path / "many.cdb", MAX_CARDS + 1)
    updates = tmp_path / "updates"
    argv = ["data", "add-cards", "--dir", str(updates), "--ocg-date", "2027-01-10", "--wait", "0", str(many)]
    code, out, err = _deckcheck(*argv)
    bound = f"the file holds more than the {MAX_CARDS:,} cards an import may hold: reading stopped"
    assert (code, out, err) == (2, "", f"deckcheck: many.cdb: {bound}\n")
    assert not (updates / "cards").exists()
    huge = tmp_path / "huge.cdb"
    with huge.open("wb") as file:
        file.truncate(MAX_CDB_BYTES + 1)  # sparse: no disk is used
    with pytest.raises(SourceError) as raised:
        read_cdb(huge)
    assert raised.value.problems == ["the file is 67,108,865 bytes, over the 67,108,864 (64 MiB) read"]


def test_names_are_printed_safely_and_a_list_name_is_bounded() -> None:
    from deckcheck.data.schemas import printable, valid_list_name  # noqa: PLC0415 - new: the tests above run without it

    assert printable("Pot of Greed", 20) == "Pot of Greed"
    assert (
        printable("\x1b[2J\x1b]0;owned\x07 \x9b\u202eA\u2028", 80) == "\\x1b[2J\\x1b]0;owned\\x07 \\x9b\\u202eA\\u2028"
    )
    assert printable("x" * 100_000, 10) == "x" * 9 + "…"
    assert printable("abcdefg\x1b", 10) == "abcdefg…"  # never cut within an escape
    assert valid_list_name("OCG 2027.01 (event)") == "OCG 2027.01 (event)"
    for name, problem in [
        ("x" * 100_000, "a list's name must be 1 to 100 characters, not 100,000"),
        ("", "a list's name must be 1 to 100 characters, not 0"),
        ("OCG\x1b[31m", "a list's name may not hold the control character \\x1b"),
    ]:
        with pytest.raises(SourceError) as raised:
            valid_list_name(name)
        assert (raised.value.source, raised.value.problems) == ("--name", [problem])


@pytest.mark.slow
def test_a_reload_that_meets_a_broken_file_says_so_and_keeps_its_data(tmp_path: Path) -> None:
    updates = tmp_path / "updates"
    _list_file(updates, "2027-01-01", {**A_LIST, **STATUSES})
    env = {"DECKCHECK_UPDATES_DIR": str(updates), "DECKCHECK_ACCESS_LOG": "false", "DECKCHECK_UPDATES_POLL": "0"}
    with served.serving(tmp_path / "log", env) as running:
        kept = httpx.get(f"{running.url}/healthz").json()["data_version"]
        breaks = [
            (_write(updates / "banlists" / "ocg" / "2027-04-01.json", "[" * 100_000), "file"),
            (_write(updates / "provenance" / "imports.ndjson", orjson.dumps(RECORD) + b"\n\xff\n"), "line 2"),
        ]
        for count, (path, entry) in enumerate(breaks, start=1):
            os.kill(running.process.pid, signal.SIGHUP)
            deadline = time.monotonic() + 60
            while len(failed := [orjson.loads(line) for line in running.log_lines() if '"failed"' in line]) < count:
                assert time.monotonic() < deadline, running.log_lines()[-5:]
                time.sleep(0.05)
            assert (failed[-1]["file"], failed[-1]["entry"], failed[-1]["kept"]) == (str(path), entry, kept)
            path.unlink()
        assert httpx.get(f"{running.url}/healthz").json()["data_version"] == kept
        assert 'deckcheck_data_reloads_total{outcome="failed"} 2.0' in httpx.get(f"{running.url}/metrics").text
        assert not [line for line in running.log_lines() if "Traceback" in line]
