"""Deck formats: .ydk, ydke:// and plain text, read and written, with every bad line named."""

from __future__ import annotations

import base64
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck import Data, Deck, Entry
from deckcheck.formats import DeckFormatError, FormatError, parse_text, parse_ydk, parse_ydke, write, write_ydke
from deckcheck.model import SECTIONS
from deckcheck.rules import resolve_entry
from tests.profiles import examples

YDK = """#created by someone
#main
46986414
46986414
46986414

# a comment
55144522
#extra
44508094
!side
36996508
"""


def test_ydk_sections_comments_and_consecutive_copies() -> None:
    assert parse_ydk(YDK) == Deck(
        main=(Entry(46986414, count=3, lines=(3, 4, 5)), Entry(55144522, lines=(8,))),
        extra=(Entry(44508094, lines=(10,)),),
        side=(Entry(36996508, lines=(12,)),),
    )


def test_ydk_with_bom_and_crlf() -> None:
    assert parse_ydk("\ufeff" + YDK.replace("\n", "\r\n")) == parse_ydk(YDK)


def test_ydk_keeps_sections_as_written() -> None:
    # A Synchro under #main stays in the main deck: a placement violation for the rules, never moved.
    assert parse_ydk("#main\n44508094\n").main == (Entry(44508094, lines=(2,)),)


def test_ydk_refuses_stray_lines_with_their_numbers() -> None:
    with pytest.raises(DeckFormatError) as caught:
        parse_ydk("#main\n46986414\nPot of Greed\n  12x\n1234567890\n")
    assert caught.value.problems == [
        FormatError("'Pot of Greed' is not a passcode", "not_a_passcode", 3, 1),
        FormatError("'12x' is not a passcode", "not_a_passcode", 4, 3),
        FormatError("'1234567890' is not a passcode", "not_a_passcode", 5, 1),
    ]


def test_ydk_refuses_cards_before_a_section() -> None:
    with pytest.raises(DeckFormatError) as caught:
        parse_ydk("46986414\n#main\n")
    assert caught.value.problems == [
        FormatError("a card before any #main, #extra or !side line", "card_outside_section", 1, 1)
    ]


def test_ydk_line_limits() -> None:
    with pytest.raises(DeckFormatError) as caught:
        parse_ydk("#main\n" + "46986414\n" * 2000)
    assert [e.type for e in caught.value.problems] == ["too_many_lines"]
    with pytest.raises(DeckFormatError) as caught:
        parse_ydk("#main\n" + "4" * 501 + "\n")
    assert caught.value.problems == [FormatError("line longer than 500 characters", "line_too_long", 2, 501)]


def _b64(*passcodes: int, urlsafe: bool = False) -> str:
    raw = struct.pack(f"<{len(passcodes)}I", *passcodes)
    return (base64.urlsafe_b64encode if urlsafe else base64.b64encode)(raw).decode()


def test_ydke_standard_and_urlsafe_alphabets() -> None:
    # 83764718 encodes to bytes whose base64 holds '+' or '/' in one alphabet and '-' or '_' in the other.
    main = (46986414, 46986414, 83764718)
    for urlsafe in (False, True):
        link = f"ydke://{_b64(*main, urlsafe=urlsafe)}!{_b64(44508094, urlsafe=urlsafe)}!!"
        assert parse_ydke(link) == Deck(main=(Entry(46986414, count=2), Entry(83764718)), extra=(Entry(44508094),))
    assert parse_ydke(f"ydke://{_b64(*main)}!!") == parse_ydke(f"ydke://{_b64(*main)}!!!")


@pytest.mark.parametrize(
    ("link", "error"),
    [
        ("https://example.invalid", FormatError("a ydke link starts with ydke://", "not_ydke", part="link")),
        ("ydke://AAAA!", FormatError("a ydke link has 3 parts, this one 2", "ydke_parts", part="link")),
        ("ydke://!!!!", FormatError("a ydke link has 3 parts, this one 5", "ydke_parts", part="link")),
        ("ydke://!%%%!", FormatError("extra: not base64", "ydke_base64", part="extra")),
        (
            "ydke://!!AAAAAAA=",
            FormatError("side: 5 bytes is not a whole number of passcodes", "ydke_length", part="side"),
        ),
        ("ydke://AAA!!", FormatError("main: 2 bytes is not a whole number of passcodes", "ydke_length", part="main")),
    ],
)
def test_ydke_errors_name_the_part(link: str, error: FormatError) -> None:
    with pytest.raises(DeckFormatError) as caught:
        parse_ydke(link)
    assert caught.value.problems == [error]


