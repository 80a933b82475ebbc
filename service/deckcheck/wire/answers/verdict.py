"""The verdict POST /v1/validate answers (and each recheck line carries), and the rule eras of GET /v1/rules/eras."""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import ConfigDict, Field

import deckcheck.wire.answers.examples as ex
from deckcheck.limits import SUGGESTED_NAMES
from deckcheck.wire.base import WireModel
from deckcheck.wire.enums import (
    CardLanguage,
    CardType,
    NoteCode,
    Penalty,
    PenaltyAppliesTo,
    PenaltyBasis,
    RuleCode,
    Section,
)
from deckcheck.wire.judge.answers import EscalationOut
from deckcheck.wire.judge.examples import ASSESSMENT
from deckcheck.wire.request_values import Format

RULE = (
    "The rule broken, as citations joined by `, `: TR is the 2008-03-15 OCG tournament rules (大会規定), PR the "
    "penalty regulations (大会罰則規定), ※ a note under a section."
)
CTX = (
    "Machine-readable details; the keys depend on `code`. Sizes (main_deck_too_small, main_deck_too_large, "
    "extra_deck_too_large, side_deck_too_large): count, and min or max. Copies (too_many_copies; forbidden_card, "
    "limited_card_exceeded, semi_limited_card_exceeded also name the list): count, limit, banlist (list id, `inline` "
    "for a list given in the request), banlist_name. extra_deck_card_in_main_deck, card_type_not_allowed: type (a "
    "CardType). unknown_card: passcode and name as written (either may be null), reason (an UnknownReason), "
    "suggestions (up to 3 {passcode, name_en, name_ja}), suggestions_omitted (true past the deck's first "
    f"{SUGGESTED_NAMES} unknown names). language_not_allowed: language, count, allowed (languages). "
    "no_japanese_printing, no_tcg_printing: date (the event's), first_japanese_printing or first_tcg_printing "
    "(YYYY-MM-DD, null: never printed), "
    "first_printing_date_exact (false: the card appeared at some unknown day after that date). "
    "not_printed_in_language: date, languages (those presented), first_tcg_printing, first_printing_date_exact. "
    "opaque_protectors_required: languages (those in the deck). roster_mismatch: missing and unregistered (cards "
    "{passcode, name_en, name_ja, count} the roster lists but the deck lacks, and the reverse). "
    "side_swap_count_changed: registered, presented (section sizes). main_deck_card_in_extra_deck, "
    "protectors_not_uniform: no keys."
)


class CardOut(WireModel):
    """A card a violation is about, with the copies that count and the copies allowed."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.CARD]})

    passcode: int | None = Field(
        description="The card's canonical passcode; for an unknown card, the passcode as written (null when only a "
        "name was written).",
        examples=[ex.POT_OF_GREED],
    )
    name: str = Field(
        description="The card's name in the answer's language (English for a card with no Japanese name); for an "
        "unknown card, the name or passcode as written.",
        examples=["Pot of Greed"],
    )
    count: int = Field(
        description="Copies of this card the violation counts (over main, extra and side for a copy rule; for "
        "roster_mismatch, the copies missing or not registered).",
        examples=[1],
    )
    limit: int | None = Field(
        description="Copies the list in force (or the three-copy rule) allows: 0 to 3; null where no limit applies.",
        examples=[0],
    )


class ViolationOut(WireModel):
    """One broken rule: where, which cards, the citation, the penalty the regulations mandate and the remedy."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.VIOLATION]})

    code: RuleCode = Field(
        description="Which rule is broken (GET /v1/rules describes each code).", examples=["forbidden_card"]
    )
    message: str = Field(
        description="What is wrong, in the language of Accept-Language (en or ja).",
        examples=["Pot of Greed is Forbidden on OCG 2008.03."],
    )
    section: Section | None = Field(
        description="The deck section the violation is in; null for the whole deck (protectors, a roster mismatch "
        "over all sections).",
        examples=["main"],
    )
    loc: list[list[str | int]] = Field(
        description='The input entries that caused it: ["main", 14] is the 15th main-deck entry (from 0), '
        '["main"] the whole section, ["roster", "side", 0] the first side entry of the roster.',
        examples=[[["main", 14]]],
    )
    cards: list[CardOut] = Field(
        description="The cards it is about, with counts and limits; empty for a size rule.", examples=[[ex.CARD]]
    )
    ctx: dict[str, Any] = Field(description=CTX, examples=[ex.FORBIDDEN_CTX])
    rule: str = Field(
        description=RULE,
        examples=["TR 3", "TR 2.D.8", "TR 1 ※, TR 3"],
    )
    penalty: Penalty = Field(description="The penalty the regulations mandate for it.", examples=["duel_forfeiture"])
    penalty_basis: PenaltyBasis = Field(
        description="Whether the regulations name this violation (explicit) or the penalty is the closest one's.",
        examples=["explicit"],
    )
    penalty_ref: str = Field(
        description="The item of the penalty regulations the penalty comes from.", examples=["PR 3.A.3"]
    )
    penalty_applies_to: PenaltyAppliesTo | None = Field(
        description="Which duel a duel forfeiture costs (PR 1.C); null for a caution or warning.",
        examples=["next_duel"],
    )
    remedy: str = Field(description="What the player must do (PR 3), in the answer's language.", examples=[ex.REPLACE])
    lines: list[int] = Field(
        description="Lines (from 1) of a .ydk or text deck that caused it; empty for JSON lists and ydke links.",
        examples=[[3]],
    )
    roster_lines: list[int] = Field(
        description="Lines (from 1) of a .ydk or text roster that caused it.", examples=[[]]
    )
    escalations: list[EscalationOut] | None = Field(
        default=None,
        description="Only where the request gave `prior`: the higher penalty the referee may give because the "
        "player already received this violation in the tournament (PR 2.B); empty for a first time. Never applied: "
        "`penalty` stays the one the regulations name.",
        examples=[[ASSESSMENT["escalations"][0]]],
    )


