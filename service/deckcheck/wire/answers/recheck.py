"""The NDJSON lines a recheck answers with (POST /v1/rechecks, `deckcheck recheck`), as models: one result line or
error line per input line, in input order, then one summary line. The batch code writes these lines with orjson;
these describe them for the OpenAPI document, and the Python client reads each line into one of them.

The examples are the answer to two lines rechecked for 2008-09-01 against OCG 2008.03 (tests/test_client.py sends
them): a 40-card deck holding one Premature Burial (Limited, then Forbidden), and a broken ydke link, each with the
organiser's own fields `player` and `table`."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Discriminator, Field, Tag, TypeAdapter

from deckcheck.wire.answers import (
    BanlistOut,
    FieldError,
    Penalty,
    RuleCode,
    RulesetOut,
    SectionCounts,
    ViolationOut,
)
from deckcheck.wire.base import WireModel

_LIST_2008_09 = {
    "id": "ocg-2008-09-01",
    "name": "OCG 2008.09",
    "effective_from": "2008-09-01",
    "effective_until": "2009-03-01",
}
_LIST_2008_03 = {
    "id": "ocg-2008-03-01",
    "name": "OCG 2008.03",
    "effective_from": "2008-03-01",
    "effective_until": "2008-09-01",
}
_RULESET = {
    "id": "ocg-2008-03-15",
    "format": "ocg",
    "card_types": ["fusion", "synchro"],
    "languages": ["ja", "en", "fr", "it", "es", "pt", "de", "ko"],
    "notes": [],
}
_VIOLATION = {
    "code": "forbidden_card",
    "message": "Premature Burial is Forbidden on OCG 2008.09.",
    "section": "main",
    "loc": [["main", 14]],
    "cards": [{"passcode": 70828912, "name": "Premature Burial", "count": 1, "limit": 0}],
    "ctx": {"count": 1, "limit": 0, "banlist": "ocg-2008-09-01", "banlist_name": "OCG 2008.09"},
    "rule": "TR 3",
    "penalty": "duel_forfeiture",
    "penalty_basis": "explicit",
    "penalty_ref": "PR 3.A.3",
    "penalty_applies_to": "next_duel",
    "remedy": "Take out the violating cards and replace them with appropriate cards.",
    "lines": [],
    "roster_lines": [],
}
_FIELDS = {"player": "Yugi Muto", "table": 12}
_OTHER_FIELDS = {"player": "Seto Kaiba", "table": 13}
_FIELD_ERROR = {"loc": ["ydke", "main"], "msg": "main: not base64", "type": "ydke_base64"}
_CAUSE = {"passcode": 70828912, "name_en": "Premature Burial", "name_ja": "早すぎた埋葬", "decks": 1}
_NEWLY = {"count": 1, "ids": ["deck-0042"], "ids_complete": True, "cards": [_CAUSE]}
_COUNTS = {"main": 40, "extra": 0, "side": 0}
_SUMMARY = {
    "lines": 2,
    "legal": 0,
    "illegal": 1,
    "errors": 1,
    "by_code": {"forbidden_card": 1},
    "date": "2008-09-01",
    "banlist": _LIST_2008_09,
    "ruleset": _RULESET,
    "previous": _LIST_2008_03,
    "newly_illegal": _NEWLY,
    "still_illegal": 0,
}
DeckIdOut = str | int
RecheckVerdict = Literal["legal", "illegal", "newly_illegal", "still_illegal"]
"""A deck's verdict in one word: legal or illegal under the recheck's list; with a previous list, an illegal deck is
newly_illegal (legal under the previous list) or still_illegal (illegal under it too)."""
OwnFields = dict[str, Any]
_OWN_FIELDS = Field(
    default=None,
    description="The input line's own fields (any field that is not a recheck line's, such as `player` or `email`), "
    "as it gave them, in its order; absent when it gives none.",
    examples=[_FIELDS],
)


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": list(examples)})


class RecheckResultLine(WireModel):
    """The verdict on one deck of the batch: what /v1/validate says of it, without the date, list and ruleset that
    the summary line gives once for the whole batch; with `previous`, also what the previous list said."""

    model_config = _examples(
        {
            "line": 1,
            "id": "deck-0042",
            "fields": _FIELDS,
            "legal": False,
            "verdict": "newly_illegal",
            "penalty": "duel_forfeiture",
            "counts": _COUNTS,
            "violations": [_VIOLATION],
            "legal_before": True,
            "newly_illegal": True,
        }
    )

    line: int = Field(ge=1, description="The number of the input line this answers, from 1.", examples=[1])
    id: DeckIdOut = Field(description="The caller's id for the deck, as its line gave it.", examples=["deck-0042"])
    fields: OwnFields | None = _OWN_FIELDS
    legal: bool = Field(description="Whether the deck is legal under the recheck's list.", examples=[False])
    verdict: RecheckVerdict = Field(
        description="The verdict in one word: legal or illegal; with `previous`, an illegal deck is newly_illegal "
        "(legal under the previous list: the change made it illegal) or still_illegal (illegal under both).",
        examples=["newly_illegal"],
    )
    penalty: Penalty | None = Field(
        description="The most severe penalty of the violations (PR 1 order); null for a legal deck.",
        examples=["duel_forfeiture"],
    )
    counts: SectionCounts = Field(description="Cards in the main, extra and side deck.", examples=[_COUNTS])
    violations: list[ViolationOut] = Field(
        description="Every broken rule, as /v1/validate reports it.", examples=[[_VIOLATION]]
    )
    legal_before: bool | None = Field(
        default=None,
        description="Only with `previous`: whether the deck was legal under the previous list.",
        examples=[True],
    )
    newly_illegal: bool | None = Field(
        default=None,
        description="Only with `previous`: legal under the previous list and illegal under this one.",
        examples=[True],
    )


class RecheckLineError(WireModel):
    """Why an input line got no verdict."""

    model_config = _examples({"msg": "main: not base64", "errors": [_FIELD_ERROR]})

    msg: str = Field(description="The first problem, in words.", examples=["main: not base64"])
    errors: list[FieldError] = Field(
        default_factory=list,
        description="Every problem with the line, located within it (absent on a body_timeout line).",
        examples=[[_FIELD_ERROR]],
    )
    type: str | None = Field(
        default=None,
        description="body_timeout on the last line of an answer whose body stopped arriving; otherwise absent "
        "(each of `errors` has its own type).",
        examples=["body_timeout"],
    )


class RecheckErrorLine(WireModel):
    """An input line that could not be checked (not JSON, not a deck, a deck that cannot be read, over 1 MiB); the
    batch goes on. Also the last line, with `line` and `id` null, of an answer whose body stopped arriving."""

    model_config = _examples(
        {
            "line": 2,
            "id": "deck-0043",
            "fields": _OTHER_FIELDS,
            "error": {"msg": "main: not base64", "errors": [_FIELD_ERROR]},
        },
        {"line": None, "id": None, "error": {"msg": "the request body stopped arriving", "type": "body_timeout"}},
    )

    line: int | None = Field(
        ge=1,
        description="The number of the input line this answers, from 1; null on a body_timeout line.",
        examples=[2],
    )
    id: DeckIdOut | None = Field(
        description="The line's id when it could be read and is a valid id; otherwise null.", examples=["deck-0043"]
    )
    fields: OwnFields | None = Field(
        default=None,
        description="The line's own fields, where they could be read and are within their bounds; absent otherwise.",
        examples=[_OTHER_FIELDS],
    )
    error: RecheckLineError = Field(
        description="What is wrong with the line.", examples=[{"msg": "main: not base64", "errors": [_FIELD_ERROR]}]
    )


class NewlyIllegalCard(WireModel):
    """A card that made decks illegal under the new list, and how many decks."""

    model_config = _examples(_CAUSE)

    passcode: int = Field(description="The card's canonical passcode.", examples=[70828912])
    name_en: str = Field(description="Its English name.", examples=["Premature Burial"])
    name_ja: str = Field(description="Its Japanese name.", examples=["早すぎた埋葬"])
    decks: int = Field(ge=1, description="How many newly illegal decks it made illegal.", examples=[1])


class NewlyIllegal(WireModel):
    """The decks the change from the previous list made illegal, and the cards that did it."""

    model_config = _examples(_NEWLY)

    count: int = Field(ge=0, description="How many decks are newly illegal.", examples=[1])
    ids: list[DeckIdOut] = Field(
        description="The ids of the first 1,000 of them, in input order.", examples=[["deck-0042"]]
    )
    ids_complete: bool = Field(description="Whether `ids` names every one of them.", examples=[True])
    cards: list[NewlyIllegalCard] = Field(
        description="The cards that made them illegal, the most decks first.", examples=[[_CAUSE]]
    )


class RecheckSummary(WireModel):
    """Totals over the whole batch and what every deck was judged by."""

    model_config = _examples(_SUMMARY)

    lines: int = Field(ge=0, description="Input lines read: result lines plus error lines.", examples=[2])
    legal: int = Field(ge=0, description="Decks legal under the list.", examples=[0])
    illegal: int = Field(ge=0, description="Decks illegal under the list.", examples=[1])
    errors: int = Field(ge=0, description="Lines that got an error line.", examples=[1])
    # The encodings of deckcheck.encoding, named here: the client imports the wire models and nothing else of ours.
    encodings: dict[Literal["utf-8", "cp932"], int] | None = Field(
        default=None,
        description="Only once a line was not UTF-8 and was read as Shift_JIS as Windows writes it (cp932), as the "
        "desk reads a file: the lines read in each encoding (a line too long, or a deck file that is no text, is "
        "read in neither). Each line is read on its own: UTF-8, else cp932.",
        examples=[{"utf-8": 1, "cp932": 1}],
    )
    by_code: dict[RuleCode, int] = Field(
        description="Violations over every deck, by code, codes in alphabetical order.",
        examples=[{"forbidden_card": 1}],
    )
    date: dt.date = Field(description="The event date every deck was judged for.", examples=["2008-09-01"])
    banlist: BanlistOut | None = Field(
        description="The list every deck was checked against (id `inline` for a list given in the request); null "
        "when no list of the format was in force.",
        examples=[_LIST_2008_09],
    )
    ruleset: RulesetOut = Field(description="The rules applied, with their notes.", examples=[_RULESET])
    previous: BanlistOut | None = Field(
        default=None, description="Only with `previous`: the list compared with.", examples=[_LIST_2008_03]
    )
    newly_illegal: NewlyIllegal | None = Field(
        default=None, description="Only with `previous`: the decks the change made illegal.", examples=[_NEWLY]
    )
    still_illegal: int | None = Field(
        default=None,
        ge=0,
        description="Only with `previous`: decks illegal under the previous list too (`illegal` is these and the "
        "newly illegal ones).",
        examples=[0],
    )


class RecheckSummaryLine(WireModel):
    """The last line of a batch that was read to its end."""

    model_config = _examples({"summary": _SUMMARY})

    summary: RecheckSummary = Field(description="What the batch found.", examples=[_SUMMARY])


def _line_kind(value: Any) -> str:
    """Which line a line is: by its keys when it is read, by its model's fields when it is written (anything else is
    read as a result line, and refused)."""
    keys = value if isinstance(value, dict) else type(value).model_fields if isinstance(value, WireModel) else ()
    return "summary" if "summary" in keys else "error" if "error" in keys else "result"


RecheckAnswerLine = Annotated[
    Annotated[RecheckResultLine, Tag("result")]
    | Annotated[RecheckErrorLine, Tag("error")]
    | Annotated[RecheckSummaryLine, Tag("summary")],
    Discriminator(_line_kind),
]
"""Any line of a recheck's answer."""

RECHECK_ANSWER_LINE: TypeAdapter[RecheckAnswerLine] = TypeAdapter(
    RecheckAnswerLine, config=ConfigDict(defer_build=True)
)
"""Reads one line of a recheck's answer (`RECHECK_ANSWER_LINE.validate_json(line)`) into its model."""
