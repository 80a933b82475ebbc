"""Formats and rule eras, read from the card data; lists as lflist.conf over HTTP and on the command line."""

from __future__ import annotations

import base64
import datetime as dt
import io
import struct
from pathlib import Path

import httpx
import orjson
import pytest

from deckcheck import Data
from deckcheck.cli import run
from deckcheck.data import read_lflist
from deckcheck.model import Format
from deckcheck.rules import era_starts, ruleset_for
from deckcheck.rules.eras import printed_by, printed_in
from tests.cases import CASES
from tests.decks import EXTRA, MAIN_40, request
from tests.golden import run_case

D = dt.date.fromisoformat


def test_eras_begin_with_the_first_printing_of_each_type(data: Data) -> None:
    starts = era_starts(data.cards)
    assert dict(starts["ocg"]) == {"xyz": D("2011-03-19"), "pendulum": D("2014-03-21"), "link": D("2017-03-25")}
    assert dict(starts["tcg"]) == {"xyz": D("2011-07-08"), "pendulum": D("2014-07-10"), "link": D("2017-07-20")}


@pytest.mark.parametrize(
    ("fmt", "day", "expected"),
    [
        ("ocg", "2008-03-15", ("ocg-2008-03-15", ["fusion", "synchro"], [])),
        ("ocg", "2008-03-14", ("ocg-2008-03-15", ["fusion", "synchro"], ["before_seeds"])),
        ("ocg", "2011-03-18", ("ocg-2008-03-15", ["fusion", "synchro"], [])),
        ("ocg", "2011-03-19", ("ocg-2011-03-19", ["fusion", "synchro", "xyz"], ["later_card_types"])),
        (
            "ocg",
            "2017-03-25",
            ("ocg-2017-03-25", ["fusion", "synchro", "xyz", "pendulum", "link"], ["later_card_types"]),
        ),
        ("tcg", "2011-03-19", ("tcg-2008-03-15", ["fusion", "synchro"], ["tcg_event"])),
        (
            "tcg",
            "2014-07-10",
            ("tcg-2014-07-10", ["fusion", "synchro", "xyz", "pendulum"], ["later_card_types", "tcg_event"]),
        ),
    ],
)
def test_ruleset_of_a_format_and_day(
    data: Data, fmt: Format, day: str, expected: tuple[str, list[str], list[str]]
) -> None:
    found = ruleset_for(data.cards, fmt, D(day))
    assert (found.id, list(found.card_types), list(found.notes)) == expected


def test_rule_eras_over_http(client: httpx.Client) -> None:
    eras = client.get("/v1/rules/eras").json()
    assert [(e["format"], e["id"], e["from"], e["until"]) for e in eras] == [
        ("ocg", "ocg-2008-03-15", None, "2011-03-19"),
        ("ocg", "ocg-2011-03-19", "2011-03-19", "2014-03-21"),
        ("ocg", "ocg-2014-03-21", "2014-03-21", "2017-03-25"),
        ("ocg", "ocg-2017-03-25", "2017-03-25", None),
        ("tcg", "tcg-2008-03-15", None, "2011-07-08"),
        ("tcg", "tcg-2011-07-08", "2011-07-08", "2014-07-10"),
        ("tcg", "tcg-2014-07-10", "2014-07-10", "2017-07-20"),
        ("tcg", "tcg-2017-07-20", "2017-07-20", None),
    ]
    assert eras[7]["languages"] == ["en", "fr", "it", "es", "pt", "de"]
    japanese = client.get("/v1/rules/eras", headers={"Accept-Language": "ja"}).json()
    assert japanese[3]["notes"][0]["message"].startswith("エクシーズモンスター（2011-03-19から）、ペンデュラム")


def test_a_list_of_the_other_format_is_refused(client: httpx.Client) -> None:
    response = client.post("/v1/validate", json=request(format="tcg", banlist="ocg-2008-03-01"))
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "banlist"],
            "msg": "ocg-2008-03-01 is a list of the OCG format, and the event's format is tcg.",
            "type": "banlist_format_mismatch",
        }
    ]
    recheck = client.post("/v1/rechecks?format=ocg&banlist=tcg-2024-04-22", content=b'{"id": 1, "ydke": "x"}\n')
    assert recheck.status_code == 422
    assert recheck.json()["errors"][0]["type"] == "banlist_format_mismatch"


def _ydke(*sections: list[int]) -> str:
    parts = [base64.b64encode(struct.pack(f"<{len(s)}I", *s)).decode() for s in sections]
    return "ydke://" + "!".join(parts) + "!"


