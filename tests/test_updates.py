"""New data without a release: an updates folder laid over the bundled data, filled by `deckcheck data` from the
files the ecosystem publishes (lflist.conf, Konami's list CSVs, list JSON, EDOPro cards.cdb), and honest answers
when the data may be out of date."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest

from deckcheck import Data
from deckcheck.cli import run
from deckcheck.data import Banlist, Cadence, DataSource, load_data
from deckcheck.errors import DataError
from deckcheck.rules import validate
from deckcheck.wire.inputs import context_for, deck_from
from deckcheck.wire.reports import report_json
from deckcheck.wire.requests import ValidateRequest
from tests.cases import EXTRA, main_with, request

ROOT = Path(__file__).resolve().parent.parent
INCOMING = ROOT / "sources" / "incoming"
LFLIST = f"{INCOMING / 'ocg-2026-10.lflist.conf'}#2026.10"
PSY_FRAMELORD_OMEGA, PREMATURE_BURIAL, ELDER_ENTITY_NORDEN = 74586817, 70828912, 17412721
JACKPOT = 100458023  # Raise Moon Hope Squeeze - Jackpot, an Xyz Monster of prerelease-dbgv.cdb


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    """A writable copy of the bundled data, without the 2026.10 list its record added (to add it again)."""
    copy = tmp_path / "bundle"
    for folder in ("cards", "banlists"):
        shutil.copytree(ROOT / folder, copy / folder)
    (copy / "banlists" / "ocg" / "2026-10-01.json").unlink()
    return copy


@pytest.fixture
def updates(tmp_path: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty updates folder over the copy of the bundle, named by the environment as an operator would."""
    folder = tmp_path / "updates"
    folder.mkdir()
    monkeypatch.setenv("DECKCHECK_DATA_DIR", str(bundle))
    monkeypatch.setenv("DECKCHECK_UPDATES_DIR", str(folder))
    return folder


def _data_in(folder: Path) -> list[str]:
    """What a folder holds but for the bookkeeping of its writers (.deckcheck: the lock, the snapshots)."""
    return sorted(path.name for path in folder.iterdir() if path.name != ".deckcheck")


