"""Messages for violations, rendered from the registry's templates in Japanese or English."""

from __future__ import annotations

from typing import Any

from deckcheck.limits import SUGGESTED_NAMES
from deckcheck.model import CardRef, Violation
from deckcheck.rules.registry import RULES, RULESET

_TYPES = {
    "fusion": ("a Fusion", "融合"),
    "synchro": ("a Synchro", "シンクロ"),
    "xyz": ("an Xyz", "エクシーズ"),
    "link": ("a Link", "リンク"),
    "pendulum": ("a Pendulum", "ペンデュラム"),
}
_SECTIONS = {
    "main": ("main deck", "メインデッキ"),
    "extra": ("extra deck", "エクストラデッキ"),
    "side": ("side deck", "サイドデッキ"),
    None: ("deck (main, extra and side deck together)", "デッキ（エクストラデッキ・サイドデッキを含む）"),
}


def _names(cards: list[dict[str, Any]] | tuple[CardRef, ...], lang: str) -> str:
    sep = "、" if lang == "ja" else ", "
    names = []
    for card in cards:
        if isinstance(card, CardRef):
            names.append(f"「{card.name(lang)}」" if lang == "ja" else card.name(lang))
        else:
            name = card["name_ja"] if lang == "ja" and card["name_ja"] else card["name_en"]
            names.append(f"「{name}」×{card['count']}" if lang == "ja" else f"{card['count']}× {name}")
    return sep.join(names)


def _roster_details(ctx: dict[str, Any], lang: str) -> str:
    labels = {"missing": ("missing", "不足"), "unregistered": ("not registered", "未記入")}
    parts = [f"{labels[key][lang == 'ja']} {_names(ctx[key], lang)}" for key in ("missing", "unregistered") if ctx[key]]
    return ("／" if lang == "ja" else "; ").join(parts)


def _fields(violation: Violation, lang: str) -> dict[str, Any]:
    ctx = violation.ctx
    fields: dict[str, Any] = {**ctx, "cards": _names(violation.cards, lang), "ruleset": RULESET}
    fields["banlist"] = ctx.get("banlist_name", ctx.get("banlist"))
    if "type" in ctx:
        fields["type_en"], fields["type_ja"] = _TYPES[ctx["type"]]
    fields["section_en"], fields["section_ja"] = _SECTIONS[violation.section]
    code = violation.code
    if code == "roster_mismatch":
        fields["details"] = _roster_details(ctx, lang)
    elif code == "unknown_card":
        fields["entry"], fields["hint"] = _unknown(ctx, lang)
    elif code == "no_japanese_printing":
        first = ctx["first_japanese_printing"]
        exact = ctx["first_printing_date_exact"]
        fields["first_en"] = (
            "never printed in Japanese"
            if first is None
            else f"first Japanese printing {first}"
            if exact
            else f"first Japanese printing unknown, after {first}"
        )
        fields["first_ja"] = (
            "日本語版は未発売"
            if first is None
            else f"日本語版の初出は{first}"
            if exact
            else f"日本語版の初出日は不明、{first}以降"
        )
    elif code == "opaque_protectors_required":
        fields["languages"] = ("・" if lang == "ja" else ", ").join(ctx["languages"])
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
    suggestions = ctx["suggestions"]
    if ctx["suggestions_omitted"]:
        if lang == "ja":
            return entry, f"近い名前は、不明な名前の最初の{SUGGESTED_NAMES}件にだけ示します。"
        return entry, f" Closest names are given for the first {SUGGESTED_NAMES} unknown names only."
    if not suggestions:
        return entry, ""
    names = [s["name_ja"] if lang == "ja" and s["name_ja"] else s["name_en"] for s in suggestions]
    if lang == "ja":
        return entry, "近い名前：" + "、".join(f"「{n}」" for n in names)
    return entry, " Closest names: " + ", ".join(names) + "."


def render(violation: Violation, lang: str) -> tuple[str, str]:
    """The message and the remedy for `violation` in `lang` (ja or en)."""
    rule = RULES[violation.code]
    fields = _fields(violation, lang)
    if lang == "ja":
        return rule.message_ja.format(**fields), rule.remedy_ja
    return rule.message_en.format(**fields), rule.remedy_en
