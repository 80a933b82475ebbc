"""The answers of POST /v1/decks/parse (every entry resolved, the entries that name no card) and /v1/decks/convert."""

from __future__ import annotations

from pydantic import ConfigDict, Field

import deckcheck.wire.answers.examples as ex
from deckcheck.limits import SUGGESTED_NAMES
from deckcheck.wire.answers.verdict import LooseReadOut, SectionCounts
from deckcheck.wire.base import WireModel
from deckcheck.wire.enums import CardKind, ExtraDeckType, Section, UnknownReason
from deckcheck.wire.request_values import DeckFormat

NO_CARD = "; null when the entry names no official card."


class ParsedCard(WireModel):
    """One deck entry with its card resolved (the card's fields null when it names no official card)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PARSED_CARD]})

    passcode: int | None = Field(
        description="The passcode the entry gave, else its card's canonical passcode; null for a name that is no card.",
        examples=[ex.POT_OF_GREED],
    )
    canonical: int | None = Field(
        description="The card's canonical passcode (an alternate passcode resolves to it)" + NO_CARD,
        examples=[ex.POT_OF_GREED],
    )
    name_en: str | None = Field(description="The card's English name" + NO_CARD, examples=["Pot of Greed"])
    name_ja: str | None = Field(
        description="The card's Japanese name, empty for a TCG-only card" + NO_CARD, examples=["強欲な壺"]
    )
    kind: CardKind | None = Field(description="The card's kind" + NO_CARD, examples=["spell"])
    extra_deck_type: ExtraDeckType | None = Field(
        description="The card's extra-deck type (none for a main-deck card)" + NO_CARD, examples=["none"]
    )
    count: int = Field(description="Copies the entry gives.", examples=[1])
    language: str | None = Field(
        description="The printed language the entry gave (the first part of its tag, in lower case); null when it "
        "gave none.",
        examples=["ja"],
    )
    lines: list[int] = Field(
        description="The lines (from 1) of a .ydk or text source the entry came from; empty for JSON and ydke.",
        examples=[[3]],
    )


class Suggestion(WireModel):
    """A card whose name is close to a name that is no card's."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SUGGESTION]})

    passcode: int = Field(description="The card's canonical passcode.", examples=[89631139])
    name_en: str = Field(description="Its English name.", examples=["Blue-Eyes White Dragon"])
    name_ja: str = Field(description="Its Japanese name; empty for a TCG-only card.", examples=["青眼の白龍"])


class ParseProblem(WireModel):
    """An entry that names no official card, with the closest names."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PARSE_PROBLEM]})

    section: Section = Field(description="The section of the entry.", examples=["main"])
    index: int = Field(description="The entry's position in its section (from 0).", examples=[2])
    lines: list[int] = Field(description="Its lines (from 1) in a .ydk or text source.", examples=[[4]])
    type: UnknownReason = Field(description="Why it names no card.", examples=["unknown_name"])
    msg: str = Field(
        description="The problem (English).", examples=["'Blue-Eyes White Dargon' is not the name of an official card"]
    )
    suggestions: list[Suggestion] = Field(
        description="Up to three cards with the closest names, closest first; empty for an entry without a name.",
        examples=[[ex.SUGGESTION]],
    )
    suggestions_omitted: bool = Field(
        description=f"True when the entry got no suggestions because the deck's first {SUGGESTED_NAMES} unknown "
        "names had them.",
        examples=[False],
    )


class ParseResponse(WireModel):
    """The structured deck a source gives: every entry resolved, and the entries that name no official card."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PARSE_RESPONSE, ex.PARSE_JSON_RESPONSE]})

    format: DeckFormat = Field(description="The form the deck was given in.", examples=["text"])
    counts: SectionCounts = Field(description="Cards in each section.", examples=[ex.PARSE_RESPONSE["counts"]])
    main: list[ParsedCard] = Field(description="The main-deck entries, in order.", examples=[[ex.PARSED_CARD]])
    extra: list[ParsedCard] = Field(description="The extra-deck entries.", examples=[[ex.PARSED_EXTRA]])
    side: list[ParsedCard] = Field(description="The side-deck entries.", examples=[[]])
    problems: list[ParseProblem] = Field(
        description="The entries that name no official card, in section order.", examples=[[ex.PARSE_PROBLEM]]
    )
    read_loosely: list[LooseReadOut] = Field(
        description="The entries whose names no card has as written, each read as the one card it loosely names "
        "(messages in English); empty when every name was written exactly.",
        examples=[[ex.LOOSE_READ]],
    )


class DeckEntryOut(WireModel):
    """An entry of a deck written as JSON: a passcode (or, for a card a text list named, its name) and the copies.
    POST it back as an EntryIn."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.DECK_ENTRY]})

    passcode: int | None = Field(
        default=None,
        description="The passcode, when the source gave one; absent otherwise.",
        examples=[ex.POT_OF_GREED],
    )
    name: str | None = Field(
        default=None, description="The name the source wrote, when it gave no passcode.", examples=["Dark Magician"]
    )
    count: int = Field(
        description="Copies; consecutive copies of a .ydk source add up, and may pass the 99 an EntryIn takes.",
        examples=[3],
    )
    language: str | None = Field(
        default=None, description="The printed language, when the source gave one; absent otherwise.", examples=["ja"]
    )


class JsonDeck(WireModel):
    """A deck as JSON lists, the form POST /v1/validate takes as main, extra and side."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.JSON_DECK]})

    main: list[DeckEntryOut] = Field(description="The main deck.", examples=[ex.JSON_DECK["main"]])
    extra: list[DeckEntryOut] = Field(description="The extra deck.", examples=[ex.JSON_DECK["extra"]])
    side: list[DeckEntryOut] = Field(description="The side deck.", examples=[[]])


class ConvertResponse(WireModel):
    """The deck in the form asked for: `content` for ydk, ydke and text, `deck` for json."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.CONVERT_RESPONSE, ex.CONVERT_JSON_RESPONSE]})

    format: DeckFormat = Field(description="The form written (the request's `to`).", examples=["ydke"])
    content: str | None = Field(
        description="The .ydk file, ydke:// link or text list; null for json.", examples=[ex.SMALL_YDKE]
    )
    deck: JsonDeck | None = Field(description="The deck as JSON lists, for json; null otherwise.", examples=[None])
