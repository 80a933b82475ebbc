"""The answers of the card routes (GET /v1/cards/{passcode}, GET /v1/cards?q=) and the list routes (GET /v1/banlists,
/v1/banlists/{id}, /v1/banlists/{id}/diff/{other})."""

from __future__ import annotations

import datetime as dt

from pydantic import ConfigDict, Field

import deckcheck.wire.answers.examples as ex
from deckcheck.wire.answers.verdict import BanlistOut, NoteOut
from deckcheck.wire.base import WireModel
from deckcheck.wire.enums import BanlistFormat, CardKind, ExtraDeckType, MatchKind, Status
from deckcheck.wire.request_values import Format

NAME_JA = "The card's Japanese name; empty for a TCG-only card, which has none."
FROM, UNTIL = "The first day the list was in force.", "The day the next list took over; null while still in force."


class CardStatus(WireModel):
    """A card's status on one bundled Forbidden/Limited list (a status reaches every card of the name)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.CARD_STATUS]})

    banlist: str = Field(description="The list's id.", examples=["ocg-2008-03-01"])
    effective_from: dt.date | None = Field(description=FROM, examples=["2008-03-01"])
    effective_until: dt.date | None = Field(description=UNTIL, examples=["2008-09-01"])
    status: Status = Field(description="The card's status on the list.", examples=["unlimited"])
    limit: int = Field(description="Copies the status allows: 0, 1, 2 or 3.", examples=[3])


class CardOutFull(WireModel):
    """A canonical card: its passcodes, names, kind, first printings and its status on every bundled list."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.CARD_FULL]})

    passcode: int = Field(description="The canonical passcode.", examples=[ex.STARDUST_DRAGON])
    requested: int = Field(description="The passcode asked for (canonical or alternate).", examples=[44508095])
    aliases: list[int] = Field(
        description="The card's other passcodes, which resolve to it.",
        examples=[[44508095]],
    )
    name_en: str = Field(description="The card's English name.", examples=["Stardust Dragon"])
    name_ja: str = Field(description=NAME_JA, examples=["スターダスト・ドラゴン"])
    kind: CardKind = Field(description="The card's kind.", examples=["monster"])
    extra_deck_type: ExtraDeckType = Field(
        description="Its extra-deck monster type; none for a card that goes in the main deck.", examples=["synchro"]
    )
    pendulum: bool = Field(description="True for a Pendulum Monster.", examples=[False])
    ocg: bool = Field(description="True for a card of the OCG.", examples=[True])
    tcg: bool = Field(description="True for a card of the TCG.", examples=[True])
    first_japanese_printing: dt.date | None = Field(
        description="Its first Japanese printing; null when never printed in Japanese.", examples=["2008-04-19"]
    )
    first_japanese_printing_exact: bool = Field(
        description="False when the day is not known: the card appeared on some day after first_japanese_printing.",
        examples=[True],
    )
    first_tcg_printing: dt.date | None = Field(
        description="Its first TCG printing, in any TCG language; null when never printed in the TCG.",
        examples=["2008-08-19"],
    )
    first_tcg_printing_exact: bool = Field(
        description="False when the day is not known: the card appeared on some day after first_tcg_printing.",
        examples=[True],
    )
    provisional: bool = Field(
        description="True for a card added before its release under a provisional (pre-release) passcode, until its "
        "final passcode is imported (`deckcheck data add-cards`).",
        examples=[False],
    )
    banlists: list[CardStatus] = Field(
        description="Its status on every bundled list, OCG lists first, each format oldest first.",
        examples=[[ex.CARD_STATUS]],
    )


NO_LIST = "null for days no list of the format the service holds covers (the checks then apply no list)"


class LegalityPeriod(WireModel):
    """Days on which a card had one status in a format, under one list or several in a row."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra={"examples": [ex.LEGALITY_PERIOD]})

    status: Status | None = Field(description=f"The card's status; {NO_LIST}.", examples=["forbidden"])
    limit: int | None = Field(description=f"Copies the status allows: 0, 1, 2 or 3; {NO_LIST}.", examples=[0])
    from_: dt.date = Field(
        alias="from",
        description="The period's first day: a list's first day, or the day the card was first printed in the format.",
        examples=["2006-03-01"],
    )
    until: dt.date | None = Field(
        description="The day the next period began; null while the status is in force.", examples=[None]
    )
    banlists: list[str] = Field(
        description="The lists in force through the period, oldest first; empty when none was.",
        examples=[["ocg-2006-03-01", "ocg-2006-09-01"]],
    )


class LegalityOnDate(WireModel):
    """A card's status in a format on the date asked."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.LEGALITY_ON_DATE]})

    status: Status | None = Field(description=f"The card's status; {NO_LIST}.", examples=["forbidden"])
    limit: int | None = Field(description=f"Copies the status allows; {NO_LIST}.", examples=[0])
    banlist: str | None = Field(description="The list in force; null when none was.", examples=["ocg-2026-10-01"])
    printed: bool = Field(
        description="Whether the card had been printed in the format by then (TR 1 ※: only such cards may be used).",
        examples=[True],
    )


