"""The deckcheck command, run in-process through run(argv, stdout, stderr)."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest

from bench.corpus import Corpus
from deckcheck import Data
from deckcheck.cli import run
from tests.cases import MAIN_40


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    """A folder with a legal .ydk, an illegal JSON deck and a text list."""
    folder = tmp_path / "decks"
    folder.mkdir()
    ydk = ["#created by a deck builder", "#main"]
    for entry in MAIN_40:
        ydk += [str(entry["passcode"])] * entry.get("count", 1)
    (folder / "legal.ydk").write_text("\n".join([*ydk, "#extra", "44508094", "!side", ""]), encoding="utf-8")
    illegal = {"main": [*MAIN_40[:12], {"passcode": 28553439, "count": 2}, MAIN_40[13], {"passcode": 55144522}]}
    (folder / "illegal.json").write_text(orjson.dumps(illegal).decode(), encoding="utf-8")
    (folder / "short.txt").write_text("メインデッキ\n3 ブラック・マジシャン\n", encoding="utf-8")
    return folder


def test_validate_legal_deck(decks: Path) -> None:
    code, out, err = _run("validate", str(decks / "legal.ydk"), "--date", "2008-06-01")
    assert (code, err) == (0, "")
    assert out == f"{decks / 'legal.ydk'}: legal (OCG 2008.03, 2008-06-01; main 40, extra 1, side 0)\n"


def test_validate_illegal_deck_in_japanese(decks: Path) -> None:
    code, out, _err = _run("validate", str(decks / "illegal.json"), "--date", "2008-06-01", "--lang", "ja")
    assert code == 1
    assert out.splitlines() == [
        f"{decks / 'illegal.json'}: 使用不可 — duel_forfeiture (OCG 2008.03, 2008-06-01; main 40, extra 0, side 0)",
        "  ✗ forbidden_card [TR 3 / PR 3.A.3] main #15",
        "    「強欲な壺」はOCG 2008.03で禁止カードです。",
        "    → 違反しているカードを抜き、適切なカードと入れ替えてください。",
    ]


def test_validate_json_for_machines(decks: Path) -> None:
    code, out, _err = _run(
        "validate", "--json", "--date", "2008-06-01", str(decks / "legal.ydk"), str(decks / "short.txt")
    )
    assert code == 1
    results = orjson.loads(out)
    assert [(r["file"], r["legal"]) for r in results] == [
        (str(decks / "legal.ydk"), True),
        (str(decks / "short.txt"), False),
    ]
    assert [v["code"] for v in results[1]["violations"]] == ["main_deck_too_small"]
    assert results[1]["violations"][0]["lines"] == []


def test_validate_ydke_link_and_list_override() -> None:
    code, out, _err = _run("validate", "ydke://!!!", "--banlist", "ocg-2008-09-01", "--date", "2008-06-01")
    assert code == 1
    assert "OCG 2008.09" in out.splitlines()[0]


def test_validate_input_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.ydk").write_text("#main\n46986414\nPot of Greed\n", encoding="utf-8")
    (tmp_path / "bad.json").write_text("{nope", encoding="utf-8")
    code, _out, err = _run(
        "validate", str(tmp_path / "bad.ydk"), str(tmp_path / "bad.json"), str(tmp_path / "none.ydk")
    )
    assert code == 2
    lines = err.splitlines()
    assert lines[0] == f"deckcheck: {tmp_path / 'bad.ydk'}: line 3: ydk: 'Pot of Greed' is not a passcode"
    assert lines[1].startswith(f"deckcheck: {tmp_path / 'bad.json'}: ")
    assert lines[2].startswith(f"deckcheck: {tmp_path / 'none.ydk'}: [Errno 2]")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["validate"],
        ["frobnicate"],
        ["validate", "x.ydk", "--date", "2008-13-01"],
        ["recheck", "x", "--workers", "0"],
    ],
)
def test_usage_errors(argv: list[str]) -> None:
    code, _out, err = _run(*argv)
    assert code == 2
    assert err.startswith("deckcheck")


def test_help_exits_cleanly() -> None:
    assert _run("--help")[0] == 0


@pytest.mark.parametrize("command", ["validate", "recheck", "serve"])
def test_settings_that_cannot_work_are_a_usage_error(
    command: str, decks: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_DATA_DIR", str(tmp_path / "nowhere"))
    code, out, err = _run(command, *([] if command == "serve" else [str(decks / "legal.ydk")]))
    assert (code, out) == (2, "")
    assert err == f"deckcheck: DECKCHECK_DATA_DIR={tmp_path / 'nowhere'}: not a folder holding cards/ and banlists/\n"


@pytest.mark.parametrize("command", ["validate", "recheck", "serve"])
def test_broken_data_are_a_usage_error(
    command: str, decks: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "banlists").mkdir()
    (tmp_path / "cards" / "cards.csv").write_text("passcode\n", encoding="utf-8")
    monkeypatch.setenv("DECKCHECK_DATA_DIR", str(tmp_path))
    code, out, err = _run(command, *([] if command == "serve" else [str(decks / "legal.ydk")]))
    assert (code, out) == (2, "")
    assert err.startswith(f"deckcheck: {tmp_path / 'cards' / 'cards.csv'}: header: expected columns passcode,alias,")
    assert err.endswith("tcg_first_print,tcg_first_print_exact\n")
    assert err.count("\n") == 1


@pytest.fixture
def ndjson(tmp_path: Path, data: Data) -> Path:
    """300 corpus decks and one corrupt line."""
    path = tmp_path / "stored.ndjson"
    lines = [deck.line() for deck in Corpus(data, seed=3).decks(300)]
    lines.insert(150, b"{corrupt")
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_recheck_files_and_folders(decks: Path, ndjson: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "results.ndjson"
    argv = ["recheck", "--date", "2008-09-01", "--previous", "ocg-2008-03-01", "--out", str(out_file)]
    code, out, err = _run(*argv, str(ndjson), str(decks))
    assert code == 2  # one corrupt line
    assert out == ""
    results = [orjson.loads(line) for line in out_file.read_bytes().splitlines()]
    *lines, closing = results
    assert [r["line"] for r in lines] == list(range(1, 305))
    assert [r["id"] for r in lines[-3:]] == [str(decks / name) for name in ("illegal.json", "legal.ydk", "short.txt")]
    assert lines[150]["error"]["errors"][0]["type"] == "json_invalid"
    assert closing["summary"]["lines"] == 304
    assert closing["summary"]["errors"] == 1
    assert "recheck against OCG 2008.09 on 2008-09-01" in err
    assert f"  decks{'304':>35}" in err


def test_recheck_workers_give_the_same_output(ndjson: Path, tmp_path: Path) -> None:
    outputs = []
    for workers in ("1", "2"):
        target = tmp_path / f"out-{workers}.ndjson"
        argv = ["recheck", "--date", "2008-09-01", "--previous", "ocg-2008-03-01", "--workers", workers]
        code, _out, _err = _run(*argv, "--out", str(target), str(ndjson))
        assert code == 2
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1]


def test_recheck_to_stdout_with_progress(ndjson: Path) -> None:
    code, out, err = _run("recheck", "--date", "2008-06-01", "--progress", str(ndjson))
    assert code == 2
    assert len(out.splitlines()) == 302
    assert "\rrechecked 301 decks" in err


def test_recheck_refuses_unknown_lists_and_paths(ndjson: Path) -> None:
    assert _run("recheck", "--banlist", "ocg-1900-01-01", str(ndjson))[0] == 2
    assert _run("recheck", "--date", "2008-06-01", "/nonexistent/decks")[0] == 2