def test_a_tcg_recheck_uses_the_tcg_list_and_printings(client: httpx.Client) -> None:
    main = [e["passcode"] for e in MAIN_40 for _ in range(e.get("count", 1))]
    extra = [e["passcode"] for e in EXTRA]
    lines = [
        {"id": "legal", "ydke": _ydke(main, extra, [])},
        {"id": "ocg-only", "ydke": _ydke([*main[:-1], 756652], extra, [])},  # Doron has no TCG printing
        {"id": "japanese", "ydke": _ydke(main, extra, []), "default_language": "ja"},
    ]
    body = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    answer = client.post("/v1/rechecks?format=tcg&date=2024-06-01", content=body)
    *results, summary = [orjson.loads(line) for line in answer.content.splitlines()]
    assert [(r["id"], [v["code"] for v in r["violations"]]) for r in results] == [
        ("legal", []),
        ("ocg-only", ["no_tcg_printing"]),
        ("japanese", ["language_not_allowed"]),
    ]
    assert summary["summary"]["banlist"]["id"] == "tcg-2024-04-22"
    ruleset = summary["summary"]["ruleset"]
    assert (ruleset["id"], [note["code"] for note in ruleset["notes"]]) == (
        "tcg-2017-07-20",
        ["later_card_types", "tcg_event"],
    )


def test_a_list_as_lflist_text(client: httpx.Client, data: Data) -> None:
    by_query = client.get("/v1/banlists/tcg-2024-04-22", params={"as": "lflist"})
    by_accept = client.get("/v1/banlists/tcg-2024-04-22", headers={"Accept": "text/plain"})
    assert by_query.headers["content-type"] == by_accept.headers["content-type"] == "text/plain; charset=utf-8"
    assert by_query.text == by_accept.text
    assert by_query.headers["vary"] == by_accept.headers["vary"] == "Accept, Origin"
    assert by_query.text.startswith("#[TCG 2024.04]\n!TCG 2024.04\n#forbidden\n")
    bundled = data.banlists.get("tcg-2024-04-22")
    assert bundled is not None
    assert read_lflist(by_query.text, data.cards).limits == bundled.limits
    as_json = client.get("/v1/banlists/tcg-2024-04-22", headers={"Accept": "application/json, text/plain"})
    assert as_json.headers["content-type"] == "application/json"


def test_an_inline_lflist_names_its_bad_lines(client: httpx.Client) -> None:
    lflist = "!mine\n55144522 0\n12345678 1\nnot a line\n!other\n"
    response = client.post("/v1/validate", json=request(banlist={"lflist": lflist, "list": "mine"}))
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "banlist", "lflist"],
            "msg": "passcode 12345678 is not a known card",
            "type": "unknown_card",
            "line": 3,
        },
        {
            "loc": ["body", "banlist", "lflist"],
            "msg": "expected `passcode count`, got 'not a line'",
            "type": "bad_line",
            "line": 4,
        },
    ]
    unnamed = client.post("/v1/validate", json=request(banlist={"lflist": lflist}))
    assert [e["type"] for e in unnamed.json()["errors"]] == ["list_not_named"]


def test_an_inline_list_names_an_unknown_card(client: httpx.Client) -> None:
    response = client.post("/v1/validate", json=request(banlist={"limited": ["Monster Reborn", "Pot of Greedy"]}))
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "loc": ["body", "banlist", "limited", 1],
            "msg": "no card is called 'Pot of Greedy'",
            "type": "invalid_banlist_entry",
        }
    ]


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_cli_exports_lists_that_read_back(data: Data, tmp_path: Path) -> None:
    code, out, _err = _run("banlist", "export", "--format", "tcg")
    assert code == 0
    tcg = data.banlists.of_format("tcg")
    assert out.count("\n!") == len(tcg) == 47
    for banlist in tcg:
        assert read_lflist(out, data.cards, banlist.name).limits == banlist.limits
    (tmp_path / "tcg.conf").write_text(out, encoding="utf-8")
    code, out, _err = _run("banlist", "diff", f"{tmp_path / 'tcg.conf'}#TCG 2024.04", "tcg-2024-04-22")
    assert (code, out) == (0, "TCG 2024.04 → TCG 2024.04: 0 changes\n")


def test_cli_diff_between_lists(tmp_path: Path) -> None:
    code, out, _err = _run("banlist", "diff", "ocg-2008-03-01", "ocg-2008-09-01", "--json")
    assert code == 0
    body = orjson.loads(out)
    assert (body["from"], body["to"], len(body["changes"])) == ("OCG 2008.03", "OCG 2008.09", 22)
    assert body["changes"][0] == {
        "passcode": 23557835,
        "name": "Dimension Fusion",
        "from": "limited",
        "to": "forbidden",
    }
    code, _out, err = _run("banlist", "diff", "ocg-2008-03-01", str(tmp_path / "missing.conf"))
    assert code == 2
    assert "is neither a bundled list id nor an lflist.conf file" in err


