"""The lflist.conf banlist format of ygopro and EDOPro: read, written, and every bad line named."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck import Data
from deckcheck.data.lflist import (
    MAX_PROBLEMS,
    LflistError,
    LflistList,
    LflistProblem,
    read_lflist,
    write_lflist,
)
from deckcheck.errors import InvalidInput
from tests.profiles import examples

FIXTURE = Path(__file__).parent / "fixtures" / "lflist" / "ygopro.conf"
HEADER_NAMES = ["2008.3", "Starter Whitelist"]
OCG_2008_03 = {
    12580477: 0,  # Raigeki
    53129443: 0,  # Dark Hole
    55144522: 0,  # Pot of Greed
    5318639: 1,  # Mystical Space Typhoon
    44095762: 1,  # Mirror Force
    83764718: 1,  # Monster Reborn
    70095154: 2,  # Cyber Dragon
}
STARTER = {89631139: 3, 46986414: 3, 55144522: 1, 83764718: 0}  # 36996508 is an alternate Dark Magician


def _problems(text: str, data: Data, name: str | None = None) -> list[LflistProblem]:
    with pytest.raises(LflistError) as caught:
        read_lflist(text, data.cards, name)
    return caught.value.problems


def _fixture() -> str:
    return FIXTURE.read_bytes().decode("utf-8")  # bytes, so that the CRLF lines reach the reader as written


def list_names(text: str) -> list[str]:
    """The `!` names of an lflist text, in order."""
    return [line[1:].strip() for line in text.split("\n") if line.startswith("!")]


def test_fixture_names_its_lists_in_order() -> None:
    assert list_names(_fixture()) == HEADER_NAMES


def test_fixture_lists_read_by_name(data: Data) -> None:
    text = _fixture()
    assert read_lflist(text, data.cards, "2008.3") == LflistList("2008.3", OCG_2008_03)
    assert read_lflist(text, data.cards, "Starter Whitelist") == LflistList("Starter Whitelist", STARTER, True)


def test_fixture_agrees_with_the_bundled_list(data: Data) -> None:
    bundled = data.banlists.get("ocg-2008-03-01")
    assert bundled is not None
    assert {passcode: bundled.limit(passcode) for passcode in OCG_2008_03} == OCG_2008_03


def test_fixture_without_a_name_is_refused(data: Data) -> None:
    msg = "the file holds 2 lists, name one of: '2008.3', 'Starter Whitelist'"
    assert _problems(_fixture(), data) == [LflistProblem(None, msg, "list_not_named")]


def test_fixture_with_an_unknown_name_is_refused(data: Data) -> None:
    msg = "the file holds no list named '2026.7', only: '2008.3', 'Starter Whitelist'"
    assert _problems(_fixture(), data, "2026.7") == [LflistProblem(None, msg, "unknown_list")]


def test_a_lone_list_needs_no_name_and_bom_and_crlf_change_nothing(data: Data) -> None:
    text = "#[only]\n!only\n55144522 0 --Pot of Greed\n83764718 2\n"
    expected = LflistList("only", {55144522: 0, 83764718: 2})
    assert read_lflist(text, data.cards) == expected
    assert read_lflist("\ufeff" + text.replace("\n", "\r\n"), data.cards) == expected


def test_every_bad_line_is_named(data: Data) -> None:
    text = (
        "#[broken][fine][garbled]\n"
        "55144522 0\n"
        "!broken\n"
        "12345678 0 --no such card\n"
        "83764718 4\n"
        "Pot of Greed 0\n"
        "46986414 1 --Dark Magician\n"
        "36996508 2 --Dark Magician, another artwork\n"
        "55144522 -1\n"
        "!fine\n"
        "55144522 0\n"
        "!garbled\n"
        "the lines of a list not asked for are not read\n"
    )
    outside = LflistProblem(2, "an entry before the first `!name` line", "entry_outside_list")
    assert _problems(text, data, "broken") == [
        outside,
        LflistProblem(4, "passcode 12345678 is not a known card", "unknown_card"),
        LflistProblem(5, "count 4 is not 0, 1, 2 or 3", "bad_count"),
        LflistProblem(6, "expected `passcode count`, got 'Pot of Greed 0'", "bad_line"),
        LflistProblem(8, "card 46986414 (Dark Magician) is listed twice, first on line 7", "repeated_card"),
        LflistProblem(9, "count -1 is not 0, 1, 2 or 3", "bad_count"),
    ]
    assert _problems(text, data, "fine") == [outside]
    garbled = LflistProblem(13, "expected `passcode count`, got 'the lines of a list not …'", "bad_line")
    assert _problems(text, data, "garbled") == [outside, garbled]
    msg = "the file holds 3 lists, name one of: 'broken', 'fine', 'garbled'"
    named = LflistProblem(None, msg, "list_not_named")
    assert _problems(text, data) == [named, outside]


def test_a_file_without_lists_and_a_repeated_list_are_refused(data: Data) -> None:
    assert _problems("#[nothing]\n\n", data) == [
        LflistProblem(None, "the file holds no list: it has no `!name` line", "no_list")
    ]
    text = "!a\n55144522 0\n!b\n83764718 1\n!a\n"
    msg = "the file holds 2 lists named 'a', on lines 1, 5"
    assert _problems(text, data, "a") == [LflistProblem(None, msg, "repeated_list")]
    assert read_lflist(text, data.cards, "b") == LflistList("b", {83764718: 1})


def test_hostile_lines_are_quoted_short(data: Data) -> None:
    text = "!x\n" + "1" * 100_000 + " " + "9" * 100_000 + "\n" + "x" * 100_000 + "\n"
    assert _problems(text, data, "x") == [
        LflistProblem(2, f"count {'9' * 24}… is not 0, 1, 2 or 3", "bad_count"),
        LflistProblem(2, f"passcode {'1' * 24}… is not a known card", "unknown_card"),
        LflistProblem(3, f"expected `passcode count`, got {'x' * 24 + '…'!r}", "bad_line"),
    ]


def test_reading_stops_after_a_hundred_problems(data: Data) -> None:
    text = "junk\n!a\n" + "1 1\n" * 190_000
    problems = _problems(text, data, "a")
    assert problems[0] == LflistProblem(1, "expected `passcode count`, got 'junk'", "bad_line")
    assert problems[1:-1] == [
        LflistProblem(number, "passcode 1 is not a known card", "unknown_card")
        for number in range(3, 3 + MAX_PROBLEMS - 1)
    ]
    msg = f"{MAX_PROBLEMS} problems found: reading stopped at this line"
    assert problems[-1] == LflistProblem(MAX_PROBLEMS + 2, msg, "too_many_problems")


def test_list_names_are_bounded_in_reading_and_in_messages(data: Data) -> None:
    long = "n" * 101
    msg = "a list's name must be 1 to 100 characters, not 101"
    assert _problems(f"!{long}\n55144522 0\n", data) == [LflistProblem(1, msg, "bad_list_name")]
    assert _problems("!\n55144522 0\n", data) == [
        LflistProblem(1, "a list's name must be 1 to 100 characters, not 0", "bad_list_name")
    ]
    many = "".join(f"!{'x' * 30}{number}\n" for number in range(25))
    (problem,) = _problems(many, data)
    assert problem.type == "list_not_named"
    assert problem.msg.endswith(f"{'x' * 24}…' and 5 more")


def test_a_three_is_dropped_from_a_normal_list_and_kept_in_a_whitelist(data: Data) -> None:
    assert read_lflist("!normal\n55144522 3\n83764718 1\n", data.cards) == LflistList("normal", {83764718: 1})
    # EDOPro honours `$whitelist` anywhere in its list, after the entries too.
    whitelist = read_lflist("!white\n55144522 3\n83764718 1\n$whitelist\n", data.cards)
    assert whitelist == LflistList("white", {55144522: 3, 83764718: 1}, whitelist=True)


def test_the_written_text(data: Data) -> None:
    lists = [
        LflistList("2026.7", {83764718: 1, 36996508: 2, 55144522: 0, 89631139: 3}),
        LflistList("Starter", {89631139: 3, 55144522: 0}, whitelist=True),
    ]
    assert write_lflist(lists, data.cards) == (
        "#[2026.7][Starter]\n"
        "!2026.7\n"
        "#forbidden\n"
        "55144522 0 --Pot of Greed\n"
        "#limited\n"
        "83764718 1 --Monster Reborn\n"
        "#semi-limited\n"
        "46986414 2 --Dark Magician\n"
        "!Starter\n"
        "$whitelist\n"
        "#forbidden\n"
        "55144522 0 --Pot of Greed\n"
        "#limited\n"
        "#semi-limited\n"
        "#unlimited\n"
        "89631139 3 --Blue-Eyes White Dragon\n"
    )


CANNOT = ": empty, padded, or holding a line break or `]`"


@pytest.mark.parametrize(
    ("lists", "msg"),
    [
        ([LflistList("a]b", {})], "list name 'a]b' cannot be written" + CANNOT),
        ([LflistList("a\nb", {})], "list name 'a\\nb' cannot be written" + CANNOT),
        ([LflistList("a\r", {})], "list name 'a\\r' cannot be written" + CANNOT),
        ([LflistList(" a", {})], "list name ' a' cannot be written" + CANNOT),
        ([LflistList("", {})], "list name '' cannot be written" + CANNOT),
        (
            [LflistList("a", {}), LflistList("a", {})],
            "two lists named 'a' cannot be written: the reader refuses a repeated name",
        ),
        ([LflistList("a", {12345678: 0})], "a: passcode 12345678 is not a known card"),
        ([LflistList("a", {46986414: 0, 36996508: 1})], "a: card 46986414 (Dark Magician) is listed twice"),
        ([LflistList("a", {55144522: 4})], "a: count 4 of card 55144522 is not 0, 1, 2 or 3"),
    ],
)
def test_what_cannot_be_written_is_refused(data: Data, lists: list[LflistList], msg: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        write_lflist(lists, data.cards)
    assert str(caught.value) == msg


def test_every_bundled_list_round_trips(data: Data) -> None:
    assert data.banlists.lists
    as_lflist = [LflistList(banlist.name, banlist.limits) for banlist in data.banlists.lists]
    changed = [
        lflist.name for lflist in as_lflist if read_lflist(write_lflist([lflist], data.cards), data.cards) != lflist
    ]
    assert changed == []
    text = write_lflist(as_lflist, data.cards)
    assert list_names(text) == [lflist.name for lflist in as_lflist]
    assert [read_lflist(text, data.cards, lflist.name) for lflist in as_lflist] == as_lflist


names = st.text(st.characters(exclude_categories=("Cs", "Cc"), exclude_characters="]"), min_size=1, max_size=20)


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(
    draw=st.data(), list_names_=st.lists(names.filter(lambda n: n == n.strip()), min_size=1, max_size=3, unique=True)
)
def test_random_lists_round_trip(data: Data, draw: st.DataObject, list_names_: list[str]) -> None:
    canonical = sorted(data.cards.aliases)
    lists = [
        LflistList(
            name,
            draw.draw(st.dictionaries(st.sampled_from(canonical), st.integers(0, 3), max_size=30)),
            draw.draw(st.booleans()),
        )
        for name in list_names_
    ]
    text = write_lflist(lists, data.cards)
    assert write_lflist(lists, data.cards) == text
    assert list_names(text) == list_names_
    expected = [
        LflistList(lflist.name, {p: n for p, n in lflist.limits.items() if lflist.whitelist or n < 3}, lflist.whitelist)
        for lflist in lists
    ]
    assert [read_lflist(text, data.cards, name) for name in list_names_] == expected
