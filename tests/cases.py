"""Golden deck cases built from real cards: per rule, the legal deck, the smallest illegal one and the boundaries.

Each case is a /v1/validate request and the violations it must produce, written by hand as (code, section, loc).
The whole report each case gives is also stored in tests/golden/<case>.json (regenerate with
`python -m tests.regen_golden` after an intended change, and read the diff).
"""

from __future__ import annotations

from typing import Any

from tests.cases_eras import ERA_CASES
from tests.decks import (
    EVENT,
    EXTRA,
    EXTRA_15,
    MAIN_40,
    MAIN_60,
    MONSTER_REBORN,
    SIDE,
    SIDE_15,
    UNLIMITED,
    Expected,
    all_of,
    main_with,
    request,
)

__all__ = ["CASES", "EXTRA", "MAIN_40", "SIDE", "UNLIMITED", "main_with", "request"]

# The legal base deck as a Japanese list from a phone: marked headings, bullets, counts after the names, and names
# without their ・, in hiragana or without an apostrophe.
TEXT_AS_PLAYERS_WRITE = """■メインデッキ（40枚）
■モンスター
・ブラックマジシャン×3
・熟練の黒魔術師 3
・ぢぇみないえるふ（3）
・ブラッド・ヴォルス　３
・巨大ネズミ 3枚
・キラートマト x3
・Magicians Valkyria 3
・見習い魔術師×3
・ビッグシールドガードナー×3
■魔法
・エネミーコントローラー×3
・ディメンションマジック×3
・死者蘇生
■罠
・炸裂装甲 3
・奈落の落とし穴（３）
■エクストラデッキ
スターダストドラゴン
E・HEROフレイム・ウィングマン
■サイドデッキ
千本ナイフ×3
次元幽閉×3
収縮×2
"""

