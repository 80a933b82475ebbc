"""Golden cases for formats and rule eras, and for three readings of the rules: cards of one name under two
passcodes (同名カード), cards in a language they were not yet printed in (TR 3 代用カード), and lists given inline by
name or as lflist.conf text."""

from __future__ import annotations

from typing import Any

from tests.decks import EXTRA, EXTRA_15, Expected, main_with, request

ACCESSCODE_TALKER, UTOPIA = 86066372, 84013237  # a Link Monster (2020) and an Xyz Monster (Number 39, 2011-03-19)
DECODE_TALKER = 1861629  # the first Link Monsters were printed 2017-03-25 (OCG), 2017-07-20 (TCG)
STARGAZER = 94415058  # Stargazer Magician: a Pendulum Effect Monster, among the first Pendulum cards (2014-03-21)
ODD_EYES_REBELLION = 45627618  # an Xyz Pendulum Monster: extra deck
DORON = 756652  # an OCG-only card
DARKURIBOH = 1035143  # first printed in Japanese 2025-03-19; its first TCG printing is unknown
LUNALIGHT_SCARLET_TIGER = 11876803  # a TCG-only card newer than the printing data: its first TCG printing is unknown
BLACK_LUSTER_SOLDIER, BLACK_LUSTER_SOLDIER_PRIZE = 5405694, 10000100  # both カオス・ソルジャー
STARDUST_DRAGON, FLAME_WINGMAN = 44508094, 35809262
OPAQUE = {"used": True, "opaque_back": True, "uniform": True}
MODERN_MAIN = main_with({"passcode": STARGAZER}, drop=1)
MODERN_EXTRA = [{"passcode": ACCESSCODE_TALKER}, {"passcode": UTOPIA}]

# The base deck (tests/decks.py) as Japanese lists write it.
TEXT_BRACKETS = """【メインデッキ】（40枚）
《ブラック・マジシャン》×3
《熟練の黒魔術師》×3
《ヂェミナイ・エルフ》×3
《ブラッド・ヴォルス》×3
《巨大ネズミ》×3
《キラー・トマト》×3
《マジシャンズ・ヴァルキリア》×3
《見習い魔術師》×3
《ビッグ・シールド・ガードナー》×3
《エネミーコントローラー》×3
《炸裂装甲》×3
《奈落の落とし穴》×3
《ディメンション・マジック》×3
《死者蘇生》
【エクストラデッキ】（2枚）
《スターダスト・ドラゴン》
《Ｅ・ＨＥＲＯ フレイム・ウィングマン》
【サイドデッキ】（8枚）
《千本ナイフ》×3
《次元幽閉》×3
《収縮》×2
"""
# Counts in 枚 and ×, full-width, and Pot of Greed (Forbidden) in place of a Magical Dimension.
TEXT_MAI = """〔メインデッキ 40枚〕
ブラック・マジシャン ３枚
熟練の黒魔術師 ３枚
ヂェミナイ・エルフ　×３
ブラッド・ヴォルス×3枚
巨大ネズミ 3枚
キラー・トマト ｘ3
マジシャンズ・ヴァルキリア ✕3
見習い魔術師 3枚
ビッグ・シールド・ガードナー 3枚
エネミーコントローラー 3枚
炸裂装甲 3枚
奈落の落とし穴 3枚
ディメンション・マジック 2枚
死者蘇生 1枚
強欲な壺 1枚
〔エクストラデッキ 2枚〕
スターダスト・ドラゴン 1枚
Ｅ・ＨＥＲＯ フレイム・ウィングマン 1枚
［サイドデッキ 8枚］
千本ナイフ 3枚
次元幽閉 3枚
収縮 2枚
"""
# Counts first, two English lines among them, and a fourth Dark Magician on its own line.
TEXT_COUNT_FIRST = """＜メインデッキ＞
3 《ブラック・マジシャン》
3《熟練の黒魔術師》
３枚　ヂェミナイ・エルフ
3x ブラッド・ヴォルス
3 Giant Rat
Mystic Tomato x3
3 《マジシャンズ・ヴァルキリア》
3 《見習い魔術師》
3 《ビッグ・シールド・ガードナー》
3 《エネミーコントローラー》
3 《炸裂装甲》
3 《奈落の落とし穴》
2 《ディメンション・マジック》
1 《死者蘇生》
《ブラック・マジシャン》
＜エクストラデッキ＞
《スターダスト・ドラゴン》
《Ｅ・ＨＥＲＯ フレイム・ウィングマン》
＜サイドデッキ＞
《千本ナイフ》×3
《次元幽閉》×3
《収縮》×2
"""


