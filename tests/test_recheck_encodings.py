"""Recheck input in Shift_JIS (CP932) as Windows writes it, read as the desk reads a file: UTF-8, else CP932, each
line on its own. Over HTTP (whole or in pieces), on the command line (in this process and in workers), from a table
whose text columns arrive as bytes (a Shift_JIS CSV read by pyarrow), and from deck files: the same decks, ids and
own fields as the UTF-8 input, and the summary naming the encoding."""

from __future__ import annotations

import base64
import datetime as dt
import io
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pyarrow as pa
import pyarrow.csv as pv
import pytest

from deckcheck import Data
from deckcheck.batch import BatchSpec, Rechecker
from deckcheck.batch.decoding import read_lines
from deckcheck.batch.partition import check_table
from deckcheck.cli import run
from tests.cases import MAIN_40

RECHECK = "/v1/rechecks?date=2008-06-01"
DAY = ["--date", "2008-06-01"]
# 表, ソ and 能 end in 0x5C, a backslash, in Shift_JIS: read as bytes, the JSON around them would break.
PLAYER = "表ソ能・武藤遊戯"
OWN = {"player", "table", "メモ"}  # the decks' own fields below


def _text(data: Data, entries: list[dict[str, Any]]) -> str:
    """A main deck as a Japanese list by names."""
    names = [f"{data.cards.by_passcode[e['passcode']].name_ja}×{e.get('count', 1)}" for e in entries]
    return "\n".join(["メインデッキ", *names])


def _ydke(entries: list[dict[str, Any]]) -> str:
    main = [e["passcode"] for e in entries for _ in range(e.get("count", 1))]
    return "ydke://" + base64.b64encode(struct.pack(f"<{len(main)}I", *main)).decode() + "!!!"


@pytest.fixture
def decks(data: Data) -> list[dict[str, Any]]:
    """Four decks as recheck lines: Japanese ids, names and own fields; one with Pot of Greed (forbidden on OCG
    2008.03); one line of ASCII only, which is UTF-8 and Shift_JIS alike."""
    forbidden = [*MAIN_40[:-1], {"passcode": 55144522}]
    return [
        {"id": "デッキ-1", "text": _text(data, MAIN_40), "player": PLAYER, "table": 1},
        {"id": "デッキ-2", "text": _text(data, forbidden), "player": "海馬瀬人", "メモ": "強欲な壺"},
        {"id": "ascii", "ydke": _ydke(MAIN_40), "player": "Yugi"},
        {"id": 4, "main": MAIN_40, "player": "城之内克也", "default_language": "ja"},
    ]


def _body(decks: list[dict[str, Any]], encoding: str) -> bytes:
    return b"".join(orjson.dumps(deck).decode().encode(encoding) + b"\n" for deck in decks)


def _lines(raw: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in raw.splitlines()]