CASES: dict[str, tuple[dict[str, Any], Expected]] = {
    # Sizes (TR 3): 39/40/60/61 main, 15/16 extra and side.
    "legal_base": (request(), []),
    "main_39": (request(main=main_with(drop=1)), [("main_deck_too_small", "main", [["main"]])]),
    "main_0": (request(main=[], extra=[], side=[]), [("main_deck_too_small", "main", [["main"]])]),
    "main_60": (request(main=MAIN_60, side=[]), []),
    "main_61": (
        request(main=[*MAIN_60, {"passcode": MONSTER_REBORN}], side=[]),
        [("main_deck_too_large", "main", [["main"]])],
    ),
    "extra_15": (request(extra=EXTRA_15), []),
    "extra_16": (
        request(extra=[*EXTRA_15, {"passcode": 59036972}]),
        [("extra_deck_too_large", "extra", [["extra"]])],
    ),
    "side_0": (request(side=[]), []),
    "side_15": (request(side=SIDE_15), []),
    "side_16": (
        request(side=[*SIDE_15, {"passcode": 70095154}]),
        [("side_deck_too_large", "side", [["side"]])],
    ),
    # Placement and 2008 card types (TR 1).
    "fusion_in_main": (
        request(main=main_with({"passcode": 35809262}, drop=1)),
        [("extra_deck_card_in_main_deck", "main", [["main", 14]])],
    ),
    "synchro_in_main_and_side": (
        request(main=main_with({"passcode": 44508094}, drop=1), side=[{"passcode": 44508094}]),
        [("extra_deck_card_in_main_deck", "main", [["main", 14]])],
    ),
    "main_card_in_extra": (
        request(extra=[*EXTRA, {"passcode": 38033121}]),
        [("main_deck_card_in_extra_deck", "extra", [["extra", 2]])],
    ),
    "xyz_in_extra": (
        request(extra=[*EXTRA, {"passcode": 84013237}]),
        [("card_type_not_allowed", "extra", [["extra", 2]])],
    ),
    "link_in_main_four_copies": (
        request(main=main_with({"passcode": 1861629, "count": 4}, drop=3)),
        [("card_type_not_allowed", "main", [["main", 13]])],
    ),
    "pendulum_in_main": (
        request(main=main_with({"passcode": 16178681}, drop=1)),
        [("card_type_not_allowed", "main", [["main", 14]])],
    ),
    # Copies over main+extra+side on the canonical passcode (PR 3.A.2).
    "three_copies": (request(), []),
    "four_copies": (
        request(main=main_with({"passcode": 46986414}, drop=1)),
        [("too_many_copies", "main", [["main", 0], ["main", 14]])],
    ),
    "four_copies_with_side": (
        request(side=[*SIDE[:2], {"passcode": 46986414}]),
        [("too_many_copies", "main", [["main", 0], ["side", 2]])],
    ),
    "alias_copies": (
        request(main=main_with({"passcode": 36996508}, drop=1)),
        [("too_many_copies", "main", [["main", 0], ["main", 14]])],
    ),
    "harpie_lady_1_is_another_card": (
        request(
            main=[{"passcode": p, "count": 3} for p in UNLIMITED[:11]]
            + [{"name": "Harpie Lady", "count": 3}, {"name": "Harpie Lady 1", "count": 3}, {"passcode": MONSTER_REBORN}]
        ),
        [],
    ),
    # Forbidden/Limited/Semi-Limited by the list in force (TR 3, PR 3.A.3–4).
    "forbidden_pot_of_greed": (
        request(main=main_with({"passcode": 55144522}, drop=1)),
        [("forbidden_card", "main", [["main", 14]])],
    ),
    "forbidden_in_side_only": (
        request(side=[*SIDE[:2], {"passcode": 55144522}]),
        [("forbidden_card", "side", [["side", 2]])],
    ),
    "forbidden_fusion_in_extra": (
        request(extra=[*EXTRA, {"passcode": 63519819}]),
        [("forbidden_card", "extra", [["extra", 2]])],
    ),
    "limited_one": (request(), []),
    "limited_two": (
        request(main=main_with({"passcode": MONSTER_REBORN}, drop=1)),
        [("limited_card_exceeded", "main", [["main", 13], ["main", 14]])],
    ),
    "limited_alias_copy": (
        request(main=main_with({"passcode": 83764719}, drop=1)),
        [("limited_card_exceeded", "main", [["main", 13], ["main", 14]])],
    ),
    "semi_limited_two": (request(main=main_with({"passcode": 14087893, "count": 2}, drop=2)), []),
    "semi_limited_three": (
        request(main=main_with({"passcode": 14087893, "count": 3}, drop=3)),
        [("semi_limited_card_exceeded", "main", [["main", 13]])],
    ),
    "chaos_before_list_change": (
        request(main=main_with({"passcode": 40737112}, drop=1), date="2008-08-31"),
        [],
    ),
    "chaos_after_list_change": (
        request(main=main_with({"passcode": 40737112}, drop=1), date="2008-09-01"),
        [("forbidden_card", "main", [["main", 14]])],
    ),
    "safe_return_before_list_change": (
        request(main=main_with({"passcode": 57953380, "count": 3}, drop=3), date="2008-08-31"),
        [],
    ),
    "safe_return_after_list_change": (
        request(main=main_with({"passcode": 57953380, "count": 3}, drop=3), date="2008-09-01"),
        [("semi_limited_card_exceeded", "main", [["main", 13]])],
    ),
    "named_list_overrides_date": (
        request(main=main_with({"passcode": 40737112}, drop=1), banlist="ocg-2008-09-01"),
        [("forbidden_card", "main", [["main", 14]])],
    ),
    "inline_list": (request(banlist={"name": "proposed", "forbidden": [55144522], "semi_limited": [70095154]}), []),
    "inline_list_alias_entry": (
        request(banlist={"limited": [36996508]}),
        [("limited_card_exceeded", "main", [["main", 0]])],
    ),
    "inline_list_forbids": (
        request(banlist={"name": "proposed", "forbidden": [46986414]}),
        [("forbidden_card", "main", [["main", 0]])],
    ),
    # Unknown cards (TR 3) and names.
    "names_in_japanese_and_english": (
        request(
            main=[{"name": "ブラック・マジシャン", "count": 2}, {"name": "dark   MAGICIAN"}, *main_with()[1:]],
            extra=[{"name": "ｽﾀｰﾀﾞｽﾄ･ﾄﾞﾗｺﾞﾝ"}, {"name": "Ｅ・ＨＥＲＯ　フレイム・ウィングマン"}],
        ),
        [],
    ),
    # Names as players write them (issue 20): read as the one card each loosely names, and said so.
    "names_read_loosely": (
        request(
            main=[{"name": "ブラックマジシャン", "count": 3}, *main_with()[1:]],
            extra=[{"name": "すたーだすと・どらごん"}, {"name": "E・HEROフレイム・ウィングマン"}],
        ),
        [],
    ),
    "names_read_loosely_from_text": ({"date": EVENT, "text": TEXT_AS_PLAYERS_WRITE}, []),
    "roster_names_read_loosely": (
        request(
            roster={
                "main": [{"name": "dark magician", "count": 2}, {"name": "ぶらっく・まじしゃん"}, *MAIN_40[1:]],
                "extra": EXTRA,
                "side": SIDE,
            }
        ),
        [],
    ),
    "name_loosely_ambiguous": (
        request(main=main_with({"name": "Rai Mei"}, drop=1)),
        [("unknown_card", "main", [["main", 14]])],
    ),
    "unknown_passcode": (
        request(main=main_with({"passcode": 12345678}, drop=1)),
        [("unknown_card", "main", [["main", 14]])],
    ),
    "unknown_name_twice": (
        request(main=main_with({"name": "Dark Magican"}, {"name": "DARK MAGICAN"}, drop=2)),
        [("unknown_card", "main", [["main", 14], ["main", 15]])],
    ),
    "passcode_and_name_disagree": (
        request(main=main_with({"passcode": 46986414, "name": "Pot of Greed"}, drop=1)),
        [("unknown_card", "main", [["main", 14]])],
    ),
    "passcode_and_name_agree": (
        request(main=main_with({"passcode": 36996508, "name": "Dark Magician"}, drop=1)),
        [("too_many_copies", "main", [["main", 0], ["main", 14]])],
    ),
    # Languages, printings and protectors (TR 1 ※, TR 3).
    # On the day Stardust Dragon was first printed in the TCG (and so in English, French, Italian...): the same
    # decks on 2008-06-01 are english_cards_before_tcg_printing (tests/cases_eras.py).
    "all_english": (request(default_language="en", date="2008-08-19"), []),
    "every_allowed_language_opaque_protectors": (
        request(
            date="2008-08-19",
            main=[{"passcode": p, "language": lang} for p in UNLIMITED for lang in ("ja", "en", "fr")]
            + [{"passcode": MONSTER_REBORN, "language": "ko"}],
            extra=[{"passcode": 44508094, "language": "it"}, {"passcode": 35809262, "language": "ES"}],
            side=[{**SIDE[0], "language": "pt-BR"}, {**SIDE[1], "language": "de"}, SIDE[2]],
            protectors={"used": True, "opaque_back": True, "uniform": True},
        ),
        [],
    ),
    "language_chinese": (
        request(main=main_with({"passcode": 55713623, "language": "zh"}, drop=1)),
        [
            ("language_not_allowed", "main", [["main", 14]]),
            ("opaque_protectors_required", None, [["main", 14]]),
        ],
    ),
    "mixed_languages_no_protectors": (
        request(main=main_with({"passcode": 55713623, "language": "en"}, drop=1)),
        [("opaque_protectors_required", None, [["main", 14]])],
    ),
    "mixed_languages_clear_protectors": (
        request(
            main=main_with({"passcode": 55713623, "language": "ko"}, drop=1),
            protectors={"used": True, "opaque_back": False},
        ),
        [("opaque_protectors_required", None, [["main", 14]])],
    ),
    "mixed_languages_opaque_protectors": (
        request(
            main=main_with({"passcode": 55713623, "language": "en"}, drop=1),
            protectors={"used": True, "opaque_back": True},
        ),
        [],
    ),
    "protectors_not_uniform": (
        request(protectors={"used": True, "uniform": False}),
        [("protectors_not_uniform", None, [["main"], ["extra"], ["side"]])],
    ),
    "stardust_day_before_first_print": (
        request(date="2008-04-18"),
        [("no_japanese_printing", "extra", [["extra", 0]])],
    ),
    "stardust_on_first_print_day": (request(date="2008-04-19"), []),
    "tcg_only_card": (
        request(main=main_with({"passcode": 11876803}, drop=1), date="2026-11-29"),
        [("no_japanese_printing", "main", [["main", 14]])],
    ),
    # A card whose first printing the data do not know (433377, Blitzclique - Steppleader, in the data with no
    # printing date) came after the day the printing data end, 2025-11-15 (cards/printings.json): TR 1 ※ holds it
    # out on that day and the day before; the day after, the data cannot tell, and it is taken as printed.
    "unknown_first_print_date": (
        request(main=main_with({"passcode": 433377}, drop=1), date="2025-11-14"),
        [("no_japanese_printing", "main", [["main", 14]])],
    ),
    "unknown_first_print_date_on_last_day": (
        request(main=main_with({"passcode": 433377}, drop=1), date="2025-11-15", banlist="ocg-2008-03-01"),
        [("no_japanese_printing", "main", [["main", 14]])],
    ),
    "unknown_first_print_date_later": (
        request(main=main_with({"passcode": 433377}, drop=1), date="2025-11-16", banlist="ocg-2008-03-01"),
        [],
    ),
    # Roster (TR 2.B, TR 2.D.8, PR 3.B).
    "roster_duel_1_matches": (request(roster={"main": MAIN_40, "extra": EXTRA, "side": SIDE}), []),
    "roster_duel_1_sided": (
        request(
            main=main_with({"passcode": 63391643}, drop=1),
            side=[{"passcode": 63391643, "count": 2}, SIDE[1], SIDE[2], {"passcode": 28553439}],
            roster={"main": MAIN_40, "extra": EXTRA, "side": SIDE},
        ),
        [
            ("roster_mismatch", "main", [["main", 14], ["roster", "main", 12]]),
            ("roster_mismatch", "side", [["side", 3], ["roster", "side", 0]]),
        ],
    ),
    "roster_duel_2_sided_one_for_one": (
        request(
            main=main_with({"passcode": 63391643}, drop=1),
            side=[{"passcode": 63391643, "count": 2}, SIDE[1], SIDE[2], {"passcode": 28553439}],
            roster={"main": MAIN_40, "extra": EXTRA, "side": SIDE},
            duel=2,
            phase="between_duels",
        ),
        [],
    ),
    "roster_duel_2_main_grew": (
        request(
            main=main_with({"passcode": 63391643}),
            side=[{"passcode": 63391643, "count": 2}, SIDE[1], SIDE[2]],
            roster={"main": MAIN_40, "extra": EXTRA, "side": SIDE},
            duel=2,
        ),
        [("side_swap_count_changed", "main", [["main"]])],
    ),
    "roster_duel_3_unregistered_card": (
        request(
            main=main_with({"passcode": 41420027}, drop=1),
            side=[*SIDE, {"passcode": 28553439}],
            roster={"main": MAIN_40, "extra": EXTRA, "side": SIDE},
            duel=3,
            phase="during_duel",
        ),
        [("roster_mismatch", None, [["main", 14]])],
    ),
    "roster_extra_swapped_for_main": (
        request(
            extra=EXTRA[:1],
            side=[*SIDE, *EXTRA[1:]],
            roster={"main": MAIN_40, "extra": EXTRA, "side": SIDE},
            duel=2,
        ),
        [("side_swap_count_changed", "extra", [["extra"]])],
    ),
    # Every problem at once.
    "everything_wrong": (
        request(
            main=[
                {"passcode": 55144522, "count": 2},
                {"passcode": 46986414, "count": 4, "language": "en"},
                {"passcode": 35809262},
                {"passcode": MONSTER_REBORN, "count": 2},
                {"name": "No Such Card"},
                {"passcode": 44508094, "language": "zh"},
            ],
            extra=[{"passcode": 38033121}, {"passcode": 84013237}] + [{"passcode": 45231177, "count": 3}] * 5,
            side=[{"passcode": 11876803, "count": 16}],
            protectors={"used": True, "uniform": False},
            roster={"main": MAIN_40, "extra": EXTRA, "side": SIDE},
            date="2008-04-18",
        ),
        [
            ("extra_deck_card_in_main_deck", "main", [["main", 2]]),
            ("extra_deck_card_in_main_deck", "main", [["main", 5]]),
            ("forbidden_card", "main", [["main", 0]]),
            ("language_not_allowed", "main", [["main", 5]]),
            ("limited_card_exceeded", "main", [["main", 3]]),
            ("main_deck_too_small", "main", [["main"]]),
            ("no_japanese_printing", "main", [["main", 5]]),
            ("roster_mismatch", "main", all_of("main", 6) + [["roster", "main", i] for i in range(1, 13)]),
            ("too_many_copies", "main", [["main", 1]]),
            ("unknown_card", "main", [["main", 4]]),
            ("card_type_not_allowed", "extra", [["extra", 1]]),
            ("extra_deck_too_large", "extra", [["extra"]]),
            ("main_deck_card_in_extra_deck", "extra", [["extra", 0]]),
            ("roster_mismatch", "extra", [*all_of("extra", 7), ["roster", "extra", 0], ["roster", "extra", 1]]),
            ("too_many_copies", "extra", [["extra", i] for i in range(2, 7)]),
            ("no_japanese_printing", "side", [["side", 0]]),
            (
                "roster_mismatch",
                "side",
                [["side", 0], ["roster", "side", 0], ["roster", "side", 1], ["roster", "side", 2]],
            ),
            ("side_deck_too_large", "side", [["side"]]),
            ("too_many_copies", "side", [["side", 0]]),
            ("opaque_protectors_required", None, [["main", 1], ["main", 5]]),
            ("protectors_not_uniform", None, [["main"], ["extra"], ["side"]]),
        ],
    ),
    **ERA_CASES,
}
