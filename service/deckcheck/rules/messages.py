"""Messages for violations, rendered from the registry's templates in Japanese or English, and the notes that say
where an answer reaches beyond the 2008 rules."""

from __future__ import annotations

from typing import Any

from deckcheck.data import Banlist
from deckcheck.limits import SUGGESTED_NAMES
from deckcheck.model import CardRef, Ruleset, Violation
from deckcheck.rules.eras import RULES_DATE
from deckcheck.rules.registry import RULES
from deckcheck.sentences import say


def _say(key: str, lang: str, /, **fields: object) -> str:
    return say("messages", key, lang, **fields)


def _names(cards: list[dict[str, Any]] | tuple[CardRef, ...], lang: str) -> str:
    refs = [card for card in cards if isinstance(card, CardRef)]
    if len(refs) == len(cards) > 1 and len({card.name(lang) for card in refs}) == 1:
        return _namesakes(refs, lang)
    names = []
    for card in cards:
        if isinstance(card, CardRef):
            names.append(_say("card.name", lang, name=card.name(lang)))
        else:
            name = card["name_ja"] if lang == "ja" and card["name_ja"] else card["name_en"]
            names.append(_say("card.copies", lang, name=name, count=card["count"]))
    return _say("separator.names", lang).join(names)


def _namesakes(cards: list[CardRef], lang: str) -> str:
    """Cards of one name (同名カード) under several passcodes: the name once, then each passcode's copies."""
    copies = (_say("card.passcode_copies", lang, passcode=card.passcode, count=card.count) for card in cards)
    return _say("card.namesakes", lang, name=cards[0].name(lang), copies=_say("separator.names", lang).join(copies))


def _roster_details(ctx: dict[str, Any], lang: str) -> str:
    parts = [
        _say(f"roster.{key}", lang, cards=_names(ctx[key], lang)) for key in ("missing", "unregistered") if ctx[key]
    ]
    return _say("separator.roster", lang).join(parts)


def _language_names(codes: list[str], lang: str, conjunction: str = "and") -> str:
    names = [_say(f"language.{code}", lang) for code in codes]
    if lang == "ja":
        return "・".join(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def _first(ctx: dict[str, Any]) -> tuple[str, str]:
    """The first printing a printing violation names, in English and Japanese."""
    key = next(key for key in ("first_japanese_printing", "first_tcg_printing") if key in ctx)
    first, exact = ctx[key], ctx["first_printing_date_exact"]
    pick = "never" if first is None else "on" if exact else "after"
    return _say(f"first.{key}.{pick}", "en", day=first), _say(f"first.{key}.{pick}", "ja", day=first)


def _extra_types(ruleset: Ruleset) -> tuple[str, str]:
    """The extra-deck monster types in force, as "Fusion or Synchro" and "融合・シンクロ"."""
    kinds = [kind for kind in ruleset.card_types if kind != "pendulum"]
    en = [_say(f"type.{kind}", "en") for kind in kinds]
    return ", ".join(en[:-1]) + f" or {en[-1]}", "・".join(_say(f"type.{kind}", "ja") for kind in kinds)


def _fields(violation: Violation, lang: str, ruleset: Ruleset) -> dict[str, Any]:
    ctx = violation.ctx
    fields: dict[str, Any] = {**ctx, "cards": _names(violation.cards, lang), "ruleset": ruleset.id}
    fields["banlist"] = ctx.get("banlist_name", ctx.get("banlist"))
    if "type" in ctx:
        fields["type_en"] = _say(f"type_with_article.{ctx['type']}", "en")
        fields["type_ja"] = _say(f"type_with_article.{ctx['type']}", "ja")
    section = f"section.{violation.section or 'whole'}"
    fields["section_en"], fields["section_ja"] = _say(section, "en"), _say(section, "ja")
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
        fields["languages"] = _say("separator.languages", lang).join(ctx["languages"])
    elif code == "not_printed_in_language":
        fields["languages"] = _language_names(ctx["languages"], lang, "or")
    return fields


def _unknown(ctx: dict[str, Any], lang: str) -> tuple[str, str]:
    passcode, name = ctx["passcode"], ctx["name"]
    form = "name" if passcode is None else "passcode" if name is None else "both"
    entry = _say(f"unknown.{form}", lang, passcode=passcode, name=name)
    return entry, _hint(ctx, lang) + _newer(ctx, lang)


def _hint(ctx: dict[str, Any], lang: str) -> str:
    suggestions = ctx["suggestions"]
    if ctx["suggestions_omitted"]:
        return _say("unknown.closest_omitted", lang, limit=SUGGESTED_NAMES)
    if not suggestions:
        return ""
    names = [s["name_ja"] if lang == "ja" and s["name_ja"] else s["name_en"] for s in suggestions]
    quoted = (_say("card.name", lang, name=name) for name in names)
    return _say("unknown.closest", lang, names=_say("separator.names", lang).join(quoted))


def _newer(ctx: dict[str, Any], lang: str) -> str:
    """What an unknown card on a day after the card data end may be: a card printed since, that is after the day
    they end (on that day they are complete: rules/eras.py `printed_by`)."""
    until = ctx.get("printings_complete_until")
    return "" if until is None else _say("unknown.newer", lang, until=until)


def render(violation: Violation, lang: str, ruleset: Ruleset) -> tuple[str, str]:
    """The message and the remedy for `violation` in `lang` (ja or en), under `ruleset`."""
    rule = RULES[violation.code]
    fields = _fields(violation, lang, ruleset)
    if lang == "ja":
        return rule.message_ja.format(**fields), rule.remedy_ja
    return rule.message_en.format(**fields), rule.remedy_en


def note_text(code: str, ruleset: Ruleset, lang: str, banlist: Banlist | None = None) -> str:
    """What the note `code` of an answer under `ruleset` (and `banlist`) says, in `lang` (ja or en)."""
    extra = [_say(f"type.{kind}", lang) for kind in ruleset.since if kind != "pendulum"]
    later = (
        _say("note.later_type", lang, type=_say(f"type.{kind}", lang), day=day) for kind, day in ruleset.since.items()
    )
    types = _say("separator.names", lang).join(later)
    places = _say("note.extra_deck_types", lang, types=_say("note.type_separator", lang).join(extra)) if extra else ""
    if "pendulum" in ruleset.since:
        places += _say("note.pendulum", lang)
    listed = (
        {"banlist": "", "since": ""} if banlist is None else {"banlist": banlist.name, "since": banlist.effective_from}
    )
    return _say(f"note.{code}", lang, rules=RULES_DATE, types=types, places=places.strip(), **listed)


def loose_read_text(typed: str, name: str, lang: str) -> str:
    """What an answer says of the name `typed`, read loosely as the card named `name`, in `lang` (ja or en)."""
    return _say("loose_read", lang, typed=typed, name=name)
