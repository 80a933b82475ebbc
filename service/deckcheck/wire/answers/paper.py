"""The answer of POST /v1/decks/read: a deck read from paper, line by line, with what needs review."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from deckcheck.wire.answers.decks import JsonDeck
from deckcheck.wire.base import WireModel
from deckcheck.wire.enums import Section

ReviewReason = Literal[
    "low_confidence", "read_loosely", "unknown_card", "count_unclear", "section_unclear", "over_total"
]
_BOX = Field(
    description="The line's box on its page: left, top, width, height in the page's pixels; null for a QR read.",
    examples=[[170, 1040, 413, 62]],
)
_CARD: dict[str, Any] = {"passcode": 46986414, "name_ja": "ブラック・マジシャン", "name_en": "Dark Magician"}
_LINE: dict[str, Any] = {
    "page": 1,
    "box": [170, 1040, 413, 62],
    "text": "3 ブラック・マジシャン",
    "confidence": 93.6,
    "section": "main",
    "count": 3,
    **_CARD,
    "needs_review": False,
    "reasons": [],
    "message": None,
    "suggestions": [],
}


class PaperCard(WireModel):
    """A card a line may be."""

    model_config = ConfigDict(json_schema_extra={"examples": [_CARD]})

    passcode: int = Field(description="The card's canonical passcode.", examples=[46986414])
    name_ja: str | None = Field(
        description="Its Japanese name; null for a TCG-only card.", examples=["ブラック・マジシャン"]
    )
    name_en: str | None = Field(description="Its English name.", examples=["Dark Magician"])


class PaperLine(WireModel):
    """One card line as read, and whether staff must confirm it."""

    model_config = ConfigDict(json_schema_extra={"examples": [_LINE]})

    page: int = Field(description="The page it is on, from 1.", examples=[1])
    box: list[int] | None = _BOX
    text: str = Field(
        description="What was read (for a QR read: the card's name).", examples=["3 ブラック・マジシャン"]
    )
    confidence: float = Field(description="OCR's confidence in the line's least sure word, 0–100.", examples=[93.6])
    section: Section = Field(description="The section it was read under.", examples=["main"])
    count: int | None = Field(description="The copies read; null when no count could be read.", examples=[3])
    passcode: int | None = Field(description="The card read, or the best guess for a line to review.", examples=[1])
    name_ja: str | None = Field(description="That card's Japanese name.", examples=["ブラック・マジシャン"])
    name_en: str | None = Field(description="That card's English name.", examples=["Dark Magician"])
    needs_review: bool = Field(description="Staff must confirm the line; it is not in `deck`.", examples=[False])
    reasons: list[ReviewReason] = Field(description="Why it needs review.", examples=[["count_unclear"]])
    message: str | None = Field(description="Why, in words, in the language asked.", examples=[None])
    suggestions: list[PaperCard] = Field(description="Other cards an unknown name may be.", examples=[[]])


class PaperPage(WireModel):
    """The size of a page as read: the pixels its boxes are in."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"page": 1, "width": 2481, "height": 3508}]})

    page: int = Field(description="The page, from 1.", examples=[1])
    width: int = Field(description="Its width in pixels.", examples=[2481])
    height: int = Field(description="Its height in pixels.", examples=[3508])


class PaperQr(WireModel):
    """Where the QR code was read."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"page": 1, "box": [1870, 193, 419, 418]}]})

    page: int = Field(description="The page it is on.", examples=[1])
    box: list[int] = Field(description="Its box: left, top, width, height.", examples=[[1870, 193, 419, 418]])


class PaperCell(WireModel):
    """One cell of a ruled table on a page (the OCG deck recipe, the TCG deck list, a spreadsheet), as found."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"page": 1, "box": [130, 980, 1010, 62]}]})

    page: int = Field(description="The page it is on.", examples=[1])
    box: list[int] = Field(description="Its box: left, top, width, height.", examples=[[130, 980, 1010, 62]])


