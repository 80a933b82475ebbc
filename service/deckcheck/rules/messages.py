"""Messages for violations, rendered from the registry's templates in Japanese or English, and the notes that say
where an answer reaches beyond the seeds."""

from __future__ import annotations

from typing import Any

from deckcheck.data import Banlist
from deckcheck.limits import SUGGESTED_NAMES
from deckcheck.model import CardRef, Ruleset, Violation
from deckcheck.rules.eras import SEEDS_DATE
from deckcheck.rules.registry import RULES

# Monster types as messages name them: in English, in Japanese, and the English article ("an Xyz").
_TYPES = {
    "fusion": ("Fusion", "融合", "a"),
    "synchro": ("Synchro", "シンクロ", "a"),
    "xyz": ("Xyz", "エクシーズ", "an"),
    "link": ("Link", "リンク", "a"),
    "pendulum": ("Pendulum", "ペンデュラム", "a"),
}
_LANGUAGES = {
    "ja": ("Japanese", "日本語版"),
    "en": ("English", "英語版"),
    "fr": ("French", "フランス語版"),
    "it": ("Italian", "イタリア語版"),
    "es": ("Spanish", "スペイン語版"),
    "pt": ("Portuguese", "ポルトガル語版"),
    "de": ("German", "ドイツ語版"),
    "ko": ("Korean", "韓国語版"),
}
# What the first printing a violation names reads as: (never printed, first printed, printed at some unknown day
# after: not on that day, which is the day the printing data end, rules/eras.py `printed_by`), in English and
# Japanese (より後, since 以降 would take that day in).
_FIRST = {
    "first_japanese_printing": (
        ("never printed in Japanese", "first Japanese printing {}", "first Japanese printing unknown, after {}"),
        ("日本語版は未発売", "日本語版の初出は{}", "日本語版の初出日は不明、{}より後"),
    ),
    "first_tcg_printing": (
        ("never printed in the TCG", "first TCG printing {}", "first TCG printing unknown, after {}"),
        ("TCG版は未発売", "TCG版の初出は{}", "TCG版の初出日は不明、{}より後"),
    ),
}
_SECTIONS = {
    "main": ("main deck", "メインデッキ"),
    "extra": ("extra deck", "エクストラデッキ"),
    "side": ("side deck", "サイドデッキ"),
    None: ("deck (main, extra and side deck together)", "デッキ（エクストラデッキ・サイドデッキを含む）"),
}


def _names(cards: list[dict[str, Any]] | tuple[CardRef, ...], lang: str) -> str:
    sep = "、" if lang == "ja" else ", "
    refs = [card for card in cards if isinstance(card, CardRef)]
    if len(refs) == len(cards) > 1 and len({card.name(lang) for card in refs}) == 1:
        return _namesakes(refs, lang)
    names = []
    for card in cards:
        if isinstance(card, CardRef):
            names.append(f"「{card.name(lang)}」" if lang == "ja" else card.name(lang))
        else:
            name = card["name_ja"] if lang == "ja" and card["name_ja"] else card["name_en"]
            names.append(f"「{name}」×{card['count']}" if lang == "ja" else f"{card['count']}× {name}")
    return sep.join(names)


def _namesakes(cards: list[CardRef], lang: str) -> str:
    """Cards of one name (同名カード) under several passcodes: the name once, then each passcode's copies."""
    if lang == "ja":
        return f"「{cards[0].name(lang)}」（" + "、".join(f"{c.passcode:08d}×{c.count}" for c in cards) + "）"
    return f"{cards[0].name(lang)} (" + ", ".join(f"{c.count}× {c.passcode:08d}" for c in cards) + ")"


def _roster_details(ctx: dict[str, Any], lang: str) -> str:
    labels = {"missing": ("missing", "不足"), "unregistered": ("not registered", "未記入")}
    parts = [f"{labels[key][lang == 'ja']} {_names(ctx[key], lang)}" for key in ("missing", "unregistered") if ctx[key]]
    return ("／" if lang == "ja" else "; ").join(parts)