def _verdict(data: Data, body: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    parsed = ValidateRequest.model_validate(body)
    deck, context = deck_from(parsed, data), context_for(parsed, data)
    return report_json(validate(deck, context), lang, deck, context.roster)


def _list(found: Banlist | None) -> Banlist:
    assert found is not None
    return found


def _codes(answer: dict[str, Any]) -> list[str]:
    return [v["code"] for v in answer["violations"]]


def _notes(answer: dict[str, Any]) -> list[str]:
    return [n["code"] for n in answer["ruleset"]["notes"]]


# The bundle itself.


def test_the_bundle_judges_december_2026_by_the_october_list(data: Data) -> None:
    october = data.banlists.get("ocg-2026-10-01")
    assert october is not None
    assert october.name == "OCG 2026.10"
    assert data.banlists.in_force(dt.date(2026, 12, 1)) is october
    july = data.banlists.get("ocg-2026-07-01")
    assert july is not None
    assert july.effective_until == dt.date(2026, 10, 1)
    assert [record["action"] for record in data.imports] == ["add-list"]
    assert data.imports[0]["source"] == "ocg-2026-10.lflist.conf"


def test_the_bundles_record_names_the_file_it_was_made_from(data: Data) -> None:
    record = data.imports[0]

    assert record["sha256"] == hashlib.sha256((INCOMING / "ocg-2026-10.lflist.conf").read_bytes()).hexdigest()
    assert record["command"][:3] == ["deckcheck", "data", "add-list"]
    assert record["files"] == ["banlists/ocg/2026-10-01.json"]


# Adding lists.


@pytest.mark.slow
def test_a_list_from_lflist_conf_is_previewed_then_added(updates: Path, bundle: Path) -> None:
    code, out, err = _run("data", "add-list", "--format", "ocg", "--from", "2026-10-01", LFLIST, "--dry-run")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "OCG 2026.07 → OCG 2026.10: 24 changes"
    assert "PSY-Framelord Omega" in out
    assert out.rstrip().endswith("dry run: nothing written")
    assert _data_in(updates) == []
    code, out, err = _run("data", "add-list", "--format", "ocg", "--from", "2026-10-01", LFLIST)
    assert (code, err) == (0, "")
    written = json.loads((updates / "banlists" / "ocg" / "2026-10-01.json").read_text(encoding="utf-8"))
    assert (written["name"], written["format"], written["effective_from"]) == ("OCG 2026.10", "OCG", "2026-10-01")
    data = DataSource(bundle, updates).load()
    assert _list(data.banlists.in_force(dt.date(2026, 12, 1))).id == "ocg-2026-10-01"
    assert _list(data.banlists.get("ocg-2026-07-01")).effective_until == dt.date(2026, 10, 1)
    records = [json.loads(line) for line in (updates / "provenance" / "imports.ndjson").read_text().splitlines()]
    assert [(r["action"], r["source"], r["files"]) for r in records] == [
        ("add-list", "ocg-2026-10.lflist.conf", ["banlists/ocg/2026-10-01.json"])
    ]
    assert records[0]["command"] == ["deckcheck", "data", "add-list", "--format", "ocg", "--from", "2026-10-01", LFLIST]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "list_id"), [("konami-ocg-2025-04.csv", "ocg-2025-04-01"), ("konami-ocg-2021-10.csv", "ocg-2021-10-01")]
)
def test_konamis_csv_imports_to_exactly_the_bundled_list(
    updates: Path, bundle: Path, data: Data, name: str, list_id: str
) -> None:
    day = list_id.removeprefix("ocg-")
    code, _out, err = _run("data", "add-list", "--format", "ocg", "--from", day, str(INCOMING / name))
    assert (code, err) == (2, f"deckcheck: {list_id}: {list_id} is a list already; to replace it, say so (--replace)\n")
    code, _out, err = _run("data", "add-list", "--format", "ocg", "--from", day, "--replace", str(INCOMING / name))
    assert (code, err) == (0, "")
    loaded = DataSource(bundle, updates).load().banlists.get(list_id)
    bundled = data.banlists.get(list_id)
    assert loaded is not None
    assert bundled is not None
    assert loaded is not bundled
    assert dict(loaded.limits) == dict(bundled.limits)


def test_a_cp932_csv_imports_the_same(updates: Path, bundle: Path, tmp_path: Path, data: Data) -> None:
    text = (INCOMING / "konami-ocg-2025-04.csv").read_text(encoding="utf-8")
    cp932 = tmp_path / "2025-04-cp932.csv"
    # One kanji (琰) has no CP932 form: its row is read by its English name.
    cp932.write_bytes(text.encode("cp932", errors="replace"))
    assert _run("data", "add-list", "--format", "ocg", "--from", "2025-04-01", "--replace", str(cp932))[0] == 0
    loaded = DataSource(bundle, updates).load().banlists.get("ocg-2025-04-01")
    assert loaded is not None
    bundled = data.banlists.get("ocg-2025-04-01")
    assert bundled is not None
    assert dict(loaded.limits) == dict(bundled.limits)


def test_a_csv_naming_an_unknown_card_is_refused_naming_the_line(updates: Path, tmp_path: Path) -> None:
    csv = tmp_path / "bad.csv"
    csv.write_text(
        "$,$,カード種別,カード名,カード名,\n禁止,魔法,強欲な壺,POT OF GREED,\n制限,魔法,強欲なツボ,POT OF GREEED,\n",
        encoding="utf-8",
    )
    code, out, err = _run("data", "add-list", "--format", "ocg", "--from", "2027-01-01", str(csv))
    assert (code, out) == (2, "")
    assert err == (
        "deckcheck: bad.csv: line 3: no card is named '強欲なツボ' or 'POT OF GREEED'; closest: Pot of Greed "
        "(55144522), 強欲なウツボ (22123627), 貪欲なウツボ (73244186)\n"
    )
    assert _data_in(updates) == []