def test_cli_validates_a_tcg_deck_against_an_lflist_file(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(orjson.dumps({"main": MAIN_40, "extra": EXTRA}).decode(), encoding="utf-8")
    lists = tmp_path / "lists.conf"
    lists.write_text("#[a][b]\n!a\n83764718 0 --Monster Reborn\n!b\n", encoding="utf-8")
    code, out, _err = _run(
        "validate",
        str(deck),
        "--format",
        "tcg",
        "--date",
        "2024-06-01",
        "--lflist",
        str(lists),
        "--list",
        "a",
        "--json",
    )
    assert code == 1
    report = orjson.loads(out)[0]
    assert (report["banlist"]["name"], report["ruleset"]["id"]) == ("a", "tcg-2017-07-20")
    assert [v["code"] for v in report["violations"]] == ["forbidden_card"]
    assert _run("validate", str(deck), "--list", "a")[0] == 2
    assert _run("validate", str(deck), "--lflist", str(lists), "--banlist", "ocg-2008-03-01")[0] == 2


def test_cli_export_and_diff_refusals(tmp_path: Path) -> None:
    assert _run("banlist", "export") == (
        2,
        "",
        "deckcheck: name the lists to export, or give --format ocg or --format tcg\n",
    )
    assert _run("banlist", "export", "ocg-1900-01-01") == (
        2,
        "",
        "deckcheck: no bundled list is called 'ocg-1900-01-01'\n",
    )
    code, out, _err = _run("banlist", "export", "ocg-2026-07-01", "--format", "ocg")
    assert (code, out.count("\n!OCG 2026.07\n")) == (0, 1)  # named twice, written once
    broken = tmp_path / "broken.conf"
    broken.write_text("!a\n12345678 0\n!b\n", encoding="utf-8")
    code, _out, err = _run("banlist", "diff", str(broken), "ocg-2008-03-01")
    assert (code, err) == (2, f"deckcheck: {broken}: the file holds 2 lists, name one of: 'a', 'b'\n")
    code, _out, err = _run("banlist", "diff", f"{broken}#a", "ocg-2008-03-01")
    assert (code, err) == (2, f"deckcheck: {broken}: line 2: passcode 12345678 is not a known card\n")


def test_cli_diff_as_text_and_against_a_whitelist(tmp_path: Path) -> None:
    lists = tmp_path / "lists.conf"
    lists.write_text("!mine\n55144522 1\n!only\n$whitelist\n46986414 3\n", encoding="utf-8")
    code, out, _err = _run("banlist", "diff", "ocg-2008-03-01", f"{lists}#mine", "--lang", "ja")
    assert code == 0
    assert out.splitlines()[0] == "OCG 2008.03 → mine：109件の変更"
    (pot,) = [line for line in out.splitlines() if line.startswith("  強欲な壺 ")]
    assert pot.split() == ["強欲な壺", "55144522", "禁止", "→", "制限"]
    code, out, _err = _run("banlist", "diff", f"{lists}#only", f"{lists}#mine", "--json")
    changes = orjson.loads(out)["changes"]
    # Beside a whitelist every card changes, named or not: all but Dark Magician go from 0 to 3, Pot of Greed to 1.
    assert len(changes) == 14215
    assert {"passcode": 55144522, "name": "Pot of Greed", "from": "forbidden", "to": "limited"} in changes


def test_cli_recheck_with_an_lflist_file(tmp_path: Path) -> None:
    stored = tmp_path / "decks.ndjson"
    main = [e["passcode"] for e in MAIN_40 for _ in range(e.get("count", 1))]
    stored.write_text(orjson.dumps({"id": 1, "ydke": _ydke(main, [], [])}).decode() + "\n", encoding="utf-8")
    lists = tmp_path / "lists.conf"
    lists.write_text("!reborn gone\n83764718 0\n", encoding="utf-8")
    code, out, _err = _run("recheck", str(stored), "--date", "2008-06-01", "--lflist", str(lists))
    result, summary = (orjson.loads(line) for line in out.splitlines())
    assert (code, [v["code"] for v in result["violations"]]) == (1, ["forbidden_card"])
    assert summary["summary"]["banlist"]["name"] == "reborn gone"
    code, _out, err = _run("recheck", str(stored), "--lflist", str(tmp_path / "missing.conf"))
    assert code == 2
    assert err.startswith(f"deckcheck: {tmp_path / 'missing.conf'}: ")


def test_a_stored_request_gives_way_to_the_recheck_format(tmp_path: Path) -> None:
    stored = tmp_path / "deck.json"
    stored.write_text(orjson.dumps(request(format="tcg", date="2024-06-01")).decode(), encoding="utf-8")
    code, out, _err = _run("recheck", str(stored), "--format", "tcg", "--date", "2024-06-01")
    result = orjson.loads(out.splitlines()[0])
    assert (code, result["legal"]) == (0, True)


@pytest.mark.parametrize(
    ("banlist", "error"),
    [
        ("{not json", {"loc": ["query", "banlist"], "type": "json_invalid"}),
        (
            '{"forbidden": ["no such card"]}',
            {"loc": ["query", "banlist", "forbidden", 0], "type": "invalid_banlist_entry"},
        ),
        ('{"lflist": 5}', {"loc": ["query", "banlist", "lflist"], "type": "string_type"}),
    ],
)
def test_a_recheck_list_that_cannot_be_read(client: httpx.Client, banlist: str, error: dict[str, object]) -> None:
    response = client.post("/v1/rechecks", params={"banlist": banlist}, content=b'{"id": 1, "ydke": "x"}\n')
    assert response.status_code == 422
    (found,) = response.json()["errors"]
    assert {key: found[key] for key in error} == error


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (
            "english_unknown_first_print_date",
            "「ダークリボー」は2025-11-14の時点で英語版が存在しません（TCG版の初出日は不明、2025-11-15より後）。"
            "存在しない言語版のカードは代用カードです。",
        ),
        (
            "unknown_first_print_date_on_last_day",
            "「雷盟－ステップリーダ」は2025-11-15の時点で日本語版が存在しません（日本語版の初出日は不明、2025-11-15より後）。"
            "日本語版の存在しないカードは使用できません。",
        ),
        (
            "tcg_ocg_only_card",
            "「ドローン」は2024-06-01の時点でTCG版が存在しません（TCG版は未発売）。TCGの大会ではTCGのカードのみ使用できます。",
        ),
        (
            "same_name_two_passcodes_four",
            "「カオス・ソルジャー」（05405694×3、10000100×1）が4枚入っています。"
            "同名カードはデッキ・エクストラデッキ・サイドデッキを合わせて3枚までです。",
        ),
        (
            "pendulum_in_extra",
            "「星読みの魔術師」は融合・シンクロ・エクシーズ・リンクモンスターではないため、エクストラデッキに入れられません。",
        ),
    ],
)
def test_messages_in_japanese(data: Data, case: str, message: str) -> None:
    body, _expected = CASES[case]
    assert run_case(body, data, "ja")["violations"][0]["message"] == message