PSY_FRAMELORD_OMEGA = 74586817
PREMATURE_BURIAL = 70828912


def _era(day: str, section: str, passcode: int) -> dict[str, Any]:
    """The base deck with one more card, on `day`, judged by the 2008.03 list so that only the era decides."""
    if section == "main":
        return request(date=day, banlist="ocg-2008-03-01", main=main_with({"passcode": passcode}, drop=1))
    return request(date=day, banlist="ocg-2008-03-01", extra=[*EXTRA, {"passcode": passcode}])


ERA_CASES: dict[str, tuple[dict[str, Any], Expected]] = {
    # Rule eras: Xyz, Pendulum and Link Monsters are allowed from the first printing of their type in the format.
    "modern_ocg_deck": (request(date="2026-07-01", main=MODERN_MAIN, extra=MODERN_EXTRA), []),
    "modern_ocg_deck_in_2010": (
        request(date="2010-06-01", main=MODERN_MAIN, extra=MODERN_EXTRA),
        [
            ("card_type_not_allowed", "main", [["main", 14]]),
            ("forbidden_card", "main", [["main", 13]]),
            ("semi_limited_card_exceeded", "main", [["main", 11]]),
            ("card_type_not_allowed", "extra", [["extra", 0]]),
            ("card_type_not_allowed", "extra", [["extra", 1]]),
        ],
    ),
    "xyz_day_before_first_xyz": (
        _era("2011-03-18", "extra", UTOPIA),
        [("card_type_not_allowed", "extra", [["extra", 2]])],
    ),
    "xyz_on_first_xyz_day": (_era("2011-03-19", "extra", UTOPIA), []),
    "pendulum_day_before_first_pendulum": (
        _era("2014-03-20", "main", STARGAZER),
        [("card_type_not_allowed", "main", [["main", 14]])],
    ),
    "pendulum_on_first_pendulum_day": (_era("2014-03-21", "main", STARGAZER), []),
    "link_day_before_first_link": (
        _era("2017-03-24", "extra", DECODE_TALKER),
        [("card_type_not_allowed", "extra", [["extra", 2]])],
    ),
    "link_on_first_link_day": (_era("2017-03-25", "extra", DECODE_TALKER), []),
    # OCG 2026.10 (added with `deckcheck data add-list`, from 2026-10-01): PSY-Framelord Omega Limited → Forbidden,
    # Premature Burial Forbidden → Limited.
    # On or after 2027-01-01, when the OCG list after 2026.10 was due, a list picked by the date may be out of date.
    "ocg_list_may_be_outdated": (request(date="2027-01-01"), []),
    "psy_framelord_omega_under_2026_10": (
        request(date="2026-12-01", extra=[*EXTRA, {"passcode": PSY_FRAMELORD_OMEGA}]),
        [("forbidden_card", "extra", [["extra", 2]])],
    ),
    "psy_framelord_omega_under_2026_07": (
        request(date="2026-09-30", extra=[*EXTRA, {"passcode": PSY_FRAMELORD_OMEGA}]),
        [],
    ),
    "premature_burial_under_2026_10": (
        request(date="2026-12-01", main=main_with({"passcode": PREMATURE_BURIAL}, drop=1)),
        [],
    ),
    "premature_burial_twice_under_2026_10": (
        request(date="2026-12-01", main=main_with({"passcode": PREMATURE_BURIAL, "count": 2}, drop=2)),
        [("limited_card_exceeded", "main", [["main", 14]])],
    ),
    "premature_burial_under_2026_07": (
        request(date="2026-09-30", main=main_with({"passcode": PREMATURE_BURIAL}, drop=1)),
        [("forbidden_card", "main", [["main", 14]])],
    ),
    "xyz_pendulum_in_extra": (_era("2026-07-01", "extra", ODD_EYES_REBELLION), []),
    "xyz_pendulum_in_main": (
        _era("2026-07-01", "main", ODD_EYES_REBELLION),
        [("extra_deck_card_in_main_deck", "main", [["main", 14]])],
    ),
    "pendulum_in_extra": (
        _era("2026-07-01", "extra", STARGAZER),
        [("main_deck_card_in_extra_deck", "extra", [["extra", 2]])],
    ),
    "link_in_main": (
        _era("2026-07-01", "main", ACCESSCODE_TALKER),
        [("extra_deck_card_in_main_deck", "main", [["main", 14]])],
    ),
    "xyz_fills_extra_15": (
        request(date="2026-07-01", banlist="ocg-2008-03-01", extra=[*EXTRA_15[:4], {"passcode": UTOPIA, "count": 3}]),
        [],
    ),
    # Before the 2008 rules: the 2008 rules are the nearest rules bundled, and the answer says so.
    "event_before_2008_rules": (
        request(date="2005-06-01", extra=[{"passcode": FLAME_WINGMAN}]),
        [("forbidden_card", "main", [["main", 13]]), ("no_japanese_printing", "side", [["side", 1]])],
    ),
    # TCG events: the TCG list in force, TCG printings, TCG languages.
    "tcg_deck": (request(format="tcg", date="2024-06-01"), []),
    "tcg_ocg_only_card": (
        request(format="tcg", date="2024-06-01", main=main_with({"passcode": DORON}, drop=1)),
        [("no_tcg_printing", "main", [["main", 14]])],
    ),
    "tcg_japanese_card": (
        request(format="tcg", date="2024-06-01", main=main_with({"passcode": 55713623, "language": "ja"}, drop=1)),
        [("language_not_allowed", "main", [["main", 14]]), ("opaque_protectors_required", None, [["main", 14]])],
    ),
    "tcg_forbidden_card": (
        request(format="tcg", date="2024-06-01", main=main_with({"passcode": 55144522}, drop=1)),
        [("forbidden_card", "main", [["main", 14]])],
    ),
    "tcg_before_first_tcg_list": (request(format="tcg", date="2010-06-01"), []),
    # A first TCG printing the data do not know is after the day they end (2025-11-15): none on it or before it.
    "tcg_unknown_first_print_date": (
        request(format="tcg", date="2025-11-14", main=main_with({"passcode": LUNALIGHT_SCARLET_TIGER}, drop=1)),
        [("no_tcg_printing", "main", [["main", 14]])],
    ),
    "tcg_unknown_first_print_date_on_last_day": (
        request(format="tcg", date="2025-11-15", main=main_with({"passcode": LUNALIGHT_SCARLET_TIGER}, drop=1)),
        [("no_tcg_printing", "main", [["main", 14]])],
    ),
    "tcg_unknown_first_print_date_later": (
        request(format="tcg", date="2025-11-16", main=main_with({"passcode": LUNALIGHT_SCARLET_TIGER}, drop=1)),
        [],
    ),
    "english_unknown_first_print_date": (
        request(
            date="2025-11-14",
            banlist="ocg-2008-03-01",
            main=main_with({"passcode": DARKURIBOH, "language": "en"}, drop=1),
            protectors=OPAQUE,
        ),
        [("not_printed_in_language", "main", [["main", 14]])],
    ),
    "english_unknown_first_print_date_on_last_day": (
        request(
            date="2025-11-15",
            banlist="ocg-2008-03-01",
            main=main_with({"passcode": DARKURIBOH, "language": "en"}, drop=1),
            protectors=OPAQUE,
        ),
        [("not_printed_in_language", "main", [["main", 14]])],
    ),
    "english_unknown_first_print_date_later": (
        request(
            date="2025-11-16",
            banlist="ocg-2008-03-01",
            main=main_with({"passcode": DARKURIBOH, "language": "en"}, drop=1),
            protectors=OPAQUE,
        ),
        [],
    ),
    "tcg_xyz_day_before_first_tcg_xyz": (
        request(format="tcg", date="2011-07-07", extra=[*EXTRA, {"passcode": UTOPIA}]),
        [("card_type_not_allowed", "extra", [["extra", 2]])],
    ),
    "tcg_xyz_on_first_tcg_xyz_day": (
        request(format="tcg", date="2011-07-08", extra=[*EXTRA, {"passcode": UTOPIA}]),
        [],
    ),
    # 同名カード: two passcodes of one name count together, and a status reaches both.
    "same_name_two_passcodes_four": (
        request(
            main=main_with(
                {"passcode": BLACK_LUSTER_SOLDIER, "count": 3}, {"passcode": BLACK_LUSTER_SOLDIER_PRIZE}, drop=3
            )
        ),
        [("too_many_copies", "main", [["main", 13], ["main", 14]])],
    ),
    "same_name_two_passcodes_three": (
        request(
            main=main_with(
                {"passcode": BLACK_LUSTER_SOLDIER, "count": 2}, {"passcode": BLACK_LUSTER_SOLDIER_PRIZE}, drop=2
            )
        ),
        [],
    ),
    "same_name_list_status_reaches_both": (
        request(
            main=main_with({"passcode": BLACK_LUSTER_SOLDIER}, {"passcode": BLACK_LUSTER_SOLDIER_PRIZE}, drop=2),
            banlist={"name": "proposed", "limited": ["カオス・ソルジャー"]},
        ),
        [("limited_card_exceeded", "main", [["main", 14], ["main", 15]])],
    ),
    # TR 3 代用カード: a card in a TCG language before its first TCG printing. (Korean has no dates: not checked.)
    "english_cards_before_tcg_printing": (
        request(default_language="en"),
        [
            ("not_printed_in_language", "main", [["main", 6]]),
            ("not_printed_in_language", "extra", [["extra", 0]]),
        ],
    ),
    "stardust_english_day_before_tcg_printing": (
        request(date="2008-08-18", extra=[{"passcode": STARDUST_DRAGON, "language": "en"}], protectors=OPAQUE),
        [("not_printed_in_language", "extra", [["extra", 0]])],
    ),
    "stardust_english_on_tcg_printing_day": (
        request(date="2008-08-19", extra=[{"passcode": STARDUST_DRAGON, "language": "en"}], protectors=OPAQUE),
        [],
    ),
    "stardust_korean_not_checked": (
        request(extra=[{"passcode": STARDUST_DRAGON, "language": "ko"}], protectors=OPAQUE),
        [],
    ),
    # Japanese list notations: 《》 names, 枚 counts, full-width × and bracketed headings, with their counts.
    "text_ja_brackets_legal": ({"text": TEXT_BRACKETS, "date": "2008-06-01"}, []),
    "text_ja_mai_counts_forbidden": (
        {"text": TEXT_MAI, "date": "2008-06-01"},
        [("forbidden_card", "main", [["main", 14]])],
    ),
    "text_ja_count_first_four_copies": (
        {"text": TEXT_COUNT_FIRST, "date": "2008-06-01"},
        [("too_many_copies", "main", [["main", 0], ["main", 14]])],
    ),
    # Lists given in the request: cards by name, or an lflist.conf text.
    "inline_list_by_name": (
        request(banlist={"forbidden": ["Monster Reborn"]}),
        [("forbidden_card", "main", [["main", 13]])],
    ),
    "lflist_inline_list": (
        request(banlist={"lflist": "#[my list]\n!my list\n#forbidden\n83764718 0 --Monster Reborn\n"}),
        [("forbidden_card", "main", [["main", 13]])],
    ),
}
