"""Files the commands read whole are bounded as request bodies are (deckcheck/input_files.py): a deck file or an
lflist.conf past DECKCHECK_MAX_BODY_BYTES, a recheck's deck file past what a recheck line holds and a list or card
source past 64 MiB are refused by their size, before any of it is read, and a pipe is read no further than the
bound. `banlist diff` of a 200 MB file held 643 MB before."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from deckcheck.cli import run
from deckcheck.cli.output import EXIT_ERROR, EXIT_ILLEGAL, EXIT_UNCHECKED

GIB = 1024**3
BODY = "the 1,048,576 bytes DECKCHECK_MAX_BODY_BYTES allows"


@pytest.fixture(scope="module")
def huge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of files of 1 GiB each that take no room on the disk (sparse, as `truncate -s 1G` makes them)."""
    folder = tmp_path_factory.mktemp("huge")
    for name in ("deck.ydk", "lists.conf", "list.json", "cards.csv"):
        with (folder / name).open("wb") as f:
            f.truncate(GIB)
    (folder / "updates").mkdir()
    return folder


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argv", "file", "bound"),
    [
        (["validate", "{huge}/deck.ydk", "--date", "2008-06-01"], "{huge}/deck.ydk", BODY),
        (["qr", "{huge}/deck.ydk"], "{huge}/deck.ydk", BODY),
        (["sheet", "{huge}/deck.ydk", "--out", "{huge}/sheet.pdf"], "{huge}/deck.ydk", BODY),
        (["validate", "ydke://!!!", "--lflist", "{huge}/lists.conf"], "{huge}/lists.conf", BODY),
        (["recheck", "--date", "2008-09-01", "--lflist", "{huge}/lists.conf", "x.ndjson"], "{huge}/lists.conf", BODY),
        (["banlist", "diff", "{huge}/lists.conf", "ocg-2008-03-01"], "{huge}/lists.conf", BODY),
        (["banlist", "diff", "ocg-2008-03-01", "{huge}/lists.conf#2008.09"], "{huge}/lists.conf", BODY),
        (
            [
                "data",
                "add-list",
                "--format",
                "ocg",
                "--from",
                "2027-01-01",
                "--dir",
                "{huge}/updates",
                "{huge}/list.json",
            ],
            "list.json",
            "the 67,108,864 bytes a list or card source may hold (64 MiB)",
        ),
        (
            ["data", "add-cards", "--ocg-date", "2027-01-10", "--dir", "{huge}/updates", "{huge}/cards.csv"],
            "cards.csv",
            "the 67,108,864 bytes a list or card source may hold (64 MiB)",
        ),
    ],
)
def test_a_file_past_its_bound_is_a_usage_error_naming_it(argv: list[str], file: str, bound: str, huge: Path) -> None:
    code, out, err = _run(*(part.format(huge=huge) for part in argv))
    assert (code, out) == (EXIT_ERROR, "")
    assert err == f"deckcheck: {file.format(huge=huge)}: 1,073,741,824 bytes, past {bound}\n"


def test_a_recheck_deck_file_past_a_line_is_its_error_line(huge: Path, tmp_path: Path) -> None:
    """A recheck reads on past a deck file it cannot read, as past a line: the file gets its error line."""
    legal = tmp_path / "legal.txt"
    legal.write_text("3 Kuriboh\n", encoding="utf-8")
    code, out, _err = _run("recheck", "--date", "2008-09-01", str(huge / "deck.ydk"), str(legal))
    assert code == EXIT_UNCHECKED | EXIT_ILLEGAL  # the file no deck to check; three Kuriboh no legal deck
    lines = [orjson.loads(line) for line in out.splitlines()]
    why = "the file holds 1,073,741,824 bytes, past the 1,048,576 bytes a recheck line may hold"
    assert lines[0] == {
        "line": 1,
        "id": str(huge / "deck.ydk"),
        "error": {"msg": why, "errors": [{"loc": [], "msg": why, "type": "file_too_large"}]},
    }
    assert lines[1]["id"] == str(legal)
    assert lines[-1]["summary"]["errors"] == 1


