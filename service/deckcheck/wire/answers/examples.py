"""The examples of the OpenAPI document: real requests, and the answers the service gives them (messages in English),
long lists cut short. tests/test_openapi.py sends each request to the service and holds each answer to what comes
back, so an example cannot say what the service does not."""

from __future__ import annotations

from typing import Any

Example = dict[str, Any]

POT_OF_GREED, STARDUST_DRAGON, MONSTER_REBORN = 55144522, 44508094, 83764718
# A text list with a name written loosely and a misspelt one, and one deck written three ways: the examples of the
# deck forms.
TEXT = "Main\n3 ブラックマジシャン\n1 Pot of Greed\n1 Blue-Eyes White Dargon\nExtra\n1 Stardust Dragon"
SMALL_TEXT = "3 Dark Magician\n1 Pot of Greed\nExtra\n1 Stardust Dragon"
SMALL_YDK = "#created by deckcheck\n#main\n46986414\n46986414\n46986414\n55144522\n#extra\n44508094\n!side\n"
SMALL_YDKE = "ydke://rvTMAq70zAKu9MwCSnBJAw==!viOnAg==!!"
LFLIST = "#[2008.09 proposal]\n!2008.09 proposal\n55144522 0 --Pot of Greed\n83764718 1 --Monster Reborn\n"

# Requests.
ENTRY: Example = {"passcode": POT_OF_GREED, "count": 1, "language": "ja"}
PROTECTORS: Example = {"used": True, "opaque_back": True, "uniform": True}
INLINE_BANLIST: Example = {
    "name": "2008.09 proposal",
    "forbidden": [POT_OF_GREED, "Premature Burial"],
    "limited": ["サイバー・ドラゴン"],
    "semi_limited": ["Mystical Space Typhoon"],
}
LFLIST_BANLIST: Example = {"lflist": LFLIST, "list": "2008.09 proposal"}
PARSE_REQUEST: Example = {"text": TEXT}
CONVERT_REQUEST: Example = {"text": SMALL_TEXT, "to": "ydke"}
RECHECK_LINE: Example = {"id": "deck-17", "ydke": SMALL_YDKE, "player": "Yugi Muto", "table": 12}
# The README's example (examples/pot-of-greed-2008.json): a 40-card deck holding Pot of Greed, on 2008-06-01.
VALIDATE_REQUEST: Example = {
    "date": "2008-06-01",
    "main": [
        *({"passcode": p, "count": 3} for p in (46986414, 73752131, 69140098, 14898066, 97017120, 83011277)),
        *({"passcode": p, "count": 3} for p in (80304126, 9156135, 65240384, 98045062, 56120475, 29401950)),
        {"passcode": 28553439, "count": 2},
        {"passcode": MONSTER_REBORN},
        {"name": "強欲な壺"},
    ],
    "extra": [{"passcode": STARDUST_DRAGON}],
}

# POST /v1/validate
CARD: Example = {"passcode": POT_OF_GREED, "name": "Pot of Greed", "count": 1, "limit": 0}
BANLIST: Example = {
    "id": "ocg-2008-03-01",
    "name": "OCG 2008.03",
    "effective_from": "2008-03-01",
    "effective_until": "2008-09-01",
}
FORBIDDEN_CTX: Example = {"count": 1, "limit": 0, "banlist": "ocg-2008-03-01", "banlist_name": "OCG 2008.03"}
REPLACE = "Take out the violating cards and replace them with appropriate cards."
VIOLATION: Example = {
    "code": "forbidden_card",
    "message": "Pot of Greed is Forbidden on OCG 2008.03.",
    "section": "main",
    "loc": [["main", 14]],
    "cards": [CARD],
    "ctx": FORBIDDEN_CTX,
    "rule": "TR 3",
    "penalty": "duel_forfeiture",
    "penalty_basis": "explicit",
    "penalty_ref": "PR 3.A.3",
    "penalty_applies_to": "next_duel",
    "remedy": REPLACE,
    "lines": [],
    "roster_lines": [],
}
LANGUAGES = ["ja", "en", "fr", "it", "es", "pt", "de", "ko"]
RULESET: Example = {
    "id": "ocg-2008-03-15",
    "format": "ocg",
    "card_types": ["fusion", "synchro"],
    "languages": LANGUAGES,
    "notes": [],
}
COUNTS: Example = {"main": 40, "extra": 1, "side": 0}
VALIDATE_RESPONSE: Example = {
    "legal": False,
    "penalty": "duel_forfeiture",
    "counts": COUNTS,
    "date": "2008-06-01",
    "banlist": BANLIST,
    "ruleset": RULESET,
    "violations": [VIOLATION],
    "read_loosely": [],
}

