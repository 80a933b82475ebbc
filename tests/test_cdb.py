"""EDOPro/ygopro card databases (`cards.cdb`): the cards read, the rows skipped and why, and every problem named."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import fields
from pathlib import Path

import pytest

from deckcheck.data.cdb import MAX_BYTES, MAX_PROBLEMS, MAX_VALUE_BYTES, CdbCard, CdbRead, read_cdb
from deckcheck.errors import SourceError

FIXTURE = Path(__file__).resolve().parent.parent / "sources" / "incoming" / "prerelease-dbgv.cdb"
DATAS = "id, ot, alias, setcode, type, atk, def, level, race, attribute, category"
OCG, TCG, BOTH, ANIME, SPEED, PRERELEASE_OCG = 0x1, 0x2, 0x3, 0x4, 0x40, 0x101
EFFECT, NORMAL, SPELL, TRAP = 0x21, 0x11, 0x2, 0x4
SCHEMA = {  # as in EDOPro's cdb files, `desc` quoted
    "datas": ", ".join(f"{column} INTEGER" for column in DATAS.split(", ")),
    "texts": "id INTEGER, name TEXT, [desc] TEXT, " + ", ".join(f"str{n} TEXT" for n in range(1, 17)),
}
Row = tuple[object, int, int, int, str | None]  # id, ot, alias, type, name (None: no row in texts)


def make_cdb(
    path: Path,
    rows: Sequence[Row],
    *,
    tables: Sequence[str] = ("datas", "texts"),
    primary_key: bool = True,
    desc: str = "",
) -> Path:
    """A cdb at `path` of the ygopro schema (every column of both tables), each row's effect text `desc`."""
    key = ", PRIMARY KEY (id)" if primary_key else ""
    with closing(sqlite3.connect(path)) as conn, conn:
        for table in tables:
            conn.execute(f"CREATE TABLE {table} ({SCHEMA[table]}{key})")
        for passcode, ot, alias, type_, name in rows:
            if "datas" in tables:
                conn.execute("INSERT INTO datas VALUES (?, ?, ?, 0, ?, 0, 0, 0, 0, 0, 0)", (passcode, ot, alias, type_))
            if "texts" in tables and name is not None:
                conn.execute(f"INSERT INTO texts VALUES (?, ?, ?{', ?' * 16})", (passcode, name, desc, *[desc] * 16))
    return path


def card(
    passcode: int,
    name: str,
    kind: str = "monster",
    extra: str = "none",
    *,
    alias: int = 0,
    pendulum: bool = False,
    ocg: bool = True,
    tcg: bool = True,
    provisional: bool = False,
) -> CdbCard:
    """A card as read: an OCG and TCG card unless said otherwise."""
    return CdbCard(passcode, alias, name, kind, extra, pendulum, ocg, tcg, provisional)


def problems_of(path: Path, source: str | None = None) -> list[str]:
    """The problems of the SourceError that reading `path` raises, checking the source it names."""
    with pytest.raises(SourceError) as raised:
        read_cdb(path, source)
    assert raised.value.source == (path.name if source is None else source)
    return raised.value.problems


# The fixture's cards in passcode order: 161 (0xa1) is a Ritual Effect Monster, main deck.
FIXTURE_CARDS = [
    *[(100458000 + n, "monster", "none") for n in (1, 2, 3, 4, 5)],
    *[(100458000 + n, "spell", "none") for n in (6, 7, 8)],
    *[(100458000 + n, "trap", "none") for n in (9, 10, 11)],
    *[(100458000 + n, "monster", "none") for n in range(16, 22)],
    (100458022, "monster", "xyz"),
    (100458023, "monster", "xyz"),
    (100458025, "spell", "none"),
    (100458026, "trap", "none"),
    *[(100458000 + n, "monster", "none") for n in range(31, 39)],
    (100458039, "spell", "none"),
    (100458041, "trap", "none"),
]


