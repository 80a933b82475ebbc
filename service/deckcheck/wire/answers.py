"""The HTTP answer bodies as models: the routes answer with orjson; these describe the answers for the OpenAPI
document, and the Python client reads answers into them."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.wire import DeckFormat


class CardOut(BaseModel):
    """A card a violation is about."""

    passcode: int | None
    name: str
    count: int
    limit: int | None = None


class ViolationOut(BaseModel):
    """One broken rule, its citation, penalty and remedy."""

    code: str
    message: str
    section: Literal["main", "extra", "side"] | None
    loc: list[list[str | int]]
    cards: list[CardOut]
    ctx: dict[str, Any]
    rule: str
    penalty: str
    penalty_basis: Literal["explicit", "by analogy"]
    penalty_ref: str
    penalty_applies_to: Literal["current_duel", "next_duel"] | None
    remedy: str
    lines: list[int] = Field(description="Lines of a .ydk or text deck that caused the violation.")
    roster_lines: list[int] = Field(description="Lines of a .ydk or text roster that caused the violation.")


class BanlistOut(BaseModel):
    """The Forbidden/Limited list the deck was checked against."""

    id: str
    name: str
    effective_from: dt.date | None
    effective_until: dt.date | None


class NoteOut(BaseModel):
    """Where an answer reaches beyond the seeds (the 2008 OCG tournament rules and the penalty regulations)."""

    code: Literal["before_seeds", "later_card_types", "tcg_event", "no_list_in_force"]
    message: str


class RulesetOut(BaseModel):
    """The tournament rules applied: the format and the rule era of the event date."""

    id: str = Field(description="<format>-<day the era began>; ocg-2008-03-15 is the seeds' rules as written.")
    format: Literal["ocg", "tcg"]
    card_types: list[str] = Field(description="Monster types in force: fusion, synchro, then xyz, pendulum, link.")
    languages: list[str] = Field(description="Card languages the format allows.")
    notes: list[NoteOut]


class EraOut(RulesetOut):
    """One rule era of a format: the ruleset that applied from one day until another."""

    model_config = ConfigDict(populate_by_name=True)

    from_: dt.date | None = Field(alias="from", description="The first day (none: every earlier event).")
    until: dt.date | None = Field(description="The day the next era began (none: still in force).")


class ValidateResponse(BaseModel):
    """The verdict: legal or not, the overall penalty and every violation."""

    legal: bool
    penalty: str | None
    counts: dict[str, int]
    date: dt.date
    banlist: BanlistOut | None
    ruleset: RulesetOut
    violations: list[ViolationOut]


class FieldError(BaseModel):
    """One problem with the request; line and column point into a .ydk or text source."""

    loc: list[str | int]
    msg: str
    type: str
    line: int | None = None
    column: int | None = None


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[FieldError] = []


class ParsedCard(BaseModel):
    """One deck entry with its card resolved (null fields when it names no official card)."""

    passcode: int | None
    canonical: int | None
    name_en: str | None
    name_ja: str | None
    kind: str | None
    extra_deck_type: str | None
    count: int
    language: str | None
    lines: list[int]


class Suggestion(BaseModel):
    """A card a search proposes."""

    passcode: int
    name_en: str
    name_ja: str


class ParseProblem(BaseModel):
    """An entry that names no official card."""

    section: Literal["main", "extra", "side"]
    index: int
    lines: list[int]
    type: str
    msg: str
    suggestions: list[Suggestion]
    suggestions_omitted: bool = Field(
        description="True when the entry got no suggestions because the deck's first 20 unknown names had them."
    )


class ParseResponse(BaseModel):
    """The structured deck a source gives."""

    format: DeckFormat
    counts: dict[str, int]
    main: list[ParsedCard]
    extra: list[ParsedCard]
    side: list[ParsedCard]
    problems: list[ParseProblem]


class ConvertResponse(BaseModel):
    """The deck in the form asked for: `content` for ydk, ydke and text, `deck` for json."""

    format: DeckFormat
    content: str | None
    deck: dict[str, list[dict[str, Any]]] | None


class CardStatus(BaseModel):
    """A card's status on one Forbidden/Limited list."""

    banlist: str
    effective_from: dt.date | None
    effective_until: dt.date | None
    status: Literal["forbidden", "limited", "semi_limited", "unlimited"]
    limit: int


class CardOutFull(BaseModel):
    """A canonical card, its alternate passcodes and its list history."""

    passcode: int
    requested: int
    aliases: list[int]
    name_en: str
    name_ja: str
    kind: str
    extra_deck_type: str
    pendulum: bool
    ocg: bool
    tcg: bool
    first_japanese_printing: dt.date | None
    first_japanese_printing_exact: bool
    first_tcg_printing: dt.date | None
    first_tcg_printing_exact: bool
    banlists: list[CardStatus]


class SearchHit(BaseModel):
    """One search result."""

    passcode: int
    name_en: str
    name_ja: str
    matched: str
    match: Literal["exact", "prefix", "substring", "fuzzy"]
    score: float


class BanlistSummary(BaseModel):
    """A bundled list: id, name, dates and how many cards each status holds."""

    id: str
    name: str
    format: str
    effective_from: dt.date | None
    effective_until: dt.date | None
    counts: dict[str, int]


class ListedCard(BaseModel):
    """A card on a list."""

    passcode: int
    name_en: str
    name_ja: str


class BanlistDetail(BanlistSummary):
    """A list with its cards."""

    forbidden: list[ListedCard]
    limited: list[ListedCard]
    semi_limited: list[ListedCard]


class StatusChange(ListedCard):
    """A card whose status changes between two lists."""

    from_: str = Field(alias="from")
    to: str
    from_limit: int
    to_limit: int


class BanlistDiff(BaseModel):
    """The changes from one list to another."""

    from_: BanlistOut = Field(alias="from")
    to: BanlistOut
    changes: list[StatusChange]