# GET /v1/rules/eras (the second OCG era), GET /v1/rules (one rule)
NOTE: Example = {
    "code": "later_card_types",
    "message": "Xyz Monsters (from 2011-03-19) are allowed: the 2008 rules do not name them; later Master Rules "
    "added them and changed no other deck-construction number. Xyz Monsters go in the extra deck.",
}
ERA: Example = {
    "from": "2011-03-19",
    "until": "2014-03-21",
    "id": "ocg-2011-03-19",
    "format": "ocg",
    "card_types": ["fusion", "synchro", "xyz"],
    "languages": LANGUAGES,
    "notes": [NOTE],
}
RULE: Example = {
    "code": "forbidden_card",
    "summary": "A Forbidden card is in the main, extra or side deck.",
    "rule": "TR 3",
    "penalty": "duel_forfeiture",
    "penalty_basis": "explicit",
    "penalty_ref": "PR 3.A.3",
    "remedy": REPLACE,
}

# POST /v1/decks/parse and /v1/decks/convert
_NO_CARD = dict.fromkeys(("passcode", "canonical", "name_en", "name_ja", "kind", "extra_deck_type", "language"))
SUGGESTION: Example = {"passcode": 89631139, "name_en": "Blue-Eyes White Dragon", "name_ja": "青眼の白龍"}
PARSE_PROBLEM: Example = {
    "section": "main",
    "index": 2,
    "lines": [4],
    "type": "unknown_name",
    "msg": "'Blue-Eyes White Dargon' is not the name of an official card",
    "suggestions": [
        SUGGESTION,
        {"passcode": 9433350, "name_en": "Malefic Blue-Eyes White Dragon", "name_ja": "Ｓｉｎ 青眼の白龍"},
        {"passcode": 22804410, "name_en": "Deep-Eyes White Dragon", "name_ja": "ディープアイズ・ホワイト・ドラゴン"},
    ],
    "suggestions_omitted": False,
}
DARK_MAGICIAN = {
    "passcode": 46986414,
    "canonical": 46986414,
    "name_en": "Dark Magician",
    "name_ja": "ブラック・マジシャン",
}
POT = {"passcode": POT_OF_GREED, "canonical": POT_OF_GREED, "name_en": "Pot of Greed", "name_ja": "強欲な壺"}
STARDUST = {"passcode": STARDUST_DRAGON, "canonical": STARDUST_DRAGON, "name_en": "Stardust Dragon"}
STARDUST |= {"name_ja": "スターダスト・ドラゴン", "kind": "monster", "extra_deck_type": "synchro", "count": 1}
LOOSE_READ: Example = {"loc": ["main", 0], "lines": [2], "typed": "ブラックマジシャン", "name": "ブラック・マジシャン"}
LOOSE_READ |= {key: DARK_MAGICIAN[key] for key in ("passcode", "name_en", "name_ja")} | {
    "message": "'ブラックマジシャン' is no card's name as written; it was read as ブラック・マジシャン, the one card "
    "whose name differs from it only in spacing, punctuation, kana or kanji forms."
}
PARSE_RESPONSE: Example = {
    "format": "text",
    "counts": {"main": 5, "extra": 1, "side": 0},
    "main": [
        {**DARK_MAGICIAN, "kind": "monster", "extra_deck_type": "none", "count": 3, "language": None, "lines": [2]},
        {**POT, "kind": "spell", "extra_deck_type": "none", "count": 1, "language": None, "lines": [3]},
        {**_NO_CARD, "count": 1, "lines": [4]},
    ],
    "extra": [{**STARDUST, "language": None, "lines": [6]}],
    "side": [],
    "problems": [PARSE_PROBLEM],
    "read_loosely": [LOOSE_READ],
}
# The same two cards given as JSON entries, with their printed languages.
PARSE_JSON_REQUEST: Example = {"main": [ENTRY], "extra": [{"passcode": STARDUST_DRAGON, "language": "en"}]}
PARSED_CARD: Example = {**POT, "kind": "spell", "extra_deck_type": "none", "count": 1, "language": "ja", "lines": []}
PARSED_EXTRA: Example = {**STARDUST, "language": "en", "lines": []}
PARSE_JSON_RESPONSE: Example = {
    "format": "json",
    "counts": {"main": 1, "extra": 1, "side": 0},
    "main": [PARSED_CARD],
    "extra": [PARSED_EXTRA],
    "side": [],
    "problems": [],
    "read_loosely": [],
}
CONVERT_RESPONSE: Example = {"format": "ydke", "content": SMALL_YDKE, "deck": None}
DECK_ENTRY: Example = {"name": "Dark Magician", "count": 3}
JSON_DECK: Example = {
    "main": [DECK_ENTRY, {"name": "Pot of Greed", "count": 1}],
    "extra": [{"name": "Stardust Dragon", "count": 1}],
    "side": [],
}
CONVERT_JSON_RESPONSE: Example = {"format": "json", "content": None, "deck": JSON_DECK}

