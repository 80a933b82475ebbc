"""The deckcheck command, run in-process through run(argv, stdout, stderr), and as a process where pipes and
terminals matter."""

from __future__ import annotations

import ast
import contextlib
import io
import os
import pty
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import orjson
import pytest

from bench.corpus import Corpus
from deckcheck import Data
from deckcheck.cli import run
from deckcheck.cli.output import words
from deckcheck.cli.recheck import DoneOfTotal, Rate, RecheckProgress, TimeLeft
from deckcheck.rules import PENALTIES
from tests.cases import MAIN_40


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _cells(text: str) -> int:
    """Display width: East Asian wide and fullwidth characters take two columns."""
    return sum(1 + (unicodedata.east_asian_width(char) in "WF") for char in text)


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    """A folder with a legal .ydk, an illegal JSON deck, two short text lists and a deck its roster does not match."""
    folder = tmp_path / "decks"
    folder.mkdir()
    ydk = ["#created by a deck builder", "#main"]
    for entry in MAIN_40:
        ydk += [str(entry["passcode"])] * entry.get("count", 1)
    (folder / "legal.ydk").write_text("\n".join([*ydk, "#extra", "44508094", "!side", ""]), encoding="utf-8")
    illegal = {"main": [*MAIN_40[:12], {"passcode": 28553439, "count": 2}, MAIN_40[13], {"passcode": 55144522}]}
    (folder / "illegal.json").write_text(orjson.dumps(illegal).decode(), encoding="utf-8")
    (folder / "short.txt").write_text("メインデッキ\n3 ブラック・マジシャン\n", encoding="utf-8")
    (folder / "pot.txt").write_text("メインデッキ\n強欲な壺\n", encoding="utf-8")
    roster = {"main": MAIN_40, "roster": {"main": MAIN_40, "side": [{"passcode": 44508094}]}}
    (folder / "roster.json").write_text(orjson.dumps(roster).decode(), encoding="utf-8")
    return folder


def test_the_exit_codes_are_named_once() -> None:
    named: dict[str, list[str]] = {}
    for module in sorted((Path(__file__).resolve().parent.parent / "service" / "deckcheck" / "cli").glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        targets = [target for node in tree.body if isinstance(node, ast.Assign) for target in node.targets]
        for name in (n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)):
            if name.startswith("EXIT_"):
                named.setdefault(name, []).append(f"cli/{module.name}")
    assert named == {
        "EXIT_OK": ["cli/output.py"],
        "EXIT_ILLEGAL": ["cli/output.py"],
        "EXIT_ERROR": ["cli/output.py"],
        "EXIT_FAILED": ["cli/output.py"],
        "EXIT_UNCHECKED": ["cli/output.py"],
        "EXIT_CLOSED_PIPE": ["cli/output.py"],
    }


def test_validate_legal_deck(decks: Path) -> None:
    code, out, err = _run("validate", str(decks / "legal.ydk"), "--date", "2008-06-01")
    assert (code, err) == (0, "")
    assert out == f"{decks / 'legal.ydk'}: legal (OCG 2008.03, 2008-06-01; main 40, extra 1, side 0)\n"