TEXT = """Main Deck (40)
3 Pot of Greed
3x 強欲な壺
Dark Magician x3
55144522
３　ブラック・マジシャン
7 Colored Fish
2x 7 Colored Fish
// a comment
# another comment
Monsters
3 xx-Saber Boggart Knight

エクストラデッキ（1枚）
ｽﾀｰﾀﾞｽﾄ･ﾄﾞﾗｺﾞﾝ
Side Deck:
２ 46986414
"""


def test_text_forms(data: Data) -> None:
    deck = parse_text(TEXT, data.cards)
    assert deck.main == (
        Entry(name="Pot of Greed", count=3, lines=(2,)),
        Entry(name="強欲な壺", count=3, lines=(3,)),
        Entry(name="Dark Magician", count=3, lines=(4,)),
        Entry(55144522, lines=(5,)),
        Entry(name="ブラック・マジシャン", count=3, lines=(6,)),
        Entry(name="7 Colored Fish", count=1, lines=(7,)),
        Entry(name="7 Colored Fish", count=2, lines=(8,)),
        Entry(name="xx-Saber Boggart Knight", count=3, lines=(12,)),
    )
    assert deck.extra == (Entry(name="スターダスト・ドラゴン", lines=(15,)),)
    assert deck.side == (Entry(46986414, count=2, lines=(17,)),)
    assert all(resolve_entry(e, data.cards)[0] is not None for s in SECTIONS for e in deck.section(s))


def test_text_without_headings_is_main(data: Data) -> None:
    assert parse_text("1 Pot of Greed\n", data.cards) == Deck(main=(Entry(name="Pot of Greed", lines=(1,)),))


def test_text_refuses_counts_out_of_range(data: Data) -> None:
    with pytest.raises(DeckFormatError) as caught:
        parse_text("Main\n0 Pot of Greed\n100 Dark Magician\n", data.cards)
    assert caught.value.problems == [
        FormatError("a count must be from 1 to 99, not 0", "bad_count", 2, 1),
        FormatError("a count must be from 1 to 99, not 100", "bad_count", 3, 1),
    ]


JAPANESE_TEXT = """【メインデッキ】（40枚）
《ブラック・マジシャン》×3
《強欲な壺》
2 《サイクロン》
灰流うらら 3枚
増殖するＧ ３枚
ブラック・マジシャン・ガール×2枚
墓穴の指名者　×３
〔エクストラデッキ 2枚〕
《Ｎｏ．３９ 希望皇ホープ》
スターダスト・ドラゴン ✕1
［サイドデッキ］
無限泡影 ｘ2
＜メインデッキ＞
46986414
"""


def test_text_japanese_forms(data: Data) -> None:
    # Names are kept as the line gives them, folded to plain width and without their 《》.
    assert parse_text(JAPANESE_TEXT, data.cards) == Deck(
        main=(
            Entry(name="ブラック・マジシャン", count=3, lines=(2,)),
            Entry(name="強欲な壺", lines=(3,)),
            Entry(name="サイクロン", count=2, lines=(4,)),
            Entry(name="灰流うらら", count=3, lines=(5,)),
            Entry(name="増殖するG", count=3, lines=(6,)),
            Entry(name="ブラック・マジシャン・ガール", count=2, lines=(7,)),
            Entry(name="墓穴の指名者", count=3, lines=(8,)),
            Entry(46986414, lines=(15,)),
        ),
        extra=(
            Entry(name="No.39 希望皇ホープ", lines=(10,)),
            Entry(name="スターダスト・ドラゴン", lines=(11,)),
        ),
        side=(Entry(name="無限泡影", count=2, lines=(13,)),),
    )


@pytest.mark.parametrize(
    ("heading", "section"),
    [
        ("【メインデッキ】", "main"),
        ("【メインデッキ】（40枚）", "main"),
        ("【メインデッキ 40枚】", "main"),
        ("【メインデッキ：40】", "main"),
        ("＜メインデッキ＞", "main"),
        ("【モンスター】 20枚", "main"),
        ("【魔法カード】（12枚）", "main"),
        ("罠カード", "main"),
        ("＜モンスターカード＞", "main"),
        ("〔エクストラデッキ〕", "extra"),
        ("【EXデッキ】（15枚）", "extra"),
        ("［サイドデッキ］", "side"),
        ("[Side Deck] (15)", "side"),
        ("〔サイドデッキ〕15枚", "side"),
    ],
)
def test_text_bracketed_headings(data: Data, heading: str, section: str) -> None:
    before = "Main Deck" if section == "extra" else "Extra Deck"
    deck = parse_text(f"{before}\n{heading}\n強欲な壺\n", data.cards)
    assert deck == Deck(**{section: (Entry(name="強欲な壺", lines=(3,)),)})