# Blitzclique - Steppleader: in the data with neither first printing known; Stardust Dragon: both known.
STEPPLEADER, STARDUST_DRAGON = 433377, 44508094


@pytest.mark.parametrize("fmt", ["ocg", "tcg"])
def test_a_card_of_unknown_first_printing_is_printed_only_after_the_data_end(data: Data, fmt: Format) -> None:
    """TR 1 ※: on the day the printing data end the data are complete (no printing may be missing) and a card they
    hold with no printing date had not been printed; from the next day on both turn together: printings may be
    missing, and the card is taken as printed."""
    cards = data.cards
    end = cards.printings_until
    assert end == D("2025-11-15")
    card, known = cards.by_passcode[STEPPLEADER], cards.by_passcode[STARDUST_DRAGON]
    assert (card.ja_first_print, card.ja_first_print_exact, card.tcg_first_print_exact) == (end, False, False)
    for day, printed in ((end - dt.timedelta(days=1), False), (end, False), (end + dt.timedelta(days=1), True)):
        assert printed_in(card, fmt, day) is printed, day
        assert cards.may_lack_printings(day) is printed, day
        assert printed_in(known, fmt, day)  # an exact date is printed on its own day and after
    assert printed_by(end, True, end)
    assert not printed_by(end, False, end)
    assert not printed_by(None, True, end)


@pytest.mark.parametrize(
    ("day", "verdicts"),
    [("2025-11-14", ["illegal", "illegal"]), ("2025-11-15", ["illegal", "illegal"]), ("2025-11-16", ["legal"] * 2)],
)
def test_a_recheck_holds_the_day_the_data_end_as_validate_does(
    client: httpx.Client, day: str, verdicts: list[str]
) -> None:
    """The columnar verdict of a recheck (rules/facts.py) reads the day the printing data end as the engine does:
    the deck holding Steppleader as a plain line of passcodes, and the same deck as a ydke link."""
    main = [*MAIN_40[:-1], {"passcode": STEPPLEADER}]
    passcodes = [entry["passcode"] for entry in main for _ in range(entry.get("count", 1))]
    lines = [
        {"id": "entries", "main": main, "extra": EXTRA},
        {"id": "link", "ydke": _ydke(passcodes, [entry["passcode"] for entry in EXTRA], [])},
    ]
    body = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    answer = client.post("/v1/rechecks", params={"date": day, "banlist": "ocg-2008-03-01"}, content=body)
    *results, _summary = map(orjson.loads, answer.content.splitlines())
    assert [result["verdict"] for result in results] == verdicts
    for result in results:
        codes = [violation["code"] for violation in result["violations"]]
        assert codes == ([] if verdicts == ["legal"] * 2 else ["no_japanese_printing"])
