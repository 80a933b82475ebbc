"""An organiser's recheck: stored decks carrying the organiser's own fields, rechecked after a list change, give the
CSV of the decks to contact (newly illegal, and still illegal marked so) with their causes, exactly as the result
lines say; the same lines over HTTP; the bounds on a line's own fields."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from bench.corpus import Corpus
from deckcheck import Data
from deckcheck.cli import run
from deckcheck.cli.output import words
from deckcheck.wire.answers.recheck import RECHECK_ANSWER_LINE, RecheckResultLine

DECKS = 20_000
RECHECK = ["recheck", "--date", "2008-09-01", "--previous", "ocg-2008-03-01"]
FORMULA = '=HYPERLINK("http://example.com","x")'  # a player's name a spreadsheet would run


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def store(data: Data, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20,000 corpus decks as an organiser keeps them: each with a player and an email, a table for every third,
    one player's name that a spreadsheet would take for a formula."""
    path = tmp_path_factory.mktemp("organiser") / "decks.ndjson"
    with path.open("wb") as f:
        for number, deck in enumerate(Corpus(data, seed=11).decks(DECKS)):
            line = orjson.loads(deck.line())
            line["player"] = FORMULA if number == 4 else f"選手 {number}"
            line["email"] = f"p{number}@example.jp"
            if number % 3 == 0:
                line["table"] = number // 3
            f.write(orjson.dumps(line) + b"\n")
    return path


def _csv(path: Path) -> list[list[str]]:
    raw = path.read_bytes()
    assert raw.startswith("\ufeff".encode())  # for Excel in Japan, which reads a CSV without it as Shift_JIS
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def _expected(results: list[dict[str, Any]], lang: str) -> list[list[str]]:
    """The CSV the result lines call for: a row per deck not legal, the own fields' columns in first-seen order."""
    listed = [r for r in results if r.get("verdict") != "legal"]
    columns = list(dict.fromkeys(name for r in listed for name in r.get("fields", {})))
    verdicts = {"newly_illegal": "verdict_newly_illegal", "still_illegal": "verdict_still_illegal"}
    header = [words(lang, "column_line"), words(lang, "column_id"), *columns]
    header += [words(lang, f"column_{name}") for name in ("verdict", "penalty", "causes", "cards")]
    rows = [header]
    for r in listed:
        fields = r.get("fields", {})
        own = [_cell(fields.get(name)) for name in columns]
        if "error" in r:
            rows.append([str(r["line"]), r["id"], *own, words(lang, "verdict_not_read"), "", r["error"]["msg"], ""])
            continue
        causes = "\n".join(v["message"] for v in r["violations"])
        cards = "\n".join(", ".join(f"{c['name']} ×{c['count']}" for c in v["cards"]) for v in r["violations"])
        verdict = words(lang, verdicts.get(r["verdict"], "illegal"))
        rows.append([str(r["line"]), r["id"], *own, verdict, words(lang, r["penalty"]), causes, cards])
    return rows


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value if value.startswith("=") else value
    return orjson.dumps(value).decode()


@pytest.mark.slow
def test_an_organisers_recheck_lists_the_decks_to_contact(store: Path, tmp_path: Path) -> None:
    results_path, report = tmp_path / "results.ndjson", tmp_path / "contact.csv"
    code, out, err = _run(*RECHECK, "--out", str(results_path), "--report", str(report), str(store))
    assert (code, out) == (1, "")
    *results, closing = [orjson.loads(line) for line in results_path.read_bytes().splitlines()]
    summary = closing["summary"]
    newly = [r["id"] for r in results if r["verdict"] == "newly_illegal"]
    still = [r["id"] for r in results if r["verdict"] == "still_illegal"]
    assert (summary["lines"], summary["errors"]) == (DECKS, 0)
    assert (summary["newly_illegal"]["count"], summary["still_illegal"]) == (len(newly), len(still))
    assert summary["illegal"] == len(newly) + len(still)
    assert len(newly) > 4_000
    assert len(still) > 1_000
    assert all(r["newly_illegal"] == (r["verdict"] == "newly_illegal") for r in results)

    rows = _csv(report)
    assert rows == _expected(results, "en")
    assert rows[0] == ["line", "id", "player", "email", "table", "verdict", "penalty", "causes", "cards"]
    # Exactly the newly illegal decks are marked so, in input order, with the organiser's fields from the store.
    assert [row[1] for row in rows if row[5] == "newly illegal"] == newly
    assert [row[1] for row in rows if row[5] == "still illegal"] == still
    stored = {line["id"]: line for line in map(orjson.loads, store.read_bytes().splitlines())}
    for row in rows[1:]:
        line = stored[row[1]]
        assert row[2:5] == [_cell(line["player"]), line["email"], _cell(line.get("table"))]
    assert all(row[6] and row[7] for row in rows[1:])  # a penalty and the causes (a deck's size names no card)
    assert all(row[8] for row in rows if row[5] == "newly illegal")  # it holds a card the list caught
    assert f"'{FORMULA}" in (row[2] for row in rows)

    lines = err.splitlines()
    assert f"newly illegal since OCG 2008.03 {len(newly):,}" in [" ".join(line.split()) for line in lines]
    assert f"still illegal (under OCG 2008.03 too) {len(still):,}" in [" ".join(line.split()) for line in lines]
    assert lines[-1] == f"decks to contact ({len(newly) + len(still):,}): {report}"


