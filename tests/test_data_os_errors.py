"""`deckcheck data` where the system says no, and on names and days at the edges: an updates folder that cannot be
written (read-only, full, a folder where a file must go) ends the command with one line naming the folder and the
system's reason, exit 2, the folder as it was; a day outside the game's years is a usage error; a file or folder
whose name is not UTF-8 is read, written, recorded and printed, its bytes escaped where text cannot hold them."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cli import run

PREMATURE_BURIAL = 70828912
EXIT_ERROR = 2
LIST = json.dumps({"forbidden": [PREMATURE_BURIAL]})
CARDS = (
    "passcode,alias,official,name_ja,name_en,kind,extra_deck_type,pendulum,ocg,tcg,ja_first_print,"
    "ja_first_print_exact,tcg_first_print,tcg_first_print_exact\n"
    "100000001,0,0,,Test Card of the Updates,spell,none,0,1,0,2026-11-01,1,,0\n"
)
COMMANDS = {
    "add-list": ("add-list", "--format", "ocg", "--from", "2026-11-15", "{list}"),
    "add-cards": ("add-cards", "{cards}"),
    "remove": ("remove", "ocg-2026-10-20"),
}


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _deckcheck(*argv: str | bytes, **env: str) -> subprocess.CompletedProcess[bytes]:
    """The command as a user runs it, its output bytes; standard output strict UTF-8 (as in a UTF-8 locale)."""
    command = [sys.executable, "-m", "deckcheck", *argv]
    environment = os.environ | {"PYTHONIOENCODING": "utf-8"} | env
    return subprocess.run(command, check=False, env=environment, capture_output=True, timeout=300)


def _tree(folder: Path) -> dict[str, bytes | str]:
    """Every file and link of `folder` but the writers' lock, with its bytes or target."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[name] = os.readlink(path)
        elif path.is_file() and name != ".deckcheck/lock":
            found[name] = path.read_bytes()
    return found


@pytest.fixture
def sources(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "emergency.json").write_text(LIST, encoding="utf-8")
    (tmp_path / "cards.csv").write_text(CARDS, encoding="utf-8")
    return {"list": str(tmp_path / "emergency.json"), "cards": str(tmp_path / "cards.csv")}


@pytest.fixture
def updates(tmp_path: Path, sources: dict[str, str]) -> Path:
    """An updates folder holding a list from 2026-10-20, which `remove` takes out."""
    folder = tmp_path / "updates"
    argv = ["add-list", "--dir", str(folder), "--format", "ocg", "--from", "2026-10-20", sources["list"]]
    code, _, err = _run("data", *argv, "--wait", "0")
    assert code == 0, err
    return folder