def _language_names(codes: list[str], lang: str, conjunction: str = "and") -> str:
    names = [_LANGUAGES[code][lang == "ja"] for code in codes]
    if lang == "ja":
        return "・".join(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def _first(ctx: dict[str, Any]) -> tuple[str, str]:
    """The first printing a printing violation names, in English and Japanese."""
    key = next(key for key in _FIRST if key in ctx)
    first, exact = ctx[key], ctx["first_printing_date_exact"]
    texts = _FIRST[key]
    pick = 0 if first is None else 1 if exact else 2
    return texts[0][pick].format(first), texts[1][pick].format(first)


def _extra_types(ruleset: Ruleset) -> tuple[str, str]:
    """The extra-deck monster types in force, as "Fusion or Synchro" and "融合・シンクロ"."""
    kinds = [_TYPES[kind] for kind in ruleset.card_types if kind != "pendulum"]
    en = [name for name, _ja, _article in kinds]
    return ", ".join(en[:-1]) + f" or {en[-1]}", "・".join(ja for _en, ja, _article in kinds)


def _fields(violation: Violation, lang: str, ruleset: Ruleset) -> dict[str, Any]:
    ctx = violation.ctx
    fields: dict[str, Any] = {**ctx, "cards": _names(violation.cards, lang), "ruleset": ruleset.id}
    fields["banlist"] = ctx.get("banlist_name", ctx.get("banlist"))
    if "type" in ctx:
        name, fields["type_ja"], article = _TYPES[ctx["type"]]
        fields["type_en"] = f"{article} {name}"
    fields["section_en"], fields["section_ja"] = _SECTIONS[violation.section]
    code = violation.code
    if code == "roster_mismatch":
        fields["details"] = _roster_details(ctx, lang)
    elif code == "unknown_card":
        fields["entry"], fields["hint"] = _unknown(ctx, lang)
    elif code in ("no_japanese_printing", "no_tcg_printing", "not_printed_in_language"):
        fields["first_en"], fields["first_ja"] = _first(ctx)
    elif code == "main_deck_card_in_extra_deck":
        fields["extra_types_en"], fields["extra_types_ja"] = _extra_types(ruleset)
    elif code == "language_not_allowed":
        fields["allowed_en"], fields["allowed_ja"] = (_language_names(ctx["allowed"], x) for x in ("en", "ja"))
    if code == "opaque_protectors_required":
        fields["languages"] = ("・" if lang == "ja" else ", ").join(ctx["languages"])
    elif code == "not_printed_in_language":
        fields["languages"] = _language_names(ctx["languages"], lang, "or")
    return fields


def _unknown(ctx: dict[str, Any], lang: str) -> tuple[str, str]:
    passcode, name = ctx["passcode"], ctx["name"]
    if lang == "ja":
        entry = "・".join(
            filter(
                None,
                [None if passcode is None else f"パスワード{passcode:08d}", None if name is None else f"「{name}」"],
            )
        )
    else:
        entry = " with ".join(
            filter(
                None,
                [
                    None if passcode is None else f"Passcode {passcode:08d}",
                    None if name is None else f"the name '{name}'",
                ],
            )
        )
        entry = entry[0].upper() + entry[1:]
    return entry, _hint(ctx, lang) + _newer(ctx, lang)


def _hint(ctx: dict[str, Any], lang: str) -> str:
    suggestions = ctx["suggestions"]
    if ctx["suggestions_omitted"]:
        if lang == "ja":
            return f"近い名前は、不明な名前の最初の{SUGGESTED_NAMES}件にだけ示します。"
        return f" Closest names are given for the first {SUGGESTED_NAMES} unknown names only."
    if not suggestions:
        return ""
    names = [s["name_ja"] if lang == "ja" and s["name_ja"] else s["name_en"] for s in suggestions]
    if lang == "ja":
        return "近い名前：" + "、".join(f"「{n}」" for n in names)
    return " Closest names: " + ", ".join(names) + "."


def _newer(ctx: dict[str, Any], lang: str) -> str:
    """What an unknown card on a day after the card data end may be: a card printed since, that is after the day
    they end (on that day they are complete: rules/eras.py `printed_by`)."""
    until = ctx.get("printings_complete_until")
    if until is None:
        return ""
    if lang == "ja":
        return f"（カードのデータは{until}までの発売分です。それより後に発売されたカードは未収録の可能性があります。）"
    return f" (The card data cover printings until {until}: a card printed since may be missing.)"


def render(violation: Violation, lang: str, ruleset: Ruleset) -> tuple[str, str]:
    """The message and the remedy for `violation` in `lang` (ja or en), under `ruleset`."""
    rule = RULES[violation.code]
    fields = _fields(violation, lang, ruleset)
    if lang == "ja":
        return rule.message_ja.format(**fields), rule.remedy_ja
    return rule.message_en.format(**fields), rule.remedy_en


# What each note of an answer says, in English and Japanese: {seeds} is the seeds' date, {types} the later types.
_NOTES = {
    "before_seeds": (
        "The event is before {seeds}, the date of the tournament rules applied; no earlier rules are bundled, so "
        "these were applied.",
        "大会日は、適用した大会規定（{seeds}版）より前です。それ以前の規定は収録していないため、"
        "この規定を適用しました。",
    ),
    "later_card_types": (
        "{types} are allowed: the 2008 rules do not name them; later Master Rules added them and changed no other "
        "deck-construction number. {places}",
        "{types}を認めています。2008年の大会規定にない種類で、後のマスタールールが加えました（デッキ構築の"
        "他の枚数は変わっていません）。{places}",
    ),
    "tcg_event": (
        "A TCG event: the TCG Forbidden/Limited list, TCG printings and TCG languages were applied. The rules and "
        "penalty regulations cited are the 2008 OCG documents; their penalties and citations apply by analogy.",
        "TCGの大会です。TCGのリミットレギュレーション、TCG版の発売日とTCGの言語を適用しました。大会規定と"
        "罰則規定はOCGの文書（2008年版）で、罰則と条文の引用はそのまま類推で示しています。",
    ),
    "list_may_be_outdated": (
        "{banlist} (from {since}) is the newest list of this format the service holds, and by the usual cadence a "
        "newer one may be in force on this date: check the list in force, or name the list to apply.",
        "{banlist}（{since}から）はこのサービスが持つ最新のリストですが、通常の改定時期からみて、この日付には"
        "新しいリストが施行されている可能性があります。施行中のリストを確認するか、適用するリストを指定してください。",
    ),
    "no_list_in_force": (
        "No Forbidden/Limited list of this format is bundled for this date; only the three-copy rule limited copies.",
        "この日付に効力のあるリミットレギュレーションは収録されていません。枚数は同名カード3枚までの規定"
        "だけで確認しました。",
    ),
}


def note_text(code: str, ruleset: Ruleset, lang: str, banlist: Banlist | None = None) -> str:
    """What the note `code` of an answer under `ruleset` (and `banlist`) says, in `lang` (ja or en)."""
    ja = lang == "ja"
    extra = [_TYPES[kind][ja] for kind in ruleset.since if kind != "pendulum"]
    if ja:
        types = "、".join(f"{_TYPES[kind][1]}モンスター（{day}から）" for kind, day in ruleset.since.items())
        places = "・".join(extra) + "モンスターはエクストラデッキに入ります。" if extra else ""
        if "pendulum" in ruleset.since:
            places += "ペンデュラムモンスターは元の種類の置き場所に入ります。"
    else:
        types = ", ".join(f"{_TYPES[kind][0]} Monsters (from {day})" for kind, day in ruleset.since.items())
        places = " and ".join(extra) + " Monsters go in the extra deck. " if extra else ""
        if "pendulum" in ruleset.since:
            places += "A Pendulum Monster goes where its base type goes."
    listed = (
        {"banlist": "", "since": ""} if banlist is None else {"banlist": banlist.name, "since": banlist.effective_from}
    )
    return _NOTES[code][ja].format(seeds=SEEDS_DATE, types=types, places=places.strip(), **listed)


# What an answer says of a name read loosely (model.LooseRead), in English and Japanese.
_LOOSE = (
    "'{typed}' is no card's name as written; it was read as {name}, the one card whose name differs from it only in "
    "spacing, punctuation, kana or kanji forms.",
    "「{typed}」という名前のカードはありません。空白・記号・かな・漢字の字体だけが違う名前のカードが一つだけあるので、"
    "「{name}」として読みました。",
)


def loose_read_text(typed: str, name: str, lang: str) -> str:
    """What an answer says of the name `typed`, read loosely as the card named `name`, in `lang` (ja or en)."""
    return _LOOSE[lang == "ja"].format(typed=typed, name=name)