# GET /v1/cards/44508095 (an alternate passcode of Stardust Dragon), GET /v1/cards?q=Pot of Greed
CARD_STATUS: Example = {
    "banlist": "ocg-2008-03-01",
    "effective_from": "2008-03-01",
    "effective_until": "2008-09-01",
    "status": "unlimited",
    "limit": 3,
}
CARD_FULL: Example = {
    "passcode": STARDUST_DRAGON,
    "requested": 44508095,
    "aliases": [44508095],
    "name_en": "Stardust Dragon",
    "name_ja": "スターダスト・ドラゴン",
    "kind": "monster",
    "extra_deck_type": "synchro",
    "pendulum": False,
    "ocg": True,
    "tcg": True,
    "first_japanese_printing": "2008-04-19",
    "first_japanese_printing_exact": True,
    "first_tcg_printing": "2008-08-19",
    "first_tcg_printing_exact": True,
    "provisional": False,
    "banlists": [
        CARD_STATUS,
        {
            "banlist": "tcg-2024-04-22",
            "effective_from": "2024-04-22",
            "effective_until": "2024-09-02",
            "status": "unlimited",
            "limit": 3,
        },
    ],
}
LEGALITY_PERIOD: Example = {
    "status": "forbidden",
    "limit": 0,
    "from": "2006-03-01",
    "until": None,
    "banlists": ["ocg-2006-03-01", "ocg-2006-09-01", "ocg-2026-10-01"],
}
LEGALITY_ON_DATE: Example = {"status": "forbidden", "limit": 0, "banlist": "ocg-2026-10-01", "printed": True}
FORMAT_LEGALITY: Example = {
    "format": "ocg",
    "first_printed": "1999-05-27",
    "periods": [
        {"status": None, "limit": None, "from": "1999-05-27", "until": "1999-07-08", "banlists": []},
        LEGALITY_PERIOD,
    ],
    "on_date": LEGALITY_ON_DATE,
    "notes": [],
}
# The TCG's newest list held began on 2026-05-18; by 2026-12-01 a TCG list has usually been followed (180 days).
LIST_MAY_BE_OUTDATED: Example = {
    "code": "list_may_be_outdated",
    "message": "TCG 2026.05 (from 2026-05-18) is the newest list of this format the service holds, and by the usual "
    "cadence a newer one may be in force on this date: check the list in force, or name the list to apply.",
}
TCG_LEGALITY: Example = {
    "format": "tcg",
    "first_printed": "2002-03-08",
    "periods": [
        {"status": "forbidden", "limit": 0, "from": "2013-09-01", "until": None, "banlists": ["tcg-2026-05-18"]}
    ],
    "on_date": {"status": "forbidden", "limit": 0, "banlist": "tcg-2026-05-18", "printed": True},
    "notes": [LIST_MAY_BE_OUTDATED],
}
CARD_LEGALITY: Example = {
    "passcode": POT_OF_GREED,
    "requested": POT_OF_GREED,
    "name_en": "Pot of Greed",
    "name_ja": "強欲な壺",
    "date": "2026-12-01",
    "formats": [FORMAT_LEGALITY, TCG_LEGALITY],
}
SEARCH_HIT: Example = {
    "passcode": POT_OF_GREED,
    "name_en": "Pot of Greed",
    "name_ja": "強欲な壺",
    "matched": "Pot of Greed",
    "match": "exact",
    "score": 100.0,
}

# GET /v1/banlists, /v1/banlists/ocg-2008-03-01 and /v1/banlists/ocg-2008-03-01/diff/ocg-2008-09-01
STATUS_COUNTS: Example = {"forbidden": 40, "limited": 57, "semi_limited": 12}
BANLIST_SUMMARY: Example = {**BANLIST, "format": "OCG", "counts": STATUS_COUNTS}
LISTED_CARD: Example = {"passcode": 3078576, "name_en": "Yata-Garasu", "name_ja": "八汰烏"}
BANLIST_DETAIL: Example = {
    **BANLIST_SUMMARY,
    "forbidden": [LISTED_CARD, {"passcode": 3280747, "name_en": "Sixth Sense", "name_ja": "第六感"}],
    "limited": [{"passcode": 3136426, "name_en": "Level Limit - Area B", "name_ja": "レベル制限Ｂ地区"}],
    "semi_limited": [{"passcode": 14087893, "name_en": "Book of Moon", "name_ja": "月の書"}],
}
STATUS_CHANGE: Example = {
    "passcode": 23557835,
    "name_en": "Dimension Fusion",
    "name_ja": "次元融合",
    "from": "limited",
    "to": "forbidden",
    "from_limit": 1,
    "to_limit": 0,
}
BANLIST_DIFF: Example = {
    "from": BANLIST,
    "to": {
        "id": "ocg-2008-09-01",
        "name": "OCG 2008.09",
        "effective_from": "2008-09-01",
        "effective_until": "2009-03-01",
    },
    "changes": [STATUS_CHANGE],
}

# A .ydk line that is not a passcode: POST /v1/validate {"ydk": "#main\n55144522\nPot of Greed\n"}
PROBLEM_REQUEST: Example = {"ydk": "#main\n55144522\nPot of Greed\n"}
FIELD_ERROR: Example = {
    "loc": ["body", "ydk"],
    "msg": "'Pot of Greed' is not a passcode",
    "type": "not_a_passcode",
    "line": 3,
    "column": 1,
}
PROBLEM: Example = {
    "type": "urn:deckcheck:problem:invalid-request",
    "title": "Unprocessable Entity",
    "status": 422,
    "detail": "'Pot of Greed' is not a passcode",
    "errors": [FIELD_ERROR],
    "request_id": "739a52ec436a4761bcae8c26be9e1eb6",
}