class FormatLegality(WireModel):
    """A card's legality in one format: its first printing there, its statuses through time, and on the date."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.FORMAT_LEGALITY]})

    format: Format = Field(description="The format.", examples=["ocg"])
    first_printed: dt.date | None = Field(
        description="The first day the card was printed in the format (the day after its first printing's date when "
        "that day is not known exactly); null when it never was.",
        examples=["1999-05-27"],
    )
    periods: list[LegalityPeriod] = Field(
        description="Its statuses from first_printed on, oldest first, each as long as it held; empty when never "
        "printed in the format.",
        examples=[[ex.LEGALITY_PERIOD]],
    )
    on_date: LegalityOnDate = Field(description="Its status on the date asked.", examples=[ex.LEGALITY_ON_DATE])
    notes: list[NoteOut] = Field(
        description="What POST /v1/validate notes about the list it picks for an event of the format on the date "
        "asked, in the language of Accept-Language: list_may_be_outdated when that list is the newest the service "
        "holds and by the usual cadence of new lists (DECKCHECK_OCG_LIST_MONTHS, DECKCHECK_TCG_LIST_DAYS) a newer "
        "one may be in force by then, so the status on the date may be out of date; else none.",
        examples=[[ex.LIST_MAY_BE_OUTDATED]],
    )


class CardLegality(WireModel):
    """A card's legality through time in both formats, and on one date."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.CARD_LEGALITY]})

    passcode: int = Field(description="The canonical passcode.", examples=[ex.POT_OF_GREED])
    requested: int = Field(description="The passcode asked for (canonical or alternate).", examples=[ex.POT_OF_GREED])
    name_en: str = Field(description="The card's English name.", examples=["Pot of Greed"])
    name_ja: str = Field(description=NAME_JA, examples=["強欲な壺"])
    date: dt.date = Field(description="The date asked (default today in Japan).", examples=["2026-12-01"])
    formats: list[FormatLegality] = Field(
        description="Its legality in the OCG, then the TCG.", examples=[[ex.FORMAT_LEGALITY]]
    )


class SearchHit(WireModel):
    """One card a name search found."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SEARCH_HIT]})

    passcode: int = Field(description="The card's canonical passcode.", examples=[ex.POT_OF_GREED])
    name_en: str = Field(description="The card's English name.", examples=["Pot of Greed"])
    name_ja: str = Field(description=NAME_JA, examples=["強欲な壺"])
    matched: str = Field(description="The name (Japanese or English) the query matched.", examples=["Pot of Greed"])
    match: MatchKind = Field(description="How it matched.", examples=["exact"])
    score: float = Field(
        description="0–100, higher is closer, to one decimal: exact 100, prefix 90–99, substring 80–89, fuzzy below "
        "80.",
        examples=[100.0],
    )


class StatusCounts(WireModel):
    """How many cards each status of a list holds."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.STATUS_COUNTS]})

    forbidden: int = Field(description="Forbidden cards.", examples=[40])
    limited: int = Field(description="Limited cards.", examples=[57])
    semi_limited: int = Field(description="Semi-Limited cards.", examples=[12])


class BanlistSummary(WireModel):
    """A bundled list: id, name, format, dates and how many cards each status holds."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.BANLIST_SUMMARY]})

    id: str = Field(description="The list's id: <format>-<first day>.", examples=["ocg-2008-03-01"])
    name: str = Field(description="The list's name.", examples=["OCG 2008.03"])
    effective_from: dt.date | None = Field(description=FROM, examples=["2008-03-01"])
    effective_until: dt.date | None = Field(description=UNTIL, examples=["2008-09-01"])
    format: BanlistFormat = Field(description="The list's format, in capitals.", examples=["OCG"])
    counts: StatusCounts = Field(description="Cards of each status.", examples=[ex.STATUS_COUNTS])


class ListedCard(WireModel):
    """A card on a list."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.LISTED_CARD]})

    passcode: int = Field(description="The card's canonical passcode.", examples=[3078576])
    name_en: str = Field(description="The card's English name.", examples=["Yata-Garasu"])
    name_ja: str = Field(description=NAME_JA, examples=["八汰烏"])


class BanlistDetail(BanlistSummary):
    """A bundled list with its cards, each status by passcode."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.BANLIST_DETAIL]})

    forbidden: list[ListedCard] = Field(description="Forbidden cards (0 copies).", examples=[[ex.LISTED_CARD]])
    limited: list[ListedCard] = Field(description="Limited cards (1 copy).", examples=[ex.BANLIST_DETAIL["limited"]])
    semi_limited: list[ListedCard] = Field(
        description="Semi-Limited cards (2 copies).", examples=[ex.BANLIST_DETAIL["semi_limited"]]
    )


class StatusChange(ListedCard):
    """A card whose status changes from one list to the other."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra={"examples": [ex.STATUS_CHANGE]})

    from_: Status = Field(alias="from", description="Its status on the first list.", examples=["limited"])
    to: Status = Field(description="Its status on the second list.", examples=["forbidden"])
    from_limit: int = Field(description="Copies the first list allows.", examples=[1])
    to_limit: int = Field(description="Copies the second list allows.", examples=[0])


class BanlistDiff(WireModel):
    """Every card whose status changes from one list to another, old status to new."""

    model_config = ConfigDict(populate_by_name=True, json_schema_extra={"examples": [ex.BANLIST_DIFF]})

    from_: BanlistOut = Field(alias="from", description="The first list.", examples=[ex.BANLIST])
    to: BanlistOut = Field(description="The second list.", examples=[ex.BANLIST_DIFF["to"]])
    changes: list[StatusChange] = Field(description="The cards whose status changes.", examples=[[ex.STATUS_CHANGE]])