def test_a_list_json_by_names_and_passcodes(updates: Path, bundle: Path, tmp_path: Path) -> None:
    given = tmp_path / "list.json"
    given.write_text(
        json.dumps({"forbidden": ["Pot of Greed", 74586817], "limited": ["早すぎた埋葬"]}), encoding="utf-8"
    )
    assert (
        _run(
            "data", "add-list", "--format", "tcg", "--from", "2026-12-01", "--name", "TCG 2026.12 (trial)", str(given)
        )[0]
        == 0
    )
    data = DataSource(bundle, updates).load()
    added = data.banlists.in_force(dt.date(2026, 12, 1), "tcg")
    assert added is not None
    assert (added.id, added.name) == ("tcg-2026-12-01", "TCG 2026.12 (trial)")
    assert dict(added.limits) == {55144522: 0, PSY_FRAMELORD_OMEGA: 0, PREMATURE_BURIAL: 1}
    assert _list(data.banlists.get("tcg-2026-05-18")).effective_until == dt.date(2026, 12, 1)


# Layering.


def test_an_updates_list_may_not_silently_replace_a_bundled_one(bundle: Path, tmp_path: Path) -> None:
    folder = tmp_path / "updates"
    (folder / "banlists" / "ocg").mkdir(parents=True)
    body = json.loads((bundle / "banlists" / "ocg" / "2008-03-01.json").read_text(encoding="utf-8"))
    (folder / "banlists" / "ocg" / "2008-03-01.json").write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_data(bundle, folder)
    assert caught.value.file.endswith("updates/banlists/ocg/2008-03-01.json")
    assert (caught.value.entry, caught.value.problem.split("; ")[-1]) == ("replaces", "replace it explicitly")
    body["replaces"], body["forbidden"] = True, []
    (folder / "banlists" / "ocg" / "2008-03-01.json").write_text(json.dumps(body), encoding="utf-8")
    replaced = load_data(bundle, folder).banlists.get("ocg-2008-03-01")
    assert replaced is not None
    assert 55144522 not in replaced.limits