def test_the_bound_is_the_request_bodys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Kuriboh\n" * 300, encoding="utf-8")  # 3,000 bytes
    monkeypatch.setenv("DECKCHECK_MAX_BODY_BYTES", "2048")
    assert _run("validate", str(deck)) == (
        EXIT_ERROR,
        "",
        f"deckcheck: {deck}: 3,000 bytes, past the 2,048 bytes DECKCHECK_MAX_BODY_BYTES allows\n",
    )
    monkeypatch.setenv("DECKCHECK_MAX_BODY_BYTES", "4096")
    assert _run("validate", str(deck), "--date", "2008-06-01")[0] == 1  # read: a 900-card main deck is illegal


# Runs the command given and writes the peak memory of it alone to the file named first. Linux keeps a process's
# high-water mark of memory across exec, and a child starts out with its parent's memory, so a command started from
# pytest would count pytest's own; started from this small process, it counts little more than its own.
_PEAK_OF = (
    "import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
    "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(code)"
)


def _measured(argv: list[str], tmp_path: Path, given: bytes | None = None) -> tuple[int, str, int]:
    """The exit status, standard error and peak memory (bytes of RSS) of `python -m deckcheck argv`."""
    peak, log = tmp_path / "peak", tmp_path / "stderr.log"
    command = [sys.executable, "-c", _PEAK_OF, str(peak), sys.executable, "-m", "deckcheck", *argv]
    stdin = subprocess.DEVNULL if given is None else subprocess.PIPE
    with (
        log.open("wb") as sink,
        subprocess.Popen(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=sink) as process,
    ):
        if process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):  # the command stops reading at its bound, as it should
                process.stdin.write(given or b"")
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()
    return process.returncode, log.read_text(encoding="utf-8"), int(peak.read_text(encoding="utf-8")) * 1024


@pytest.mark.parametrize(
    "argv",
    [["banlist", "diff", "{huge}/lists.conf", "ocg-2008-03-01"], ["validate", "{huge}/deck.ydk"]],
)
def test_a_file_past_its_bound_is_never_read(argv: list[str], huge: Path, tmp_path: Path) -> None:
    code, err, peak = _measured([part.format(huge=huge) for part in argv], tmp_path)
    assert code == EXIT_ERROR
    assert err.endswith(f": 1,073,741,824 bytes, past {BODY}\n")
    assert peak < GIB // 4  # the command with its data holds about 115 MB; the file is 1 GiB


def test_a_pipe_is_read_no_further_than_the_bound(tmp_path: Path) -> None:
    code, err, peak = _measured(["validate", "/dev/stdin"], tmp_path, given=b"3 Kuriboh\n" * 20 * 1024 * 1024)
    assert (code, err) == (EXIT_ERROR, f"deckcheck: /dev/stdin: more than {BODY}\n")
    assert peak < 200 * 1024 * 1024  # of the 200 MiB sent


@pytest.mark.slow
def test_a_recheck_line_past_its_bound_is_read_past_not_held(tmp_path: Path) -> None:
    decks = tmp_path / "decks.ndjson"
    with decks.open("wb") as f:
        f.write(b'{"id": "a", "ydke": "ydke://!!!"}\n{"id": "long", "text": "')
        f.truncate(GIB)  # a line of 1 GiB, without an end
        f.seek(GIB)
        f.write(b'"}\n{"id": "b", "ydke": "ydke://!!!"}\n')
    out = tmp_path / "results.ndjson"
    code, err, peak = _measured(["recheck", str(decks), "--date", "2008-06-01", "--out", str(out)], tmp_path)
    assert code == EXIT_UNCHECKED | EXIT_ILLEGAL, err  # the long line no deck to check; the empty decks illegal
    lines = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert [line.get("id") for line in lines[:3]] == ["a", None, "b"]
    too_long = {"loc": [], "msg": "line longer than 1048576 bytes", "type": "line_too_long"}
    assert lines[1] == {"line": 2, "id": None, "error": {"msg": too_long["msg"], "errors": [too_long]}}
    assert lines[3]["summary"]["lines"] == 3
    assert peak < GIB // 4  # it held 2.2 GB when a line was read whole
