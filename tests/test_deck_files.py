"""Deck files as the desk reads them (UTF-8, else Shift_JIS as Windows writes it), the same in `validate`, `qr` and
`recheck`, the encoding named where a result is given; a file neither reads is refused with where it stops."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest

from deckcheck import Data
from deckcheck.cli import run
from tests.cases import MAIN_40

DAY = ["--date", "2008-06-01"]


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def lists(data: Data, tmp_path: Path) -> dict[str, Path]:
    """One legal 40-card list by Japanese names, saved in UTF-8 (with and without a BOM) and in Shift_JIS."""
    names = [f"{data.cards.by_passcode[e['passcode']].name_ja}×{e.get('count', 1)}" for e in MAIN_40]
    text = "\r\n".join(["メインデッキ", *names, ""])
    files = {
        "utf-8": ("utf8.txt", text.encode()),
        "bom": ("bom.txt", "\ufeff".encode() + text.encode()),
        "cp932": ("sjis.txt", text.encode("cp932")),
    }
    for name, raw in files.values():
        (tmp_path / name).write_bytes(raw)
    with pytest.raises(UnicodeDecodeError):
        files["cp932"][1].decode("utf-8")  # the list is no UTF-8: the fallback is what reads it
    return {key: tmp_path / name for key, (name, _raw) in files.items()}


def test_validate_reads_shift_jis_and_names_it(lists: dict[str, Path]) -> None:
    answers = {}
    for key, path in lists.items():
        code, out, err = _run("validate", *DAY, "--json", str(path))
        assert (code, err) == (0, "")
        [answers[key]] = orjson.loads(out)
    assert [answers[key].pop("encoding") for key in lists] == ["utf-8", "utf-8", "cp932"]
    assert [answers[key].pop("file") for key in lists] == [str(path) for path in lists.values()]
    assert answers["utf-8"] == answers["bom"] == answers["cp932"]
    assert answers["cp932"]["counts"] == {"main": 40, "extra": 0, "side": 0}
    code, out, _err = _run("validate", *DAY, str(lists["cp932"]))
    assert out.startswith(f"{lists['cp932']} (read as Shift_JIS): legal (OCG 2008.03, 2008-06-01; main 40,")
    code, out, _err = _run("validate", *DAY, "--lang", "ja", str(lists["cp932"]))
    assert out.startswith(f"{lists['cp932']}（Shift_JISとして読み込み）: 使用可能")


def test_qr_draws_the_same_deck_from_shift_jis(lists: dict[str, Path]) -> None:
    drawn = {key: _run("qr", str(path)) for key, path in lists.items()}
    assert drawn["cp932"] == drawn["utf-8"] == drawn["bom"]
    assert drawn["cp932"][0] == 0
    assert drawn["cp932"][1].startswith("<?xml")


def test_recheck_reads_deck_files_as_the_desk_does(lists: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "utf16.txt").write_bytes("メインデッキ\n".encode("utf-16"))  # neither UTF-8 nor Shift_JIS
    out = tmp_path / "results.ndjson"
    code, _out, _err = _run("recheck", *DAY, "--out", str(out), str(tmp_path))
    assert code == 4  # every deck checked is legal; the UTF-16 file is no deck to check
    bom, sjis, utf16, utf8, _summary = map(orjson.loads, out.read_bytes().splitlines())
    for result, encoding in ((bom, "utf-8"), (sjis, "cp932"), (utf8, "utf-8")):
        assert (result["fields"], result["verdict"], result["violations"]) == ({"encoding": encoding}, "legal", [])
    why = "line 1: byte 0xe1 is neither UTF-8 nor Shift_JIS (CP932) text"  # past the BOM CP932 reads as letters
    assert utf16 == {
        "line": 3,
        "id": str(tmp_path / "utf16.txt"),
        "error": {"msg": why, "errors": [{"loc": [], "msg": why, "type": "not_text"}]},
    }
    code, _out, err = _run("validate", *DAY, str(tmp_path / "utf16.txt"))
    assert (code, err) == (2, f"deckcheck: {tmp_path / 'utf16.txt'}: {why}\n")