def _argv(command: str, folder: Path, sources: dict[str, str]) -> list[str]:
    return ["data", *(word.format(**sources) for word in COMMANDS[command]), "--dir", str(folder), "--wait", "0"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_lock_that_cannot_be_taken_ends_in_one_line(
    command: str, updates: Path, sources: dict[str, str], tmp_path: Path
) -> None:
    """As root too: where the lock file must be, a folder (no permission bit stops root; this does)."""
    (updates / ".deckcheck" / "lock").unlink()
    (updates / ".deckcheck" / "lock").mkdir()
    before = _tree(updates)
    done = _deckcheck(*_argv(command, updates, sources))
    lock = updates / ".deckcheck" / "lock"
    said = f"deckcheck: {updates}: could not be changed: Is a directory ({lock}); it holds what it held\n"
    assert (done.returncode, done.stdout, done.stderr.decode()) == (EXIT_ERROR, b"", said)
    assert _tree(updates) == before


def test_a_switch_refused_leaves_neither_staging_nor_snapshot(tmp_path: Path, sources: dict[str, str]) -> None:
    """A folder written by hand, with a folder of its own named `current`: the new snapshot is made and checked,
    and then it cannot be put in force."""
    folder = tmp_path / "by-hand"
    (folder / "current").mkdir(parents=True)
    (folder / "current" / "notes.txt").write_text("the operator's", encoding="utf-8")
    before = _tree(folder)
    preview = _deckcheck(*_argv("add-list", folder, sources), "--dry-run")
    done = _deckcheck(*_argv("add-list", folder, sources))
    said = f"deckcheck: {folder}: could not be changed: Is a directory ({folder / '.current-'}"
    assert done.returncode == EXIT_ERROR
    assert done.stderr.decode().startswith(said), done.stderr
    assert re.fullmatch(r"\d+\); it holds what it held\n", done.stderr.decode()[len(said) :])
    assert done.stdout == preview.stdout.removesuffix(b"dry run: nothing written\n")
    assert _tree(folder) == before
    assert sorted(path.name for path in (folder / ".deckcheck").iterdir()) == ["lock", "snapshots"]
    assert list((folder / ".deckcheck" / "snapshots").iterdir()) == []


def _refusing(real: Callable[..., Any], error: int, under: Path) -> Callable[..., Any]:
    """`real`, but raising OSError `error` for a path under `under` (or a descriptor, when `under` is the root)."""

    def refuse(target: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(target, int) or Path(target).is_relative_to(under):
            raise OSError(error, os.strerror(error), None if isinstance(target, int) else str(target))
        return real(target, *args, **kwargs)

    return refuse


@pytest.mark.parametrize("command", COMMANDS)
def test_a_full_disk_ends_in_one_line(
    command: str, updates: Path, sources: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENOSPC where a file is written through to the disk, the last write before the switch."""
    before = _tree(updates)
    preview = _run(*_argv(command, updates, sources), "--dry-run")[1] if command != "remove" else ""
    monkeypatch.setattr(os, "fsync", _refusing(os.fsync, errno.ENOSPC, Path("/")))
    code, out, err = _run(*_argv(command, updates, sources))
    monkeypatch.undo()
    said = f"deckcheck: {updates}: could not be changed: No space left on device; it holds what it held\n"
    assert (code, out, err) == (EXIT_ERROR, preview.removesuffix("dry run: nothing written\n"), said)
    assert _tree(updates) == before
    assert [path.name for path in (updates / ".deckcheck").iterdir() if path.name.startswith("staging-")] == []


def test_a_read_only_folder_ends_in_one_line(
    updates: Path, sources: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """EROFS where the new list's file is written in the staging copy."""
    before = _tree(updates)
    monkeypatch.setattr(Path, "write_bytes", _refusing(Path.write_bytes, errno.EROFS, updates))
    code, _, err = _run(*_argv("add-list", updates, sources))
    monkeypatch.undo()
    found = re.fullmatch(
        rf"deckcheck: {re.escape(str(updates))}: could not be changed: Read-only file system "
        rf"\({re.escape(str(updates))}/\.deckcheck/staging-\w+/banlists/ocg/2026-11-15\.json\.tmp\); it holds what it "
        r"held\n",
        err,
    )
    assert (code, found is not None) == (EXIT_ERROR, True), err
    assert _tree(updates) == before


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("add-list", "--format", "ocg", "--from", "0001-01-01", "x.json"), "argument --from: {} '0001-01-01'"),
        (("add-list", "--format", "ocg", "--from", "9999-12-31", "x.json"), "argument --from: {} '9999-12-31'"),
        (("add-cards", "--ocg-date", "1998-12-31", "x.cdb"), "argument --ocg-date: {} '1998-12-31'"),
        (("add-cards", "--tcg-date", "3000-01-01", "x.cdb"), "argument --tcg-date: {} '3000-01-01'"),
    ],
)
def test_a_day_outside_the_games_years_is_a_usage_error(argv: tuple[str, ...], said: str) -> None:
    code, out, err = _run("data", *argv)
    prog = f"deckcheck data {argv[0]}"
    assert (code, out, err) == (EXIT_ERROR, "", f"{prog}: {said.format('not a day from 1999-01-01 to 2999-12-31:')}\n")


def test_names_that_are_not_utf8_are_read_recorded_and_printed_escaped(tmp_path: Path) -> None:
    base = os.fsencode(tmp_path)
    source, folder = base + b"/\xff.json", base + b"/\xfeupdates"
    Path(os.fsdecode(source)).write_text(LIST, encoding="utf-8")
    shown = f"{tmp_path}/\\xfeupdates"
    added = _deckcheck("data", "add-list", "--format", "ocg", "--from", "2026-11-15", source, "--dir", folder)
    assert (added.returncode, added.stderr) == (0, b"")
    assert added.stdout.decode().splitlines()[-2:] == [
        f"{shown}: wrote banlists/ocg/2026-11-15.json",
        f"no service on this machine watches {shown}: `deckcheck serve` reads it when DECKCHECK_UPDATES_DIR names it, "
        "or when nothing is set and it is the default folder",
    ]
    record = json.loads((Path(os.fsdecode(folder)) / "provenance" / "imports.ndjson").read_bytes())
    assert (record["source"], record["command"][-3:]) == ("\\xff.json", [f"{tmp_path}/\\xff.json", "--dir", shown])
    status = _deckcheck("data", "status", "--json", "--dir", folder)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["updates_dir"] == shown
    listed = Path(os.fsdecode(folder)) / "banlists" / "ocg"
    (listed / "2026-11-15.json").rename(listed / os.fsdecode(b"\xff.json"))  # a list file named by hand
    checked = _deckcheck("data", "check", folder)
    assert (checked.returncode, checked.stderr) == (0, b"")
    assert re.fullmatch(
        rf"{re.escape(shown)}: good \(\d+ cards, \d+ lists with the data beneath\)\n", checked.stdout.decode()
    )
    removed = _deckcheck("data", "remove", b"\xff", "--dir", folder, "--wait", "0")
    assert (removed.returncode, removed.stdout) == (EXIT_ERROR, b"")
    assert removed.stderr.decode() == f"deckcheck: \\xff: {shown} holds no list or card \\xff\n"