@pytest.mark.slow
def test_the_csv_alone_in_japanese(store: Path, tmp_path: Path) -> None:
    """`--out FILE.csv` writes the list of decks to contact, in the asked language, and no result lines anywhere."""
    some = tmp_path / "some.ndjson"
    some.write_bytes(b"\n".join(store.read_bytes().splitlines()[:300]) + b"\n")
    code, out, err = _run(*RECHECK, "--lang", "ja", "--out", str(tmp_path / "連絡.csv"), str(some))
    assert (code, out) == (1, "")
    code, _out, _err = _run(*RECHECK, "--lang", "ja", "--out", str(tmp_path / "results.ndjson"), str(some))
    results = [orjson.loads(line) for line in (tmp_path / "results.ndjson").read_bytes().splitlines()[:-1]]
    rows = _csv(tmp_path / "連絡.csv")
    assert rows == _expected(results, "ja")
    assert rows[0] == ["行", "ID", "player", "email", "table", "判定", "ペナルティ", "理由", "カード"]
    assert {row[5] for row in rows[1:]} == {"新たに使用不可", "引き続き使用不可"}
    assert err.splitlines()[-1] == f"連絡が必要なデッキ（{len(rows) - 1}件）：{tmp_path / '連絡.csv'}"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["results.ndjson", "some.ndjson", "連絡.csv"]


@pytest.mark.slow
def test_the_csv_is_refused_where_it_would_be_ambiguous(store: Path, tmp_path: Path) -> None:
    for extra in (["--report", str(tmp_path / "b.csv")], ["--dask", "local:1"]):
        code, out, err = _run(*RECHECK, "--out", str(tmp_path / "a.csv"), *extra, str(store))
        assert (code, out) == (2, "")
        assert err == "deckcheck: --out names the results; give the CSV of the decks to contact as --report\n"


def test_a_csv_in_no_folder_is_refused_before_the_recheck(store: Path, tmp_path: Path) -> None:
    code, out, err = _run(*RECHECK, "--report", str(tmp_path / "none" / "a.csv"), str(store))
    assert (code, out) == (2, "")
    assert err == f"deckcheck: no such folder for the CSV of decks to contact: {tmp_path / 'none'}\n"


@pytest.mark.slow
def test_over_http_the_lines_are_the_commands(store: Path, tmp_path: Path, client: httpx.Client) -> None:
    """The same decks give the same lines through /v1/rechecks as through the command, each fitting the client's
    models; with and without a previous list, every verdict appears."""
    body = b"\n".join(store.read_bytes().splitlines()[:2_000]) + b"\n"
    (tmp_path / "some.ndjson").write_bytes(body)
    headers = {"Content-Type": "application/x-ndjson"}
    for query, argv, verdicts in (
        ("date=2008-09-01&previous=ocg-2008-03-01", RECHECK, {"legal", "newly_illegal", "still_illegal"}),
        ("date=2008-09-01", RECHECK[:3], {"legal", "illegal"}),
    ):
        answer = client.post(f"/v1/rechecks?{query}", content=body, headers=headers)
        assert answer.status_code == 200
        _run(*argv, "--out", str(tmp_path / "cli.ndjson"), str(tmp_path / "some.ndjson"))
        assert answer.content == (tmp_path / "cli.ndjson").read_bytes()
        lines = [RECHECK_ANSWER_LINE.validate_json(line) for line in answer.content.splitlines()]
        assert {line.verdict for line in lines if isinstance(line, RecheckResultLine)} == verdicts
        assert all(line.fields for line in lines if isinstance(line, RecheckResultLine))


def test_own_fields_are_echoed_within_their_bounds(client: httpx.Client) -> None:
    many = {f"f{i}": i for i in range(33)}
    lines = [
        {"id": "a", "ydke": "ydke://!!", "player": "Ann", "team": {"name": "A", "members": [1, None]}},
        {"id": "b", "ydke": "ydke://!!", **many},
        {"id": "c", "ydke": "ydke://!!", "memo": "x" * 4086},  # 4,097 bytes as JSON
        {"ydke": "ydke://!!", "player": "Ben"},  # an id is still needed
        {"id": "d", "ydke": "ydke://A!!", "player": "Cy"},  # a link that does not read
    ]
    body = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    answer = client.post("/v1/rechecks?date=2008-09-01", content=body, headers={"Content-Type": "application/x-ndjson"})
    first, *errors, _summary = (orjson.loads(line) for line in answer.content.splitlines())
    assert (first["fields"], first["verdict"]) == (
        {"player": "Ann", "team": {"name": "A", "members": [1, None]}},
        "illegal",
    )
    too_many = "a line carries at most 32 fields of its own beside the deck; this one 33"
    too_large = "a line's own fields take at most 4096 bytes as JSON; these take 4097"
    missing = {"loc": ["id"], "msg": "Field required", "type": "missing"}
    assert errors[:3] == [
        {
            "line": 2,
            "id": "b",
            "error": {"msg": too_many, "errors": [{"loc": [], "msg": too_many, "type": "too_many_fields"}]},
        },
        {
            "line": 3,
            "id": "c",
            "error": {"msg": too_large, "errors": [{"loc": [], "msg": too_large, "type": "fields_too_large"}]},
        },
        {"line": 4, "id": None, "fields": {"player": "Ben"}, "error": {"msg": "Field required", "errors": [missing]}},
    ]
    assert (errors[3]["id"], errors[3]["fields"]) == ("d", {"player": "Cy"})