@pytest.mark.parametrize(
    ("line", "count", "name", "passcode"),
    [
        ("《ブラック・マジシャン》×3", 3, "ブラック・マジシャン", 46986414),
        ("《ブラック・マジシャン》", 1, "ブラック・マジシャン", 46986414),
        ("3 《ブラック・マジシャン》", 3, "ブラック・マジシャン", 46986414),
        ("3《ブラック・マジシャン》", 3, "ブラック・マジシャン", 46986414),
        ("《ブラック・マジシャン》2", 2, "ブラック・マジシャン", 46986414),
        ("《ブラック・マジシャン》 3枚", 3, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン 3枚", 3, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン ３枚", 3, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン×3枚", 3, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン ×3", 3, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン　×３", 3, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン ✕2", 2, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン ｘ2", 2, "ブラック・マジシャン", 46986414),
        ("ブラック・マジシャン Ｘ2", 2, "ブラック・マジシャン", 46986414),
        ("２枚　強欲な壺", 2, "強欲な壺", 55144522),
        ("《スターダスト・ドラゴン》＊１", 1, "スターダスト・ドラゴン", 44508094),
        ("Pot of Greed X3", 3, "Pot of Greed", 55144522),
        ("3X Pot of Greed", 3, "Pot of Greed", 55144522),
        # Names that hold brackets, digits, times signs or 枚 still read as one card, with or without a count.
        ("ふわんだりぃず×とっかん", 1, "ふわんだりぃず×とっかん", 17827173),
        ("ふわんだりぃず×とっかん×2", 2, "ふわんだりぃず×とっかん", 17827173),
        ("驚楽園の助手 ＜Ｄｅｌｉａ＞", 1, "驚楽園の助手 <Delia>", 22662014),
        ("《驚楽園の助手 <Delia>》 ×2", 2, "驚楽園の助手 <Delia>", 22662014),
        ("運命の一枚 3枚", 3, "運命の一枚", 74191528),
        ("火炎木人１８", 1, "火炎木人18", 5464695),
        ("《火炎木人18》×2", 2, "火炎木人18", 5464695),
        ("火炎木人182枚", 2, "火炎木人18", 5464695),
        ("Armed Dragon LV33枚", 3, "Armed Dragon LV3", 980973),
        ("Andro Sphinx 3枚", 3, "Andro Sphinx", 15013468),
        ("7 Colored Fish x3", 3, "7 Colored Fish", 23771716),
        # Of two readings that both name a card, the one a deck may hold (at most three copies) wins.
        ("Harpie Lady 23枚", 3, "Harpie Lady 2", 27927359),
        ("Deskbot 0053枚", 3, "Deskbot 005", 10117149),
        # No card: the first reading stands, and the deck reports its name.
        ("《No Such Card》×3", 3, "No Such Card", None),
        # A bare number after a name is a count only where the line without it names a card (tests/test_names.py).
        ("No Such Card 3", 1, "No Such Card 3", None),
        ("【メインデッキ】 ブラック・マジシャン", 1, "【メインデッキ】 ブラック・マジシャン", None),
        ("2 《ブラック・マジシャン》 ×3", 2, "《ブラック・マジシャン》 ×3", None),
    ],
)
def test_text_card_lines(data: Data, line: str, count: int, name: str, passcode: int | None) -> None:
    assert parse_text(line, data.cards) == Deck(main=(Entry(name=name, count=count, lines=(1,)),))
    card = data.cards.find_name(name)
    assert (card.passcode if card else None) == passcode


def test_text_refuses_japanese_counts_out_of_range(data: Data) -> None:
    text = (
        "【メインデッキ】\nブラック・マジシャン 0枚\n《強欲な壺》×100\n　ブラック・マジシャン 100枚\n3 《強欲な壺》\n"
    )
    with pytest.raises(DeckFormatError) as caught:
        parse_text(text, data.cards)
    assert caught.value.problems == [
        FormatError("a count must be from 1 to 99, not 0", "bad_count", 2, 1),
        FormatError("a count must be from 1 to 99, not 100", "bad_count", 3, 1),
        FormatError("a count must be from 1 to 99, not 100", "bad_count", 4, 2),
    ]


def test_text_reads_hostile_lines_in_one_pass(data: Data) -> None:
    # 2,000 lines of 500 characters (1 MB) that a backtracking pattern would take minutes over: each is one unknown
    # card, read by scanning. A run of colons took the old heading pattern cubic time.
    nasty = {
        ":" * 499 + "x": (1, ":" * 499 + "x"),
        "《" * 500: (1, "《" * 500),
        "《" * 250 + "》" * 250: (1, "《" * 249 + "》" * 249),
        "×" * 500: (1, "×" * 500),
        "x1" * 250: (1, "x1" * 249),
        "1×" * 250: (1, "1×" * 249),
        "【" + ":" * 498 + "】": (1, "【" + ":" * 498 + "】"),
    }
    lines = [list(nasty)[number % len(nasty)] for number in range(2000)]
    assert all(len(line) == 500 for line in lines)
    deck = parse_text("\n".join(lines), data.cards)
    expected = (Entry(name=nasty[line][1], count=nasty[line][0], lines=(n,)) for n, line in enumerate(lines, 1))
    assert deck == Deck(main=tuple(expected))


def test_written_forms(data: Data) -> None:
    deck = Deck(main=(Entry(46986414, count=2), Entry(name="強欲な壺")), extra=(Entry(44508094),))
    assert (
        write("ydk", deck, data.cards)
        == "#created by deckcheck\n#main\n46986414\n46986414\n55144522\n#extra\n44508094\n!side\n"
    )
    assert write("text", deck, data.cards, "ja") == (
        "メインデッキ\n2 ブラック・マジシャン\n1 強欲な壺\n\n"
        "エクストラデッキ\n1 スターダスト・ドラゴン\n\nサイドデッキ\n"
    )
    assert write("text", deck, data.cards) == (
        "Main Deck\n2 Dark Magician\n1 Pot of Greed\n\nExtra Deck\n1 Stardust Dragon\n\nSide Deck\n"
    )
    assert write_ydke(deck, data.cards) == f"ydke://{_b64(46986414, 46986414, 55144522)}!{_b64(44508094)}!!"


def test_a_name_two_cards_share_is_written_by_passcode(data: Data) -> None:
    # Black Luster Soldier is both the ritual monster and the 1999 prize card (placeholder passcode 10000100).
    assert (
        write("text", Deck(main=(Entry(10000100),)), data.cards) == "Main Deck\n1 10000100\n\nExtra Deck\n\nSide Deck\n"
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_name_that_reads_as_a_passcode_is_written_by_passcode(data: Data, lang: str) -> None:
    # The card named 7 (７ in Japanese): "1 7" would read back as passcode 7, which is no card.
    deck = Deck(side=(Entry(67048711),))
    text = write("text", deck, data.cards, lang)
    assert text.splitlines()[-1] == "1 67048711"
    assert parse_text(text, data.cards).side[0][:3] == (67048711, None, 1)


def test_unknown_cards_cannot_be_written(data: Data) -> None:
    with pytest.raises(DeckFormatError, match="No Such Card is not an official card"):
        write("ydk", Deck(main=(Entry(name="No Such Card"),)), data.cards)


@st.composite
def decks(draw: st.DrawFn, passcodes: list[int]) -> Deck:
    """Decks of real cards: distinct cards per section (adjacent copies of one card merge into one entry)."""
    sections = []
    for _ in SECTIONS:
        codes = draw(st.lists(st.sampled_from(passcodes), unique=True, max_size=12))
        sections.append(tuple(Entry(code, count=draw(st.integers(1, 5))) for code in codes))
    return Deck(*sections)


def _passcodes(deck: Deck, data: Data) -> list[list[tuple[int, int]]]:
    """Each entry's passcode as given, or the passcode of the card its name names."""
    out = []
    for section in SECTIONS:
        codes = []
        for entry in deck.section(section):
            card = resolve_entry(entry, data.cards)[0]
            codes.append((entry.passcode if entry.passcode is not None else card.passcode if card else -1, entry.count))
        out.append(codes)
    return out


def _without_lines(deck: Deck) -> Deck:
    return Deck(*(tuple(Entry(e.passcode, e.name, e.count) for e in deck.section(s)) for s in SECTIONS))


@pytest.fixture(scope="module")
def all_passcodes(data: Data) -> list[int]:
    return sorted(data.cards.by_passcode)


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(data=st.data())
def test_round_trips_are_lossless(
    all_passcodes: list[int], data: st.DataObject, request: pytest.FixtureRequest
) -> None:
    cards_data: Data = request.getfixturevalue("data")
    deck = data.draw(decks(all_passcodes))
    assert _without_lines(parse_ydk(write("ydk", deck, cards_data.cards))) == deck
    assert parse_ydke(write("ydke", deck, cards_data.cards)) == deck
    for lang in ("en", "ja"):
        text = write("text", deck, cards_data.cards, lang)
        assert _passcodes(parse_text(text, cards_data.cards), cards_data) == _passcodes(deck, cards_data), text