REPORTS = {
    "en": [
        "{pot}: illegal — duel forfeiture (OCG 2008.03, 2008-06-01; main 1, extra 0, side 0)",
        "  ✗ forbidden_card [TR 3 / PR 3.A.3] main #1 (line 2)",
        "    Pot of Greed is Forbidden on OCG 2008.03.",
        "    → Take out the violating cards and replace them with appropriate cards.",
        "  ✗ main_deck_too_small [TR 3, TR 4.15 / PR 3.A.1] main",
        "    The main deck holds 1 cards; it must hold at least 40.",
        "    → Add appropriate cards to your main deck so that it has at least 40 cards.",
        "{roster}: illegal — duel forfeiture (OCG 2008.03, 2008-06-01; main 40, extra 0, side 0)",
        "  ✗ roster_mismatch [TR 2.B / PR 3.B] roster side #1",
        "    The side deck does not match the Deck Roster Sheet: missing 1× Stardust Dragon.",
        "    → Change your deck such that it exactly matches the one you listed on your Deck Roster Sheet.",
        "{legal}: legal (OCG 2008.03, 2008-06-01; main 40, extra 1, side 0)",
    ],
    "ja": [
        "{pot}: 使用不可 — デュエルの敗北（OCG 2008.03、2008-06-01、メイン 1枚・エクストラ 0枚・サイド 0枚）",
        "  ✗ forbidden_card [TR 3 / PR 3.A.3] メイン #1（2行目）",
        "    「強欲な壺」はOCG 2008.03で禁止カードです。",
        "    → 違反しているカードを抜き、適切なカードと入れ替えてください。",
        "  ✗ main_deck_too_small [TR 3, TR 4.15 / PR 3.A.1] メイン",
        "    メインデッキが1枚です。40枚以上にしなければなりません。",
        "    → メインデッキが40枚以上になるよう、適切なカードを加えてください。",
        "{roster}: 使用不可 — デュエルの敗北（OCG 2008.03、2008-06-01、メイン 40枚・エクストラ 0枚・サイド 0枚）",
        "  ✗ roster_mismatch [TR 2.B / PR 3.B] デッキ記入シート サイド #1",
        "    サイドデッキがデッキ記入シートと一致しません：不足 「スターダスト・ドラゴン」×1。",
        "    → デッキ記入シートに記入した内容と完全に一致するよう、デッキを修正してください。",
        "{legal}: 使用可能（OCG 2008.03、2008-06-01、メイン 40枚・エクストラ 1枚・サイド 0枚）",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_validate_reports_in_the_chosen_language(decks: Path, lang: str) -> None:
    files = {
        name: str(decks / f"{name}.{suffix}") for name, suffix in (("pot", "txt"), ("roster", "json"), ("legal", "ydk"))
    }
    code, out, err = _run("validate", *files.values(), "--date", "2008-06-01", "--lang", lang)
    assert (code, err) == (1, "")
    assert out.splitlines() == [line.format(**files) for line in REPORTS[lang]]


@pytest.mark.parametrize(("day", "said"), [("2026-12-31", False), ("2027-01-01", True)])
def test_validate_says_at_once_when_a_newer_list_may_be_in_force(decks: Path, day: str, said: bool) -> None:
    code, out, _err = _run("validate", str(decks / "legal.ydk"), "--date", day)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{decks / 'legal.ydk'}: legal (OCG 2026.10, {day}; main 40, extra 1, side 0)"
    note = (
        "  ! OCG 2026.10 (from 2026-10-01) is the newest list of this format the service holds, and by the usual "
        "cadence a newer one may be in force on this date: check the list in force, or name the list to apply."
    )
    assert lines[1:] == ([note] if said else [])


def test_every_penalty_reads_in_both_languages() -> None:
    assert {penalty: (words("en", penalty), words("ja", penalty)) for penalty in PENALTIES} == {
        "caution": ("caution", "注意"),
        "warning": ("warning", "警告"),
        "duel_forfeiture": ("duel forfeiture", "デュエルの敗北"),
        "match_forfeiture": ("match forfeiture", "マッチの敗北"),
        "disqualification": ("disqualification", "失格"),
        "total_disqualification": ("total disqualification", "失格（賞品剥奪）"),
    }


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


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["serve", "--port", "80000"], "argument --port: not a whole number from 1 to 65535: '80000'"),
        (["serve", "--port", "0x50"], "argument --port: not a whole number from 1 to 65535: '0x50'"),
        (["serve", "--port", "８０"], "argument --port: not a whole number from 1 to 65535: '８０'"),
        (["serve", "--workers", "0"], "argument --workers: not a whole number from 1 to 256: '0'"),
        (["recheck", "x", "--workers", "100000"], "argument --workers: not a whole number from 1 to 256: '100000'"),
    ],
)
def test_numbers_out_of_range_are_usage_errors_not_tracebacks(argv: list[str], said: str) -> None:
    assert _run(*argv) == (2, "", f"deckcheck {argv[0]}: {said}\n")


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
    told = "tcg_first_print,tcg_first_print_exact (then provisional,replaces in an updates folder); "
    assert err.endswith(f"{told}columns lacking, repeated or out of order\n")
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
    assert code == 5  # some decks illegal (1), and a corrupt line no deck to check (4): every result written
    assert out == ""
    results = [orjson.loads(line) for line in out_file.read_bytes().splitlines()]
    *lines, closing = results
    assert [r["line"] for r in lines] == list(range(1, 307))
    names = ("illegal.json", "legal.ydk", "pot.txt", "roster.json", "short.txt")
    assert [r["id"] for r in lines[-5:]] == [str(decks / name) for name in names]
    assert lines[150]["error"]["errors"][0]["type"] == "json_invalid"
    assert (closing["summary"]["lines"], closing["summary"]["errors"]) == (306, 1)
    assert err.startswith("recheck against OCG 2008.09 on 2008-09-01 in ")  # no progress: not a terminal
    assert [line.split() for line in err.splitlines()[1:7]] == [
        ["decks", "306"],
        ["legal", "197"],
        ["illegal", "108"],
        ["newly", "illegal", "since", "OCG", "2008.03", "76"],
        ["still", "illegal", "(under", "OCG", "2008.03", "too)", "32"],
        ["errors", "1"],
    ]
    assert err.splitlines()[-1] == (
        f"decks to contact (109): the lines of {out_file} whose verdict is not legal; --report FILE.csv lists them"
    )
    assert [r["fields"] for r in lines[-5:]] == [{"encoding": "utf-8"}] * 5  # each deck file's, as read