def test_a_broken_update_stops_the_load_naming_file_and_entry(bundle: Path, tmp_path: Path) -> None:
    folder = tmp_path / "updates"
    (folder / "cards").mkdir(parents=True)
    (folder / "cards" / "new.csv").write_text(
        (bundle / "cards" / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
        + "\n1,0,1,x,X,sorcery,none,0,1,0,2027-01-01,1,,0\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError) as caught:
        load_data(bundle, folder)
    assert (Path(caught.value.file).name, caught.value.entry, caught.value.problem) == (
        "new.csv",
        "line 2",
        "unknown kind 'sorcery'",
    )


# Adding cards.


@pytest.mark.slow
def test_a_prerelease_cdb_adds_its_cards_from_their_day(updates: Path, bundle: Path) -> None:
    code, out, err = _run("data", "add-cards", str(INCOMING / "prerelease-dbgv.cdb"), "--ocg-date", "2027-01-10")
    assert (code, err) == (0, "")
    digest = hashlib.sha256((INCOMING / "prerelease-dbgv.cdb").read_bytes()).hexdigest()[:12]
    assert out.splitlines()[0] == f"31 cards to cards/prerelease-dbgv-{digest}.csv (31 under provisional passcodes)"
    data = DataSource(bundle, updates).load()
    added = [card for passcode, card in data.cards.by_passcode.items() if 100458000 < passcode < 100459000]
    assert len(added) == 31
    assert all(card.provisional and card.ocg and not card.tcg for card in added)
    assert sorted(card.passcode for card in added if card.extra_deck_type != "none") == [100458022, JACKPOT]
    body = request(date="2027-01-10", banlist="ocg-2026-07-01", extra=[*EXTRA, {"passcode": JACKPOT}])
    assert _codes(_verdict(data, body)) == []
    assert _codes(_verdict(data, {**body, "date": "2027-01-09"})) == ["no_japanese_printing"]
    text = (updates / "cards" / f"prerelease-dbgv-{digest}.csv").read_text(encoding="utf-8")
    assert "Raise Moon Hope Squeeze - Jackpot" in text
    assert "desc" not in text.splitlines()[0]


@pytest.mark.slow
def test_final_passcodes_replace_provisional_ones(updates: Path, bundle: Path, tmp_path: Path) -> None:
    assert _run("data", "add-cards", str(INCOMING / "prerelease-dbgv.cdb"), "--ocg-date", "2027-01-10")[0] == 0
    header = (bundle / "cards" / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
    final = tmp_path / "dbgv-final.csv"
    final.write_text(
        f"{header}\n88880001,0,1,,Raise Moon Hope Squeeze - Jackpot,monster,xyz,0,1,0,2027-01-10,1,,0\n",
        encoding="utf-8",
    )
    code, out, _err = _run("data", "add-cards", str(final))
    assert code == 0
    assert "provisional cards now under their final passcodes are taken out (30 left)" in out
    data = DataSource(bundle, updates).load()
    assert JACKPOT not in data.cards.by_passcode
    jackpot = data.cards.by_passcode[88880001]
    assert (jackpot.name_en, jackpot.provisional) == ("Raise Moon Hope Squeeze - Jackpot", False)


@pytest.mark.slow
def test_cards_known_already_are_kept_unless_replaced(updates: Path, bundle: Path, tmp_path: Path) -> None:
    header = (bundle / "cards" / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
    given = tmp_path / "pot.csv"
    given.write_text(
        f"{header}\n55144522,0,1,強欲な壺,Pot of Greed,spell,none,0,1,1,1999-05-27,1,2002-03-08,1\n", encoding="utf-8"
    )
    code, out, _err = _run("data", "add-cards", str(given))
    assert code == 0
    assert "1 cards are known already and kept as they are (--replace to take the file's): 55144522" in out
    assert _run("data", "add-cards", str(given), "--replace")[0] == 0
    (written,) = (updates / "cards").glob("pot-*.csv")
    assert written.name == f"pot-{hashlib.sha256(given.read_bytes()).hexdigest()[:12]}.csv"
    assert "55144522,0,1,強欲な壺,Pot of Greed,spell,none,0,1,1,1999-05-27,1,2002-03-08,1,0,1" in written.read_text(
        encoding="utf-8"
    )


@pytest.mark.slow
def test_remove_and_check(updates: Path, bundle: Path, tmp_path: Path) -> None:
    given = tmp_path / "list.json"
    given.write_text(json.dumps({"forbidden": [55144522]}), encoding="utf-8")
    assert _run("data", "add-list", "--format", "ocg", "--from", "2027-04-01", str(given))[0] == 0
    code, _out, err = _run("data", "add-list", "--format", "ocg", "--from", "2027-04-01", str(given))
    already = f"{updates} holds this list already; to replace it, say so (--replace)"
    assert (code, err) == (2, f"deckcheck: banlists/ocg/2027-04-01.json: {already}\n")
    assert _run("data", "add-list", "--format", "ocg", "--from", "2027-04-01", "--replace", str(given))[0] == 0
    code, out, err = _run("data", "check", str(updates))
    assert (code, err) == (0, "")
    assert out.startswith(f"{updates}: good (14216 cards, 133 lists")
    code, out, _err = _run("data", "remove", "ocg-2027-04-01")
    assert code == 0
    assert f"{updates}: removed banlists/ocg/2027-04-01.json" in out.splitlines()
    assert "wrote" not in out
    assert not (updates / "banlists" / "ocg" / "2027-04-01.json").exists()
    code, _out, err = _run("data", "remove", "ocg-2027-04-01")
    assert (code, err) == (2, f"deckcheck: ocg-2027-04-01: {updates} holds no list ocg-2027-04-01\n")
    (updates / "cards" / "broken.csv").write_text("nonsense\n", encoding="utf-8")
    code, _out, err = _run("data", "check", str(updates))
    assert code == 2
    assert err.startswith(f"deckcheck: {updates}/cards/broken.csv: header: expected columns passcode,")


def test_a_cdb_needs_its_printing_day(updates: Path) -> None:
    code, _out, err = _run("data", "add-cards", str(INCOMING / "prerelease-dbgv.cdb"))
    assert (code, err) == (
        2,
        "deckcheck: prerelease-dbgv.cdb: a cdb carries no printing dates: give --ocg-date or --tcg-date\n",
    )


def test_status_says_what_may_be_out_of_date(updates: Path) -> None:
    code, out, _err = _run("data", "status", "--date", "2026-12-01", "--json")
    status = orjson.loads(out)
    assert code == 0
    assert status["updates_dir"] == str(updates)
    assert [(n["id"], n["next_list_due"], n["may_be_outdated"]) for n in status["newest_lists"]] == [
        ("ocg-2026-07-01", "2026-10-01", True),
        ("tcg-2026-05-18", "2026-11-14", True),
    ]
    assert [(n["id"], n["effective_from"], n["may_be_outdated"]) for n in status["lists_in_force"]] == [
        ("ocg-2026-07-01", "2026-07-01", True),
        ("tcg-2026-05-18", "2026-05-18", True),
    ]
    assert (status["printings_complete_until"], status["printings_may_be_missing"]) == ("2025-11-15", True)
    code, out, _err = _run("data", "status", "--date", "2026-09-30", "--lang", "ja")
    assert code == 0
    assert "OCG 2026.07  2026-07-01  次の改定予定 2026-10-01  最新" in out
    assert "  施行中：OCG 2026.07（2026-07-01から）\n" in out
    code, out, _err = _run("data", "status", "--date", "2026-12-01")
    assert "  in force: OCG 2026.07 (from 2026-07-01); a newer list may be in force\n" in out


# Honest when stale.


@pytest.mark.parametrize(
    ("fmt", "day", "stale"),
    [
        ("ocg", "2026-12-31", False),
        ("ocg", "2027-01-01", True),
        ("tcg", "2026-11-13", False),
        ("tcg", "2026-11-14", True),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_list_picked_by_date_says_when_a_newer_one_may_be_in_force(
    data: Data, fmt: str, day: str, stale: bool, lang: str
) -> None:
    answer = _verdict(data, request(date=day, format=fmt, main=main_with(), extra=[], side=[]), lang)
    notes = {n["code"]: n["message"] for n in answer["ruleset"]["notes"]}
    assert ("list_may_be_outdated" in notes) is stale
    newest = "OCG 2026.10 (from 2026-10-01)" if fmt == "ocg" else "TCG 2026.05 (from 2026-05-18)"
    if stale and lang == "en":
        assert notes["list_may_be_outdated"].startswith(f"{newest} is the newest list of this format the service holds")
    if stale and lang == "ja":
        assert notes["list_may_be_outdated"].startswith(newest.replace(" (from ", "（").replace(")", "から）"))


def test_a_list_named_is_never_said_to_be_out_of_date(data: Data) -> None:
    answer = _verdict(data, request(date="2030-01-01", banlist="ocg-2026-10-01", main=main_with(), extra=[], side=[]))
    assert "list_may_be_outdated" not in _notes(answer)


def test_the_cadence_is_a_setting(data: Data) -> None:
    october = _list(data.banlists.get("ocg-2026-10-01"))
    assert Cadence((1, 4, 7, 10)).next_list(october) == dt.date(2027, 1, 1)
    assert Cadence((3, 9)).next_list(october) == dt.date(2027, 3, 1)
    tcg = _list(data.banlists.get("tcg-2026-05-18"))
    assert Cadence(tcg_days=90).next_list(tcg) == dt.date(2026, 8, 16)


def test_a_list_at_the_end_of_the_calendar_is_due_no_successor(data: Data) -> None:
    """A list an updates folder dates near 9999 has no next list the calendar can hold: it is never due one (it
    ended `data status` and the service's notes in an overflow); a day before it, the cadence holds as ever."""
    october, tcg = _list(data.banlists.get("ocg-2026-10-01")), _list(data.banlists.get("tcg-2026-05-18"))
    late = dataclasses.replace(october, effective_from=dt.date(9999, 10, 2))
    assert Cadence().next_list(late) is None
    assert Cadence().next_list(dataclasses.replace(october, effective_from=dt.date(9998, 12, 31))) == dt.date(
        9999, 1, 1
    )
    assert Cadence(tcg_days=90).next_list(dataclasses.replace(tcg, effective_from=dt.date(9999, 12, 1))) is None
    assert Cadence(tcg_days=30).next_list(dataclasses.replace(tcg, effective_from=dt.date(9999, 12, 1))) == dt.date(
        9999, 12, 31
    )


@pytest.mark.parametrize(("day", "said"), [("2025-11-15", False), ("2025-11-16", True)])
def test_an_unknown_card_after_the_printings_end_may_be_a_new_card(data: Data, day: str, said: bool) -> None:
    body = request(date=day, banlist="ocg-2008-03-01", main=main_with({"passcode": 99999999}, drop=1))
    (violation,) = _verdict(data, body)["violations"]
    assert ("a card printed since may be missing" in violation["message"]) is said
    assert ("printings_complete_until" in violation["ctx"]) is said


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("list.json", "[1, 2]", "list.json: must hold a JSON object"),
        ("list.json", '{"forbidden": 55144522}', "list.json: forbidden: must be a list of passcodes or names"),
        ("list.json", '{"forbidden": ["No Such Card"]}', "list.json: forbidden[0]: no card is called 'No Such Card'"),
        (
            "list.json",
            "{not json",
            "list.json: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        (
            "white.conf",
            "!white\n$whitelist\n55144522 1\n",
            "white.conf: a $whitelist list names the only cards allowed; an event's list cannot be one",
        ),
        ("two.conf", "!a\n55144522 0\n!b\n1 0\n", "two.conf: the file holds 2 lists, name one of: 'a', 'b'"),
        ("bad.conf#a", "!a\n1 0\n", "bad.conf: line 2: passcode 1 is not a known card"),
    ],
)
def test_a_list_source_that_cannot_be_imported_is_refused(
    updates: Path, tmp_path: Path, name: str, text: str, why: str
) -> None:
    path, _, list_name = name.partition("#")
    (tmp_path / path).write_text(text, encoding="utf-8")
    source = str(tmp_path / path) + (f"#{list_name}" if list_name else "")
    code, out, err = _run("data", "add-list", "--format", "ocg", "--from", "2027-01-01", source)
    assert (code, out, err) == (2, "", f"deckcheck: {why}\n")
    assert _data_in(updates) == []


@pytest.mark.slow
def test_a_card_is_removed_by_its_passcode(updates: Path, bundle: Path, tmp_path: Path) -> None:
    header = (bundle / "cards" / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
    given = tmp_path / "two.csv"
    rows = [
        "88880001,0,1,,First New Card,spell,none,0,1,0,2027-01-10,1,,0",
        "88880002,0,1,,Second New Card,trap,none,0,1,0,2027-01-10,1,,0",
    ]
    given.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    assert _run("data", "add-cards", str(given))[0] == 0
    assert _run("data", "remove", "88880001")[0] == 0
    data = DataSource(bundle, updates).load()
    assert (88880001 in data.cards.by_passcode, 88880002 in data.cards.by_passcode) == (False, True)
    assert _run("data", "remove", "88880002")[0] == 0
    assert not list((updates / "cards").glob("two*.csv"))
    code, _out, err = _run("data", "remove", "ocg-../../cards")
    assert (code, err) == (
        2,
        "deckcheck: ocg-../../cards: a list id is the format and the day it takes effect, e.g. ocg-2026-10-01\n",
    )
    records = (updates / "provenance" / "imports.ndjson").read_text(encoding="utf-8").splitlines()
    assert [json.loads(r)["action"] for r in records] == ["add-cards", "remove", "remove"]


def test_without_settings_the_commands_use_the_users_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("DECKCHECK_UPDATES_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, _out, err = _run("data", "remove", "ocg-2027-01-01")
    folder = tmp_path / "deckcheck" / "updates"
    assert (code, err) == (2, f"deckcheck: ocg-2027-01-01: {folder} holds no list ocg-2027-01-01\n")


def test_a_default_folder_that_cannot_be_made_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DECKCHECK_UPDATES_DIR", raising=False)
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "file"))
    code, _out, err = _run("data", "status")
    folder = tmp_path / "file" / "deckcheck" / "updates"
    assert (code, err) == (
        2,
        f"deckcheck: the default updates folder {folder} cannot be made (Not a directory): set DECKCHECK_UPDATES_DIR\n",
    )
