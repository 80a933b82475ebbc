"""Konami's official OCG list CSV: every name resolved to one card, in UTF-8 and CP932, and every bad row named."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from deckcheck import Data
from deckcheck.data.konami import MAX_PROBLEMS, read_konami_csv
from deckcheck.errors import SourceError

INCOMING = Path(__file__).resolve().parent.parent / "sources" / "incoming"
FIXTURES = [("konami-ocg-2025-04.csv", "ocg-2025-04-01"), ("konami-ocg-2021-10.csv", "ocg-2021-10-01")]
# The one character of each fixture that CP932 lacks: 琰 of 琰魔竜王 レッド・デーモン・カラミティ, 璣 of 炎舞－「天璣」.
NOT_CP932 = {"konami-ocg-2025-04.csv": "琰", "konami-ocg-2021-10.csv": "璣"}
HEADER = "$,$,カード種別,カード名,カード名,\r\n"
EXPECTED_HEADER = "expected a first line '$,$,カード種別,カード名,カード名,' or '20210,カード種別,カード名,カード名,'"
COLUMNS = "expected 5 columns (status, card kind, Japanese name, English name, change note)"


def _problems(text: str, data: Data, raw: bytes | None = None) -> list[str]:
    with pytest.raises(SourceError) as caught:
        read_konami_csv(text.encode() if raw is None else raw, data.cards, "list.csv")
    assert caught.value.source == "list.csv"
    return caught.value.problems


def _bundled(data: Data, list_id: str) -> dict[int, int]:
    banlist = data.banlists.get(list_id)
    assert banlist is not None
    return dict(banlist.limits)


@pytest.mark.parametrize(("file", "list_id"), FIXTURES)
def test_fixture_imports_as_the_bundled_list(data: Data, file: str, list_id: str) -> None:
    raw = (INCOMING / file).read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n")  # CRLF, as Konami writes it
    assert read_konami_csv(raw, data.cards) == _bundled(data, list_id)


@pytest.mark.parametrize(("file", "list_id"), FIXTURES)
def test_fixture_imports_from_utf8_with_bom(data: Data, file: str, list_id: str) -> None:
    raw = codecs.BOM_UTF8 + (INCOMING / file).read_bytes()
    assert read_konami_csv(raw, data.cards) == _bundled(data, list_id)


@pytest.mark.parametrize(("file", "list_id"), FIXTURES)
def test_fixture_imports_from_cp932(data: Data, file: str, list_id: str) -> None:
    # Each fixture holds one kanji CP932 cannot write; written as `?`, that row's card is found by its English name.
    text = (INCOMING / file).read_bytes().decode("utf-8")
    missing = {char for char in text if char.encode("cp932", errors="replace") == b"?" and char != "?"}
    assert missing == {NOT_CP932[file]}
    raw = text.encode("cp932", errors="replace")
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")  # the reader falls back to CP932
    assert read_konami_csv(raw, data.cards) == _bundled(data, list_id)


def test_rows_give_limits_and_released_cards_are_left_out(data: Data) -> None:
    text = (
        "20210,カード種別,カード名,カード名,\r\n"
        "禁止,魔法,強欲な壺,POT OF GREED,\r\n"
        ",,,,\r\n"
        "\r\n"
        "制限,効果/モンスター,焔征竜－ブラスター,BLASTER，DRAGON RULER OF INFERNOS,禁止⇒制限\r\n"
        "準制限,魔法,,RAIGEKI,\r\n"
        "解除,魔法,死者蘇生,MONSTER REBORN,制限⇒解除\r\n"
    )
    assert read_konami_csv(text.encode(), data.cards) == {55144522: 0, 53804307: 1, 12580477: 2}


def test_unknown_names_are_refused_with_the_closest(data: Data) -> None:
    text = (
        HEADER
        + "禁止,魔法,強欲な壺,POT OF GREED,\r\n\r\n禁止,魔法,強欲な壷,POT OF GREEDY,\r\n解除,魔法,青眼の白竜,,\r\n"
    )
    assert _problems(text, data) == [
        "line 4: no card is named '強欲な壷' or 'POT OF GREEDY'; "
        "closest: Pot of Greed (55144522), 強欲な瓶 (83968380), Moray of Greed (22123627)",
        # The search folds 竜 and 龍 (data/names.py), so the names that hold 青眼の白龍 whole come first.
        "line 5: no card is named '青眼の白竜'; "
        "closest: 青眼の白龍 (89631139), Ｓｉｎ 青眼の白龍 (9433350), 白き幻獣－青眼の白龍 (30397786)",
    ]


def test_names_of_two_cards_are_refused(data: Data) -> None:
    assert _problems(HEADER + "禁止,魔法,強欲な壺,DARK HOLE,\r\n", data) == [
        "line 2: the names are of two cards: '強欲な壺' is 55144522 (強欲な壺 / Pot of Greed), "
        "'DARK HOLE' is 53129443 (ブラック・ホール / Dark Hole)"
    ]


def test_a_card_listed_twice_is_refused(data: Data) -> None:
    text = HEADER + "禁止,魔法,強欲な壺,POT OF GREED,\r\n,,,,\r\n解除,魔法,,POT OF GREED,準制限⇒解除\r\n"
    assert _problems(text, data) == ["line 4: card 55144522 (強欲な壺 / Pot of Greed) is listed twice, first on line 2"]


def test_bad_status_and_columns_are_refused(data: Data) -> None:
    text = HEADER + "禁制,魔法,強欲な壺,POT OF GREED,\r\n禁止,魔法,ブラック・ホール\r\n禁止,魔法,,,\r\n"
    assert _problems(text, data) == [
        "line 2: unknown status '禁制', expected one of 禁止, 制限, 準制限, 解除",
        f"line 3: {COLUMNS}, got 3",
        "line 4: the row gives no card name",
    ]


def test_a_bad_first_line_is_refused(data: Data) -> None:
    text = "禁止,魔法,強欲な壺,POT OF GREED,\r\n制限,魔法,死者蘇生,MONSTER REBORN,\r\n"
    assert _problems(text, data) == [f"line 1: {EXPECTED_HEADER}, got '禁止,魔法,強欲な壺,POT OF GREED,'"]


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("", ["line 1: the file ends before any card is listed"]),
        (HEADER + ",,,,\r\n\r\n", ["line 4: the file ends before any card is listed"]),
        (
            "禁止,魔法,強欲な壺,POT OF GREED,\r\n",
            [
                f"line 1: {EXPECTED_HEADER}, got '禁止,魔法,強欲な壺,POT OF GREED,'",
                "line 2: the file ends before any card is listed",
            ],
        ),
    ],
)
def test_a_file_listing_no_card_is_refused(data: Data, text: str, problems: list[str]) -> None:
    assert _problems(text, data) == problems


def test_a_quoted_line_break_keeps_the_line_numbers(data: Data) -> None:
    text = HEADER + '禁止,魔法,"強欲な壺\r\n",POT OF GREED,\r\n禁制,魔法,死者蘇生,MONSTER REBORN,\r\n'
    assert _problems(text, data) == ["line 4: unknown status '禁制', expected one of 禁止, 制限, 準制限, 解除"]


def test_text_neither_utf8_nor_cp932_is_refused(data: Data) -> None:
    raw = HEADER.encode() + "禁止,魔法,強欲な壺,POT OF GREED,\r\n".encode("cp932") + b"\x82"
    assert _problems("", data, raw) == ["line 3: byte 0x82 is neither UTF-8 nor CP932 (Shift_JIS) text"]


def test_utf8_decoded_as_cp932_fails_on_the_header(data: Data) -> None:
    raw = HEADER.encode() + b"\xe3\x81\r\n"  # a UTF-8 file cut inside a character: read as CP932, it is mojibake
    assert _problems("", data, raw) == [
        f"line 1: {EXPECTED_HEADER}, got '$,$,繧ｫ繝ｼ繝臥ｨｮ蛻･,繧ｫ繝ｼ繝牙錐,繧ｫ繝ｼ繝牙錐,'",
        f"line 2: {COLUMNS}, got 1",
    ]


def test_reading_stops_after_max_problems(data: Data) -> None:
    problems = _problems(HEADER + "禁制\r\n" * (MAX_PROBLEMS + 50), data)
    assert problems == [
        *(f"line {number}: {COLUMNS}, got 1" for number in range(2, MAX_PROBLEMS + 2)),
        f"line {MAX_PROBLEMS + 2}: {MAX_PROBLEMS} problems found: reading stopped at this line",
    ]


def test_a_hostile_name_is_clipped(data: Data) -> None:
    name = "X" * 100_000
    problems = _problems(f"{HEADER}禁止,魔法,{name},,\r\n", data)
    assert len(problems) == 1
    assert problems[0].startswith(f"line 2: no card is named '{'X' * 80}…'; closest: ")
    assert len(problems[0]) < 400


def test_a_cell_past_the_csv_field_limit_is_refused(data: Data) -> None:
    text = f"{HEADER}禁止,魔法,{'X' * 200_000},,\r\n禁制,魔法,死者蘇生,MONSTER REBORN,\r\n"
    assert _problems(text, data) == ["line 2: field larger than field limit (131072)"]