def test_the_prerelease_fixture_reads_as_31_provisional_ocg_cards() -> None:
    read = read_cdb(FIXTURE)
    assert [(c.passcode, c.kind, c.extra_deck_type) for c in read.cards] == FIXTURE_CARDS
    assert len(read.cards) == 31
    assert read.skipped == ()
    by_passcode = {c.passcode: c for c in read.cards}
    assert by_passcode[100458022].name == "Cielo, the Night Sky of Raise Moon - No More Bets!"
    assert by_passcode[100458023].name == "Raise Moon Hope Squeeze - Jackpot"
    assert by_passcode[100458006] == card(100458006, "Pere-Zenet Em Heru", "spell", tcg=False, provisional=True)
    assert by_passcode[100458011] == card(100458011, "Zenet Thunderfall", "trap", tcg=False, provisional=True)
    assert {(c.alias, c.pendulum, c.ocg, c.tcg, c.provisional) for c in read.cards} == {(0, False, True, False, True)}


def test_extra_deck_types_and_pendulums(tmp_path: Path) -> None:
    rows: list[Row] = [
        (1, BOTH, 0, 0x41, "Fusion"),
        (2, BOTH, 0, 0x2021, "Synchro"),
        (3, BOTH, 0, 0x800021, "Xyz"),
        (4, BOTH, 0, 0x4000021, "Link"),
        (5, BOTH, 0, 0x1000021, "Pendulum Effect"),  # Pendulum alone is main deck
        (6, BOTH, 0, 0x1002021, "Synchro Pendulum"),
        (7, BOTH, 0, 0x1800021, "Xyz Pendulum"),
        (8, BOTH, 0, 0x81, "Ritual"),
        (9, BOTH, 0, 0x82, "Ritual Spell"),  # RITUAL on a spell, not an extra-deck bit anyway
        (10, BOTH, 0, 0x10002, "Quick-Play Spell"),
        (11, BOTH, 0, 0x20004, "Continuous Trap"),
        (12, BOTH, 0, NORMAL, "Normal"),
    ]
    assert read_cdb(make_cdb(tmp_path / "kinds.cdb", rows)) == CdbRead(
        cards=(
            card(1, "Fusion", extra="fusion"),
            card(2, "Synchro", extra="synchro"),
            card(3, "Xyz", extra="xyz"),
            card(4, "Link", extra="link"),
            card(5, "Pendulum Effect", pendulum=True),
            card(6, "Synchro Pendulum", extra="synchro", pendulum=True),
            card(7, "Xyz Pendulum", extra="xyz", pendulum=True),
            card(8, "Ritual"),
            card(9, "Ritual Spell", "spell"),
            card(10, "Quick-Play Spell", "spell"),
            card(11, "Continuous Trap", "trap"),
            card(12, "Normal"),
        ),
        skipped=(),
    )


def test_rows_not_taken_are_listed_with_why(tmp_path: Path) -> None:
    rows: list[Row] = [
        (10, ANIME, 0, EFFECT, "Anime Only"),
        (11, 0x20, 0, SPELL, "Custom Only"),
        (12, 0x200, 0, EFFECT, "Rush Only"),
        (13, SPEED | OCG, 0, 0x8000000, "A Skill"),
        (14, BOTH, 0, 0x4011, "A Token"),
        (15, BOTH, 0, EFFECT, None),  # a row in datas only
        (16, BOTH, 0, EFFECT, "  "),
        (17, BOTH, 0, 0x0, "Typeless"),
        (18, BOTH, 0, EFFECT, "Taken"),
    ]
    path = make_cdb(tmp_path / "skips.cdb", rows)
    with closing(sqlite3.connect(path)) as conn, conn:  # a name with no card is no card
        conn.execute(f"INSERT INTO texts VALUES (99, 'Orphan Text', ''{', NULL' * 16})")
    assert read_cdb(path) == CdbRead(
        cards=(card(18, "Taken"),),
        skipped=(
            (10, "Anime Only", "neither OCG nor TCG (ot 0x4)"),
            (11, "Custom Only", "neither OCG nor TCG (ot 0x20)"),
            (12, "Rush Only", "neither OCG nor TCG (ot 0x200)"),
            (13, "A Skill", "a skill"),
            (14, "A Token", "a token"),
            (15, "", "no name in texts"),
            (16, "  ", "no name in texts"),
            (17, "Typeless", "type 0x0 is not a monster, spell or trap"),
        ),
    )