class IgnoredLine(WireModel):
    """A line read that names no card and is no heading: the sheet's own words, or what stands above the first
    heading (a title, the player's name)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"page": 1, "box": [147, 146, 429, 58], "text": "氏名"}]})

    page: int = Field(description="The page it is on.", examples=[1])
    box: list[int] = Field(description="Its box: left, top, width, height.", examples=[[147, 146, 429, 58]])
    text: str = Field(description="What was read.", examples=["氏名"])


_TOTAL: dict[str, Any] = {
    "page": 1,
    "box": [147, 947, 349, 77],
    "text": "モンスターカード (19)",
    "printed": 19,
    "read": 19,
    "agrees": True,
    "message": None,
    "lines": [0, 9],
    "of_kind": True,
}


class PaperTotal(WireModel):
    """A count printed beside a heading, and the copies read under it: a line OCR lost shows here."""

    model_config = ConfigDict(json_schema_extra={"examples": [_TOTAL]})

    page: int = Field(description="The page the heading is on.", examples=[1])
    box: list[int] = Field(description="The heading's box: left, top, width, height.", examples=[[147, 947, 349, 77]])
    text: str = Field(description="The heading as read.", examples=["モンスターカード (19)"])
    printed: int = Field(description="The count it prints.", examples=[19])
    read: int = Field(description="The copies read under it (a kind's to the next heading).", examples=[19])
    agrees: bool = Field(description="Whether the two are equal; if not, `complete` is false.", examples=[True])
    message: str | None = Field(description="What disagrees, in the language asked.", examples=[None])
    lines: list[int] = Field(
        description="The card lines under it: indexes into `lines`, from and to (not included).", examples=[[0, 9]]
    )
    of_kind: bool = Field(
        description="It heads one kind of card (to the next heading), not a section (to the next section).",
        examples=[True],
    )


IncompleteReason = Literal["nothing_read", "lines_to_review", "totals_disagree", "pages_not_read"]


_INCOMPLETE: dict[str, Any] = {
    "reason": "lines_to_review",
    "message": "Some lines need review: they are not in the deck until confirmed.",
}


class PaperIncomplete(WireModel):
    """One reason the deck read may not be the whole deck."""

    model_config = ConfigDict(json_schema_extra={"examples": [_INCOMPLETE]})

    reason: IncompleteReason = Field(
        description="nothing_read: no card line was read; lines_to_review: some line needs review; totals_disagree: "
        "a count printed on the page differs from the cards read under it; pages_not_read: the PDF has pages past "
        "those read.",
        examples=["lines_to_review"],
    )
    message: str = Field(description="The reason in words, in the language asked.", examples=[_INCOMPLETE["message"]])


class ReadResponse(WireModel):
    """A deck read from paper: exact from a QR code, or line by line by OCR with every uncertain line to review."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "source": "ocr",
                    "complete": True,
                    "incomplete": [],
                    "needs_review": 0,
                    "pages": [{"page": 1, "width": 2481, "height": 3508}],
                    "pages_in_file": 1,
                    "qr": None,
                    "lines": [_LINE],
                    "ignored": [],
                    "totals": [_TOTAL],
                    "deck": {"main": [{"passcode": 46986414, "count": 3}], "extra": [], "side": []},
                    "ydke": None,
                    "cells": [],
                }
            ]
        }
    )

    source: Literal["qr", "text", "ocr"] = Field(
        description=(
            "qr: read from a QR code, exact; text: read from a PDF's text layer, exact, no OCR; ocr: line by line."
        ),
        examples=["qr"],
    )
    complete: bool = Field(
        description="Some line was read, none needs review, every printed total agrees and every page was read: "
        "`deck` is the whole deck; else `incomplete` says why not.",
        examples=[True],
    )
    incomplete: list[PaperIncomplete] = Field(
        description="Why `deck` may not be the whole deck: empty when `complete`.", examples=[[]]
    )
    needs_review: int = Field(description="How many lines need review.", examples=[0])
    pages: list[PaperPage] = Field(
        description="The pages read.", examples=[[{"page": 1, "width": 2481, "height": 3508}]]
    )
    pages_in_file: int = Field(
        description="How many pages the file has (a PDF's past the first two are not read).", examples=[1]
    )
    qr: PaperQr | None = Field(description="Where the QR code was, for a QR read.", examples=[None])
    lines: list[PaperLine] = Field(
        description="Every card line, heading by heading: the lines under each heading on the page follow it.",
        examples=[[_LINE]],
    )
    ignored: list[IgnoredLine] = Field(
        description="Lines read as no card: labels, fields, notes, web addresses, dates, page numbers, prose.",
        examples=[[]],
    )
    totals: list[PaperTotal] = Field(
        description="The counts printed beside headings, or apart from them (`Total Monster Cards: 17`).",
        examples=[[_TOTAL]],
    )
    deck: JsonDeck = Field(
        description="The deck of the lines read for sure, by passcode: POST it to /v1/validate once every line to "
        "review is confirmed.",
        examples=[{"main": [{"passcode": 46986414, "count": 3}], "extra": [], "side": []}],
    )
    ydke: str | None = Field(description="The QR code's ydke:// link, for a QR read.", examples=[None])
    cells: list[PaperCell] = Field(
        description="The cells of the ruled tables found on the pages (a form's, a spreadsheet's), for showing "
        "over the page: a line in a table is its row's name with the count beside it in the row.",
        examples=[[]],
    )