class BanlistOut(WireModel):
    """A Forbidden/Limited list: its id, name and the days it was in force."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.BANLIST]})

    id: str = Field(
        description="The list's id: <format>-<first day> for a bundled list; `inline` for a list given in the request.",
        examples=["ocg-2008-03-01"],
    )
    name: str = Field(description="The list's name, as messages show it.", examples=["OCG 2008.03"])
    effective_from: dt.date | None = Field(
        description="The first day it was in force; null for a list given in the request.", examples=["2008-03-01"]
    )
    effective_until: dt.date | None = Field(
        description="The day the next list of the format took over; null while still in force or for a given list.",
        examples=["2008-09-01"],
    )


class NoteOut(WireModel):
    """Where an answer reaches beyond the 2008 OCG tournament rules and penalty regulations, and what it did."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.NOTE]})

    code: NoteCode = Field(description="Which note.", examples=["later_card_types"])
    message: str = Field(description="The note, in the answer's language.", examples=[ex.NOTE["message"]])


class RulesetOut(WireModel):
    """The tournament rules applied: the format and the rule era of the event date."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.RULESET]})

    id: str = Field(
        description="<format>-<day the era began>; ocg-2008-03-15 is the 2008 rules as written.",
        examples=["ocg-2008-03-15"],
    )
    format: Format = Field(description="The event's format.", examples=["ocg"])
    card_types: list[CardType] = Field(
        description="The monster types in force: fusion and synchro, then xyz, pendulum and link from their eras.",
        examples=[["fusion", "synchro"]],
    )
    languages: list[CardLanguage] = Field(
        description="The card languages the format allows (TR 1).", examples=[ex.LANGUAGES]
    )
    notes: list[NoteOut] = Field(
        description="Where the answer reaches beyond the 2008 rules; empty for an OCG event under them.",
        examples=[[ex.NOTE]],
    )


class EraOut(RulesetOut):
    """One rule era of a format: the ruleset that applied from one day until another."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra={"examples": [ex.ERA]})

    from_: dt.date | None = Field(
        alias="from", description="The era's first day; null: every event before `until`.", examples=["2011-03-19"]
    )
    until: dt.date | None = Field(
        description="The day the next era began; null: still in force.", examples=["2014-03-21"]
    )


class SectionCounts(WireModel):
    """How many cards each section of a deck holds."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.COUNTS]})

    main: int = Field(description="Cards in the main deck.", examples=[40])
    extra: int = Field(description="Cards in the extra deck.", examples=[1])
    side: int = Field(description="Cards in the side deck.", examples=[0])


class LooseReadOut(WireModel):
    """An entry whose name no card has as written, read as the one card whose name it is but for spacing,
    punctuation (・, hyphens, apostrophes), hiragana for katakana, width and kanji forms (竜 for 龍): what was typed and
    the card's name as printed, so a site can correct its text."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.LOOSE_READ]})

    loc: list[str | int] = Field(
        description='The entry, as a violation\'s loc gives it: ["main", 0], or ["roster", "main", 0] in the roster.',
        examples=[["main", 0]],
    )
    lines: list[int] = Field(description="Its lines (from 1) in a text source; empty for JSON lists.", examples=[[2]])
    typed: str = Field(description="The name as the entry gives it.", examples=["ブラックマジシャン"])
    name: str = Field(
        description="The card's name as printed (Japanese or English, as typed) that it was read as.",
        examples=["ブラック・マジシャン"],
    )
    passcode: int = Field(description="The card's canonical passcode.", examples=[46986414])
    name_en: str = Field(description="The card's English name.", examples=["Dark Magician"])
    name_ja: str = Field(
        description="The card's Japanese name; empty for a TCG-only card.", examples=["ブラック・マジシャン"]
    )
    message: str = Field(
        description="That it was read loosely, in the answer's language (English in a parse answer).",
        examples=[ex.LOOSE_READ["message"]],
    )


class ValidateResponse(WireModel):
    """The verdict: legal or not, the most severe penalty and every violation, with the list and the rules applied."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.VALIDATE_RESPONSE]})

    legal: bool = Field(description="True when the deck breaks no rule.", examples=[False])
    penalty: Penalty | None = Field(
        description="The most severe penalty of the violations (PR 1 order); null for a legal deck.",
        examples=["duel_forfeiture"],
    )
    counts: SectionCounts = Field(description="Cards in each section, as presented.", examples=[ex.COUNTS])
    date: dt.date = Field(description="The event date the deck was checked for.", examples=["2008-06-01"])
    banlist: BanlistOut | None = Field(
        description="The list applied; null when the format had no list in force on the date (note no_list_in_force).",
        examples=[ex.BANLIST],
    )
    ruleset: RulesetOut = Field(description="The rules applied.", examples=[ex.RULESET])
    violations: list[ViolationOut] = Field(
        description="Every violation, by section (main, extra, side, then the whole deck), then code, then position.",
        examples=[[ex.VIOLATION]],
    )
    read_loosely: list[LooseReadOut] = Field(
        description="The entries (of the deck, then of the roster) whose names no card has as written, each read as "
        "the one card it loosely names; empty when every name was written exactly.",
        examples=[[ex.LOOSE_READ]],
    )