def test_alternate_artworks_rule_codes_and_scopes(tmp_path: Path) -> None:
    rows: list[Row] = [
        (46986414, BOTH, 0, NORMAL, "Dark Magician"),
        (46986415, BOTH, 46986414, NORMAL, "Dark Magician"),  # alternate artwork: within 20
        (89631141, BOTH, 89631139, NORMAL, "Blue-Eyes White Dragon"),  # its card is not in the file: kept
        (91932350, BOTH, 76812113, NORMAL, "Harpie Lady 1"),  # a rule code (treated as Harpie Lady): own card
        (100, TCG, 0, SPELL, "TCG Only"),
        (101, OCG, 0, TRAP, "OCG Only"),
        (100458001, PRERELEASE_OCG, 0, EFFECT, "Provisional"),
    ]
    assert read_cdb(make_cdb(tmp_path / "alias.cdb", rows)) == CdbRead(
        cards=(
            card(100, "TCG Only", "spell", ocg=False),
            card(101, "OCG Only", "trap", tcg=False),
            card(46986414, "Dark Magician"),
            card(46986415, "Dark Magician", alias=46986414),
            card(89631141, "Blue-Eyes White Dragon", alias=89631139),
            card(91932350, "Harpie Lady 1"),
            card(100458001, "Provisional", tcg=False, provisional=True),
        ),
        skipped=(),
    )


def test_effect_text_is_never_kept_and_the_file_is_left_alone(tmp_path: Path) -> None:
    effect = "Destroy all monsters on the field."
    path = make_cdb(tmp_path / "text.cdb", [(1, BOTH, 0, SPELL, "Raigeki")], desc=effect)
    before = path.read_bytes()
    read = read_cdb(path)
    assert read == CdbRead(cards=(card(1, "Raigeki", "spell"),), skipped=())
    assert effect not in repr(read)
    names = "passcode alias name kind extra_deck_type pendulum ocg tcg provisional"
    assert [f.name for f in fields(CdbCard)] == names.split()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["text.cdb"]  # no journal: opened read-only


def test_values_are_bounded_but_unread_text_costs_nothing(tmp_path: Path) -> None:
    # 16 effect texts of 2 MiB each are never selected, so SQLite's value limit never meets them.
    long_text = make_cdb(tmp_path / "long.cdb", [(1, BOTH, 0, SPELL, "Raigeki")], desc="x" * 2 * MAX_VALUE_BYTES)
    assert read_cdb(long_text) == CdbRead(cards=(card(1, "Raigeki", "spell"),), skipped=())
    long_name = make_cdb(tmp_path / "name.cdb", [(1, BOTH, 0, SPELL, "x" * (MAX_VALUE_BYTES + 1))])
    assert problems_of(long_name) == ["the file is not a readable SQLite database: string or blob too big"]


def test_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "cards.cdb"
    path.write_text("#[2024.1]\n!2024.1\n89631139 3\n")
    assert problems_of(path) == ["the file is not a readable SQLite database: file is not a database"]
    assert problems_of(path, "upload 7") == ["the file is not a readable SQLite database: file is not a database"]


def test_missing_tables_and_columns(tmp_path: Path) -> None:
    only_datas = make_cdb(tmp_path / "datas.cdb", [(1, BOTH, 0, EFFECT, "A")], tables=("datas",))
    assert problems_of(only_datas) == ["the file has no table 'texts'"]
    empty = tmp_path / "empty.cdb"
    empty.touch()  # SQLite reads an empty file as an empty database
    assert problems_of(empty) == ["the file has no table 'datas'", "the file has no table 'texts'"]
    thin = tmp_path / "thin.cdb"
    with closing(sqlite3.connect(thin)) as conn, conn:
        conn.execute("CREATE TABLE datas (id INTEGER, ot INTEGER)")
        conn.execute("CREATE TABLE texts (id INTEGER, name TEXT)")
        conn.execute("CREATE VIEW v AS SELECT 1")
    assert problems_of(thin) == ["table 'datas' lacks the column(s) alias, type"]
    viewed = tmp_path / "viewed.cdb"
    with closing(sqlite3.connect(viewed)) as conn, conn:
        conn.execute(f"CREATE TABLE real_datas ({DATAS})")
        conn.execute("CREATE VIEW datas AS SELECT * FROM real_datas")
        conn.execute("CREATE TABLE texts (id INTEGER, name TEXT)")
    assert problems_of(viewed) == ["the file has no table 'datas'"]