def _pieces(body: bytes, size: int) -> Iterator[bytes]:
    """The body in pieces of `size` bytes, cut inside characters and lines."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


def test_the_decks_are_no_utf8_in_shift_jis(decks: list[dict[str, Any]]) -> None:
    sjis = _body(decks, "cp932").splitlines()
    for line in (sjis[0], sjis[1], sjis[3]):
        with pytest.raises(UnicodeDecodeError):
            line.decode("utf-8")
    assert b"\\" not in orjson.dumps(decks[0]["player"])  # the backslashes below are Shift_JIS bytes, not escapes
    assert PLAYER.encode("cp932").count(b"\\") == 3
    assert sjis[2] == _body(decks, "utf-8").splitlines()[2]


@pytest.mark.parametrize("hold", ["0", "1"])
@pytest.mark.parametrize("piece", [None, 7])
def test_a_shift_jis_recheck_over_http(
    client: httpx.Client, decks: list[dict[str, Any]], hold: str, piece: int | None
) -> None:
    """POST /v1/rechecks of a Shift_JIS body answers as the same body in UTF-8 does, line for line, each line's id
    and own fields as written; the summary counts the lines read in each encoding. Sent in pieces of 7 bytes, the
    body is read the same: a line is read once whole."""
    headers = {"Deckcheck-Hold-Results": hold}
    utf8 = _lines(client.post(RECHECK, content=_body(decks, "utf-8"), headers=headers).content)
    sjis_body = _body(decks, "cp932")
    content = sjis_body if piece is None else _pieces(sjis_body, piece)
    answer = client.post(RECHECK, content=content, headers=headers)
    assert answer.status_code == 200
    *results, closing = _lines(answer.content)
    *expected, utf8_closing = utf8
    assert results == expected
    assert [r["id"] for r in results] == ["デッキ-1", "デッキ-2", "ascii", 4]
    assert [r["fields"] for r in results] == [{k: v for k, v in d.items() if k in OWN} for d in decks]
    assert [r["verdict"] for r in results] == ["legal", "illegal", "legal", "legal"]
    assert [v["code"] for v in results[1]["violations"]] == ["forbidden_card"]
    assert "encodings" not in utf8_closing["summary"]  # all UTF-8: the summary need not say
    summary = closing["summary"]
    assert summary.pop("encodings") == {"utf-8": 1, "cp932": 3}
    assert summary == utf8_closing["summary"]


def test_lines_of_either_encoding_in_one_body_are_each_read_on_their_own(
    client: httpx.Client, decks: list[dict[str, Any]]
) -> None:
    """UTF-8 and Shift_JIS lines in one body: each line is read as what it is, and a line neither reads keeps the
    error it has always had (the models' json_invalid) and counts in neither."""
    neither = b'{"id": "x", "player": "\x81 "}'  # a Shift_JIS lead byte before a space: no text in either
    body = _body(decks[:1], "utf-8") + _body(decks[1:2], "cp932") + neither + b"\n" + _body(decks[3:], "cp932")
    *results, closing = _lines(client.post(RECHECK, content=body).content)
    assert [r.get("verdict") for r in results] == ["legal", "illegal", None, "legal"]
    assert [r["id"] for r in results] == ["デッキ-1", "デッキ-2", None, 4]
    assert results[2]["error"]["errors"][0]["type"] == "json_invalid"
    assert closing["summary"]["encodings"] == {"utf-8": 1, "cp932": 2}
    assert (closing["summary"]["lines"], closing["summary"]["errors"]) == (4, 1)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_shift_jis_recheck_on_the_command_line(decks: list[dict[str, Any]], tmp_path: Path, workers: str) -> None:
    """`deckcheck recheck` of a Shift_JIS NDJSON file (in this process, and in two workers that each read their
    own span of it) writes what it writes of the UTF-8 file, and its summary, line and table, names the lines read
    as Shift_JIS."""
    results = {}
    for encoding in ("utf-8", "cp932"):
        path = tmp_path / f"{encoding}.ndjson"
        path.write_bytes(_body(decks, encoding))
        out = tmp_path / f"{encoding}-results.ndjson"
        code, _out, err = _run("recheck", *DAY, "--workers", workers, "--out", str(out), str(path))
        assert code == 1  # one illegal deck
        results[encoding] = (_lines(out.read_bytes()), err)
    (*sjis, closing), err = results["cp932"]
    (*utf8, utf8_closing), utf8_err = results["utf-8"]
    assert sjis == utf8
    assert [(r["id"], r["fields"]["player"]) for r in sjis] == [(d["id"], d["player"]) for d in decks]
    assert closing["summary"].pop("encodings") == {"utf-8": 1, "cp932": 3}
    assert closing["summary"] == utf8_closing["summary"]
    assert err.split("\n    decks (read as Shift_JIS)  ")[1].split()[0] == "3"
    assert "Shift_JIS" not in utf8_err
    code, _out, err = _run("recheck", *DAY, "--lang", "ja", "--out", str(tmp_path / "ja.ndjson"), str(path))
    assert "デッキ（Shift_JISとして読み込み）" in err


def test_deck_files_count_with_the_lines_of_their_encoding(data: Data, tmp_path: Path) -> None:
    """A deck file read as Shift_JIS names its encoding in its own field, as before, and the summary counts it with
    the NDJSON lines read so."""
    text = _text(data, MAIN_40)
    (tmp_path / "sjis.txt").write_bytes(text.encode("cp932"))
    (tmp_path / "utf8.txt").write_bytes(text.encode())
    out = tmp_path / "results.ndjson"
    code, _out, _err = _run("recheck", *DAY, "--out", str(out), str(tmp_path / "sjis.txt"), str(tmp_path / "utf8.txt"))
    sjis, utf8, closing = _lines(out.read_bytes())
    assert code == 0
    assert (sjis["fields"], utf8["fields"]) == ({"encoding": "cp932"}, {"encoding": "utf-8"})
    assert closing["summary"]["encodings"] == {"utf-8": 1, "cp932": 1}


def test_a_table_whose_text_arrives_as_bytes(data: Data, decks: list[dict[str, Any]]) -> None:
    """A Shift_JIS CSV read by pyarrow gives its text columns as bytes (binary), as a Parquet column of bytes
    would: each row is read as the same row of a UTF-8 CSV, its id a string as written, and the summary counts the
    rows read as Shift_JIS."""
    rows = [["id", "text", "player"], *[[d["id"], d["text"], d["player"]] for d in decks[:2]]]
    rows.append(["ascii", "\n".join(["Main Deck", "3 Dark Magician"]), "Yugi"])  # ASCII only: no byte not UTF-8
    csv = "".join(",".join(f'"{cell}"' for cell in row) + "\r\n" for row in rows)
    sjis = pv.read_csv(io.BytesIO(csv.encode("cp932")))
    utf8 = pv.read_csv(io.BytesIO(csv.encode()))
    assert pa.types.is_binary(sjis.schema.field("text").type)
    assert pa.types.is_binary(sjis.schema.field("id").type)
    assert pa.types.is_string(utf8.schema.field("text").type)
    checker = Rechecker(data, BatchSpec(dt.date(2008, 6, 1), "ocg-2008-03-01", None).setup(data))
    got, summary = check_table(sjis, checker, 1)
    want, utf8_summary = check_table(utf8, checker, 1)
    assert got.column("result").to_pylist() == want.column("result").to_pylist()
    assert got.schema.field("id").type == pa.string()
    assert got.column("id").to_pylist() == ["デッキ-1", "デッキ-2", "ascii"]
    assert got.column("verdict").to_pylist() == ["legal", "illegal", "illegal"]  # the last: 3 cards
    assert [orjson.loads(f or "null")["player"] for f in got.column("fields").to_pylist()] == [
        PLAYER,
        "海馬瀬人",
        "Yugi",
    ]
    found = summary.as_json(checker.setup, data)["summary"]
    assert found.pop("encodings") == {"utf-8": 1, "cp932": 2}
    assert found == utf8_summary.as_json(checker.setup, data)["summary"]


def test_read_lines_reads_only_what_orjson_does_not() -> None:
    """A plain UTF-8 line is handed on as the very bytes it was; a Shift_JIS one as its UTF-8, read as plain."""
    plain = b'{"id": "\xe3\x83\x87", "ydke": "ydke://!!!"}'
    sjis = '{"id": "デ", "ydke": "ydke://!!!"}'.encode("cp932")
    read, plains, counts = read_lines([plain, sjis, None])
    assert read[0] is plain
    assert read[1] == plain
    assert read[2] is None
    assert [None if quick is None else quick.id for quick in plains] == ["デ", "デ", None]
    assert counts == (1, 1)