SUMMARIES = {
    "en": [
        "recheck against Proposed on 2026-07-01 in 0.0 s",
        "  decks                                     2",
        "  legal                                     0",
        "  illegal                                   2",
        "    newly illegal since OCG 2026.07         2",
        "    still illegal (under OCG 2026.07 too)   0",
        "  errors                                    0",
        "  forbidden_card                            2",
        "  newly illegal by card",
        "    Yubel - The Ultimate Nightmare          1",
        "    Calamity of the Sacred Beasts - Hamon,  1",
        "    Lord of Striking Thunder",
    ],
    "ja": [
        "Proposed（2026-07-01）で再チェック：0.0秒",
        "  デッキ                                    2",
        "  使用可能                                  0",
        "  使用不可                                  2",
        "    OCG 2026.07から新たに使用不可           2",
        "    引き続き使用不可（OCG 2026.07でも）     0",
        "  エラー                                    0",
        "  forbidden_card                            2",
        "  新たに使用不可にしたカード",
        "    ユベル－Ｄａｓ　Ｅｘｔｒｅｍｅｒ　      1",
        "    Ｔｒａｕｒｉｇ　Ｄｒａｃｈｅｎ",
        "    罪禍の三幻魔－降雷皇ハモン              1",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_recheck_summary_aligns_long_and_wide_names(tmp_path: Path, lang: str) -> None:
    (tmp_path / "decks").mkdir()
    for passcode in (50251045, 31764700):  # the longest English name; a Japanese name of wide and fullwidth letters
        (tmp_path / "decks" / f"{passcode}.json").write_bytes(
            orjson.dumps({"main": [*MAIN_40, {"passcode": passcode}]})
        )
    proposed = orjson.dumps({"name": "Proposed", "forbidden": [50251045, 31764700]}).decode()
    argv = ["recheck", "--date", "2026-07-01", "--banlist", proposed, "--previous", "ocg-2026-07-01", "--lang", lang]
    code, _out, err = _run(*argv, "--out", str(tmp_path / "report.csv"), str(tmp_path / "decks"))
    assert code == 1
    title, *rows, last = err.splitlines()
    assert [re.sub(r"\d+\.\d", "0.0", title), *rows] == SUMMARIES[lang]
    assert last == words(lang, "contact_report", count=2, path=tmp_path / "report.csv")
    assert len({_cells(row) for row in rows if row[-1].isdigit()}) == 1  # every count ends in one column


DIFFS = {
    "en": [
        "old → new: 4 changes",
        "  Calamity of the Sacred Beasts -        50251045  semi-limited  →  forbidden",
        "  Hamon, Lord of Striking Thunder",
        "  Pot of Greed                           55144522  forbidden     →  limited",
        "  Dark Magician                          46986414  limited       →  semi-limited",
        "  Yubel - The Ultimate Nightmare         31764700  limited       →  unlimited",
    ],
    "ja": [
        "old → new：4件の変更",
        "  罪禍の三幻魔－降雷皇ハモン                50251045  準制限  →  禁止",
        "  強欲な壺                                  55144522  禁止    →  制限",
        "  ブラック・マジシャン                      46986414  制限    →  準制限",
        "  ユベル－Ｄａｓ　Ｅｘｔｒｅｍｅｒ　        31764700  制限    →  制限解除",
        "  Ｔｒａｕｒｉｇ　Ｄｒａｃｈｅｎ",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_banlist_diff_aligns_long_and_wide_names(tmp_path: Path, lang: str) -> None:
    (tmp_path / "old.conf").write_text("!old\n55144522 0\n46986414 1\n50251045 2\n31764700 1\n", encoding="utf-8")
    (tmp_path / "new.conf").write_text("!new\n55144522 1\n46986414 2\n50251045 0\n", encoding="utf-8")
    code, out, err = _run("banlist", "diff", str(tmp_path / "old.conf"), str(tmp_path / "new.conf"), "--lang", lang)
    assert (code, err) == (0, "")
    assert out.splitlines() == DIFFS[lang]
    rows = [line for line in out.splitlines()[1:] if "→" in line]
    assert len({_cells(line[: line.index("→")]) for line in rows}) == 1
    passcodes = [_cells(line[: found.end()]) for line in rows if (found := re.search(r"\d+(?=  )", line))]
    assert len(passcodes) == 4
    assert len(set(passcodes)) == 1  # and passcodes end in one column


def test_recheck_workers_give_the_same_output(ndjson: Path, tmp_path: Path) -> None:
    outputs = []
    for workers in ("1", "2"):
        target = tmp_path / f"out-{workers}.ndjson"
        argv = ["recheck", "--date", "2008-09-01", "--previous", "ocg-2008-03-01", "--workers", workers]
        code, _out, _err = _run(*argv, "--out", str(target), str(ndjson))
        assert code == 5  # some illegal, one corrupt line
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1]


def test_recheck_to_stdout_with_progress_forced(ndjson: Path) -> None:
    code, out, err = _run("recheck", "--date", "2008-06-01", "--progress", str(ndjson))
    assert code == 5  # some illegal, one corrupt line
    assert len(out.splitlines()) == 302
    assert "301/301" in err


@pytest.mark.parametrize(
    ("lang", "unknown", "known"),
    [
        ("en", ["3,000/?", "1,000 decks/s", "ETA -:--:--"], ["3,000/10,000", "1,000 decks/s", "ETA 0:00:07"]),
        ("ja", ["3,000/?", "1,000デッキ/秒", "残り -:--:--"], ["3,000/10,000", "1,000デッキ/秒", "残り 0:00:07"]),
    ],
)
def test_progress_shows_done_of_total_rate_and_time_left(lang: str, unknown: list[str], known: list[str]) -> None:
    clock = [100.0]
    shown = RecheckProgress(io.StringIO(), lang, forced=False, get_time=lambda: clock[0])

    def columns() -> list[str]:
        task = shown.bar.tasks[0]
        return [DoneOfTotal().render(task).plain, Rate(lang).render(task).plain, TimeLeft(lang).render(task).plain]

    assert columns()[0] == "0/?"
    clock[0] = 103.0
    shown.advance(3000)
    assert columns() == unknown
    shown.bar.update(shown.task, total=10_000)
    assert columns() == known


def test_progress_counts_the_decks_it_will_check(ndjson: Path, decks: Path) -> None:
    shown = RecheckProgress(io.StringIO(), "en", forced=False)
    counter = shown.count([ndjson, decks])
    assert counter is not None
    counter.join()
    assert shown.bar.tasks[0].total == 306


def test_progress_never_reads_a_pipe_the_recheck_reads(ndjson: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "decks.ndjson"
    os.mkfifo(fifo)
    out = tmp_path / "out.ndjson"
    argv = ["recheck", "--date", "2008-09-01", "--progress", "--out", str(out), str(fifo)]
    process = _deckcheck(*argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    fifo.write_bytes(ndjson.read_bytes())  # blocks until the recheck opens the pipe
    _out, err = process.communicate(timeout=60)
    assert b"/?" in err  # the total of a pipe is never known
    from_file = tmp_path / "from-file.ndjson"
    code, _stdout, _stderr = _run("recheck", "--date", "2008-09-01", "--out", str(from_file), str(ndjson))
    assert process.returncode == code
    assert out.read_bytes() == from_file.read_bytes()  # every deck of the pipe was checked, whole


def _deckcheck(*argv: str, **options: Any) -> subprocess.Popen[bytes]:
    """`python -m deckcheck …` as a process of its own."""
    return subprocess.Popen([sys.executable, "-m", "deckcheck", *argv], stdin=subprocess.DEVNULL, **options)


def _on_a_terminal(argv: list[str], *, results_too: bool) -> tuple[int, str]:
    """The exit status of `deckcheck argv` with standard error (and output, if `results_too`) on a terminal, and
    what the terminal showed."""
    leader, follower = pty.openpty()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"}
    }
    out = follower if results_too else subprocess.DEVNULL
    process = _deckcheck(*argv, stdout=out, stderr=follower, env={**env, "TERM": "xterm"})
    os.close(follower)
    shown = b""
    with contextlib.suppress(OSError):  # EIO once the process has closed the terminal
        while chunk := os.read(leader, 65536):
            shown += chunk
    os.close(leader)
    return process.wait(), shown.decode()


def test_recheck_progress_on_a_terminal(ndjson: Path, tmp_path: Path) -> None:
    argv = ["recheck", "--date", "2008-09-01", "--out", str(tmp_path / "out.ndjson"), str(ndjson)]
    code, shown = _on_a_terminal(argv, results_too=False)
    assert code == 5  # some illegal, one corrupt line
    assert re.search(r"rechecking .* 301/301 [\d,]+ decks/s ETA 0:00:00", shown)  # the last state


def test_no_progress_on_the_terminal_the_results_go_to(ndjson: Path) -> None:
    code, shown = _on_a_terminal(["recheck", "--date", "2008-09-01", str(ndjson)], results_too=True)
    assert code == 5  # some illegal, one corrupt line
    assert "rechecking" not in shown
    assert shown.count('{"line":') == 301


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "{decks}/pot.txt", "--date", "2008-06-01", "--lang", "ja"],
        ["banlist", "diff", "ocg-2008-03-01", "ocg-2008-09-01"],
        ["banlist", "export", "ocg-2008-03-01"],
        ["recheck", "--date", "2008-09-01", "{ndjson}"],
        ["recheck", "--date", "2008-09-01", "--workers", "2", "{ndjson}"],
    ],
)
def test_a_closed_pipe_ends_quietly(argv: list[str], decks: Path, ndjson: Path) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # gone before the first line is written
    process = _deckcheck(*(a.format(decks=decks, ndjson=ndjson) for a in argv), stdout=writer, stderr=subprocess.PIPE)
    os.close(writer)
    _out, err = process.communicate()
    assert (process.returncode, err) == (141, b"")


def test_a_pipe_closed_after_the_first_line_ends_quietly() -> None:
    with _deckcheck("banlist", "export", "--format", "ocg", stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        assert process.stdout.readline().startswith(b"#[OCG 1999.07][OCG 2000.04]")
        process.stdout.close()  # as `| head -1` does, with the most of 370 KB still to write
        assert (process.wait(), process.stderr.read()) == (141, b"")


def test_recheck_refuses_unknown_lists_and_paths(ndjson: Path) -> None:
    assert _run("recheck", "--banlist", "ocg-1900-01-01", str(ndjson))[0] == 2
    assert _run("recheck", "--date", "2008-06-01", "/nonexistent/decks")[0] == 2