def test_missing_and_oversized_files(tmp_path: Path) -> None:
    assert problems_of(tmp_path / "absent.cdb") == ["the file cannot be read: No such file or directory"]
    huge = tmp_path / "huge.cdb"
    with huge.open("wb") as file:
        file.truncate(MAX_BYTES + 1)  # sparse: no disk is used
    assert problems_of(huge) == ["the file is 67,108,865 bytes, over the 67,108,864 (64 MiB) read"]


def test_nonsense_rows_are_all_named(tmp_path: Path) -> None:
    rows: list[Row] = [
        (0, BOTH, 0, EFFECT, "Zero"),
        (-5, BOTH, 0, EFFECT, "Negative"),
        (1_000_000_000, BOTH, 0, EFFECT, "Ten Digits"),
        (20, BOTH, 0, 0x800041, "Fusion Xyz"),
        (21, BOTH, 0, 0x3, "Monster Spell"),
        (22, BOTH, 22, EFFECT, "Its Own Alternate"),
        (23, -1, 0, EFFECT, "Negative Scope"),
        (24, BOTH, 0, EFFECT, "Twice"),
        (24, BOTH, 0, EFFECT, None),
        (25, ANIME, 0, 0x4002021, "Anime Link Synchro"),  # a row not taken is still checked
        ("abc", BOTH, 0, EFFECT, "Text Passcode"),
    ]
    path = make_cdb(tmp_path / "bad.cdb", rows, primary_key=False)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(f"INSERT INTO datas VALUES (26, 3, 0, 0, 'x{'y' * 40}', 0, 0, 0, 0, 0, 0)")
        conn.execute("INSERT INTO texts (id, name) VALUES (26, X'00')")
    assert problems_of(path) == [
        "id -5: the passcode is not a whole number from 1 to 999,999,999",
        "id 0: the passcode is not a whole number from 1 to 999,999,999",
        "id 20: type 0x800041 is a fusion and xyz monster at once",
        "id 21: type 0x3 is both monster and spell",
        "id 22: alias 22 is not another card's passcode",
        "id 23: ot -1 is not a whole number of 0 or more",
        "id 24: more than one row in datas or texts",
        "id 25: type 0x4002021 is a synchro and link monster at once",
        "id 26: type 'xyyyyyyyyyyyyyyyyyyyyyy… is not a whole number of 0 or more",
        "id 26: the name is not text",
        "id 1000000000: the passcode is not a whole number from 1 to 999,999,999",
        "id 'abc': the passcode is not a whole number from 1 to 999,999,999",
    ]


def test_problems_stop_at_the_cap(tmp_path: Path) -> None:
    rows: list[Row] = [(1_000_000_000 + n, BOTH, 0, EFFECT, f"Card {n}") for n in range(MAX_PROBLEMS + 50)]
    problems = problems_of(make_cdb(tmp_path / "many.cdb", rows))
    assert problems == [
        *[f"id {1_000_000_000 + n}: the passcode is not a whole number from 1 to 999,999,999" for n in range(100)],
        "100 problems found: reading stopped at id 1000000100",
    ]
    # Two problems on each row: the last row's second would be the 101st.
    rows = [(1_000_000_000 + n, -1, 0, EFFECT, f"Card {n}") for n in range(MAX_PROBLEMS // 2)]
    problems = problems_of(make_cdb(tmp_path / "even.cdb", rows))
    assert len(problems) == MAX_PROBLEMS
    rows = [(1_000_000_000 + n, -1, -1, EFFECT, f"Card {n}") for n in range(34)]  # 102 problems
    problems = problems_of(make_cdb(tmp_path / "odd.cdb", rows))
    assert problems[-2:] == [
        "id 1000000033: the passcode is not a whole number from 1 to 999,999,999",
        "100 problems found: those of the last row are cut short",
    ]
    assert len(problems) == MAX_PROBLEMS + 1
