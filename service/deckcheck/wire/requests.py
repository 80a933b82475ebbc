"""The JSON request bodies of the API, also read by the command line and batch rechecks (docs/developers/api.md); their
closed sets of values are the named types of deckcheck.wire.request_values."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

import deckcheck.wire.answers.examples as ex
from deckcheck.limits import ID_RANGE, MAX_COUNT, MAX_ENTRIES, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_PASSCODE
from deckcheck.wire.enums import RuleCode

# The judge's bodies, re-exported: the OpenAPI document finds every request model here (api/openapi.py).
from deckcheck.wire.judge.requests import AssessRequest, DuelEndIn, TimeLimitRequest  # noqa: F401
from deckcheck.wire.request_values import ConvertTarget, DeckFormat, Duel, Format, IsoDate, NameLanguage, Phase
from deckcheck.wire.sheet import SheetIn

MAX_SOURCE_CHARS = 1_000_000
LANGUAGE_PATTERN = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$"
BANLIST_ID_PATTERN = r"^[a-z]{2,8}-\d{4}-\d{2}-\d{2}$"
# A bundled list's id: <format>-<first day>.
BanlistId = Annotated[str, Field(pattern=BANLIST_ID_PATTERN, max_length=20)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class EntryIn(_Strict):
    """One card line: a passcode and/or a name, how many copies, and the printed language."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ENTRY]})

    passcode: int | None = Field(
        default=None,
        ge=0,
        le=MAX_PASSCODE,
        description="Any of the card's passcodes (printed lower left); give it, a name, or both for one card.",
        examples=[ex.POT_OF_GREED],
    )
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NAME_CHARS,
        description="The card's Japanese or English name, matched after folding width and kana variants.",
        examples=["Pot of Greed", "強欲な壺"],
    )
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="Copies of the card.", examples=[3])
    language: str | None = Field(
        default=None,
        pattern=LANGUAGE_PATTERN,
        description="Printed language tag of these copies (ja, en, ko; en-US counts as en); default: default_language.",
        examples=["ja"],
    )

    @model_validator(mode="after")
    def _names_a_card(self) -> EntryIn:
        if self.passcode is None and self.name is None:
            raise ValueError("an entry needs a passcode or a name")
        return self


Entries = Annotated[list[EntryIn], Field(max_length=MAX_ENTRIES)]
SourceText = Annotated[str | None, Field(max_length=MAX_SOURCE_CHARS)]
_ENTRIES = f"given as JSON entries (up to {MAX_ENTRIES}); leave empty when the deck is given as ydk, ydke or text."


class DeckIn(_Strict):
    """A deck: main, extra and side lists, or one .ydk file, ydke:// link or plain-text list."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PARSE_REQUEST, ex.PARSE_JSON_REQUEST]})

    main: Entries = Field(
        default_factory=list, description=f"The main deck, {_ENTRIES}", examples=[[{"passcode": ex.POT_OF_GREED}]]
    )
    extra: Entries = Field(
        default_factory=list, description=f"The extra deck, {_ENTRIES}", examples=[[{"passcode": ex.STARDUST_DRAGON}]]
    )
    side: Entries = Field(
        default_factory=list, description=f"The side deck, {_ENTRIES}", examples=[[{"name": "Monster Reborn"}]]
    )
    ydk: SourceText = Field(
        default=None,
        description="A .ydk file: #main, #extra and !side sections of passcodes, one copy a line; other # lines are "
        "comments. Sections are taken as written.",
        examples=[ex.SMALL_YDK],
    )
    ydke: SourceText = Field(default=None, description="A ydke://main!extra!side! link.", examples=[ex.SMALL_YDKE])
    text: SourceText = Field(
        default=None,
        description="A plain list, one card a line, by Japanese or English name or passcode (`3 Pot of Greed`, "
        "`《強欲な壺》×3`), under Main/Extra/Side headings (cards before any heading are main deck).",
        examples=[ex.SMALL_TEXT],
    )

    @model_validator(mode="after")
    def _one_source(self) -> DeckIn:
        given = [f for f in ("ydk", "ydke", "text") if getattr(self, f) is not None]
        if len(given) > 1 or (given and (self.main or self.extra or self.side)):
            raise ValueError("give the deck once: as main/extra/side lists or as one of ydk, ydke, text")
        return self

    def source_format(self) -> DeckFormat:
        """Which form the deck was given in."""
        for fmt in ("ydk", "ydke", "text"):
            if getattr(self, fmt) is not None:
                return fmt
        return "json"

    def source_text(self) -> str:
        """The .ydk, ydke or text source."""
        return str(getattr(self, self.source_format()))


class ProtectorsIn(_Strict):
    """What the player declares about sleeves and protectors (TR 1 ※, TR 3)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PROTECTORS]})

    used: bool = Field(default=False, description="The cards are in sleeves or protectors.", examples=[True])
    opaque_back: bool = Field(
        default=False, description="The protectors hide the cards' common (back) side (TR 1 ※).", examples=[True]
    )
    uniform: bool = Field(
        default=True,
        description="Every card of main, extra and side is in identical protectors (TR 3).",
        examples=[True],
    )


ListedCard = (
    Annotated[int, Field(ge=0, le=MAX_PASSCODE)] | Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]
)
ListedCards = Annotated[list[ListedCard], Field(max_length=5000, description="Passcodes or card names.")]


class InlineBanlist(_Strict):
    """A Forbidden/Limited list given in the request, e.g. a proposed list not yet bundled; cards by passcode or
    by Japanese or English name. Every card it does not name is unlimited."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.INLINE_BANLIST]})

    name: str = Field(
        default="inline list",
        min_length=1,
        max_length=100,
        description="The list's name in messages.",
        examples=["2008.09"],
    )
    forbidden: ListedCards = Field(
        default_factory=list,
        description="Forbidden cards (0 copies), by passcode or Japanese or English name.",
        examples=[[ex.POT_OF_GREED, "Premature Burial"]],
    )
    limited: ListedCards = Field(
        default_factory=list, description="Limited cards (1 copy).", examples=[[ex.MONSTER_REBORN, "Cyber Dragon"]]
    )
    semi_limited: ListedCards = Field(
        default_factory=list,
        description="Semi-Limited cards (2 copies), by passcode or name.",
        examples=[["Mystical Space Typhoon"]],
    )


class LflistBanlist(_Strict):
    """A Forbidden/Limited list given as the text of an lflist.conf file (EDOPro, ygopro)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.LFLIST_BANLIST]})

    lflist: str = Field(
        max_length=MAX_SOURCE_CHARS,
        description="The file's text: `!name` starts a list, `passcode count` lines give its cards (0, 1 or 2 "
        "copies), `#` lines are comments, and `$whitelist` forbids every card the list does not name.",
        examples=[ex.LFLIST],
    )
    list: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="The `!` name of the list to use; needed when the text holds several.",
        examples=["2008.09 proposal"],
    )


def _banlist_kind(value: Any) -> str:
    if isinstance(value, str):
        return "id"
    return "lflist" if isinstance(value, dict) and "lflist" in value else "inline"


BanlistChoice = Annotated[
    Annotated[BanlistId, Tag("id")] | Annotated[InlineBanlist, Tag("inline")] | Annotated[LflistBanlist, Tag("lflist")],
    Discriminator(_banlist_kind),
]
PROTECTORS_FIELD = Field(
    default=None,
    description="What the player declares about protectors; none: no protector rule is checked.",
    examples=[ex.PROTECTORS],
)
DEFAULT_LANGUAGE_FIELD = Field(
    default=None,
    pattern=LANGUAGE_PATTERN,
    description="The printed language of entries that give none (a language tag: only the first part counts); "
    "default ja at an OCG event, en at a TCG event.",
    examples=["ja"],
)


class ValidateRequest(DeckIn):
    """A deck and the event it is checked for: the format, the date and the list in force, and for a match the
    roster, the duel and the phase."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.VALIDATE_REQUEST]})

    date: IsoDate | None = Field(
        default=None,
        description="The event date; default today in Japan (UTC+9). It picks the list, printings and rule era.",
        examples=["2008-06-01"],
    )
    format: Format = Field(default="ocg", description="The event's format; default ocg.", examples=["ocg"])
    banlist: BanlistChoice | None = Field(
        default=None,
        description="The Forbidden/Limited list: a bundled list id of the format (ocg-2008-03-01, tcg-2024-04-22; "
        "GET /v1/banlists lists them), an inline list, or an lflist.conf text; default: the format's list in force "
        "on the date.",
        examples=["ocg-2008-03-01"],
    )
    protectors: ProtectorsIn | None = PROTECTORS_FIELD
    roster: DeckIn | None = Field(
        default=None,
        description="The Deck Roster Sheet (デッキ記入シート), in any deck form: the presented deck must match it "
        "(TR 2.B), and after siding keep its main and extra deck sizes (TR 2.D.8). Needed for duels 2 and 3.",
        examples=[{"ydk": ex.SMALL_YDK}],
    )
    duel: Duel = Field(
        default=1, description="Which duel of the match the deck is presented for; default 1.", examples=[1]
    )
    phase: Phase = Field(
        default="registration", description="When it is checked; default registration.", examples=["between_duels"]
    )
    default_language: str | None = DEFAULT_LANGUAGE_FIELD
    prior: dict[RuleCode, Annotated[int, Field(ge=0, le=99)]] | None = Field(
        default=None,
        description="How often the player already received each violation in this tournament (PR 2.B): each "
        "violation then says whether and to what the referee may raise its penalty (`escalations`).",
        examples=[{"forbidden_card": 1}],
    )


class ConvertRequest(DeckIn):
    """A deck in any form and the form wanted."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.CONVERT_REQUEST]})

    to: ConvertTarget = Field(
        description="The form to write the deck in; qr answers not JSON but a QR code of the deck's ydke:// link, as "
        "SVG (image/svg+xml), or as PNG when Accept prefers image/png.",
        examples=["ydke"],
    )
    names: NameLanguage = Field(
        default="en",
        description="Card-name language of a text list or a sheet; default en (for a sheet: Accept-Language).",
        examples=["ja"],
    )
    sheet: SheetIn | None = Field(
        default=None,
        description="For `to: sheet`, the player and event printed on it; default all blank.",
        examples=[{"player_name": "山田 太郎", "date": "2008-09-01", "paper": "a4"}],
    )


DeckId = Annotated[str, Field(max_length=MAX_ID_CHARS)] | Annotated[int, Field(ge=ID_RANGE[0], le=ID_RANGE[1])]


class RecheckLine(DeckIn):
    """One NDJSON line of a recheck: a deck in any form, the caller's id for it, and what else belongs to the deck
    (the date and the list belong to the whole recheck). Any other field is the caller's own (`player`, `email`,
    `table`…): kept and echoed in the line's result as `fields`, up to MAX_FIELDS fields of MAX_FIELDS_BYTES bytes
    of JSON in all (past that, the line gets an error line)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [ex.RECHECK_LINE]})

    id: DeckId = Field(
        description=f"The caller's id for the deck: a string of up to {MAX_ID_CHARS} characters or a 64-bit whole "
        "number, echoed in its result line.",
        examples=["deck-17"],
    )
    protectors: ProtectorsIn | None = PROTECTORS_FIELD
    default_language: str | None = DEFAULT_LANGUAGE_FIELD


class ValidateQuery(BaseModel):
    """A deck as a ydke:// link and its event, in the query of GET /v1/validate: an answer a cache can keep."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"ydke": ex.SMALL_YDKE, "date": "2008-06-01", "lang": "ja"}]}
    )

    ydke: Annotated[str, Field(max_length=MAX_SOURCE_CHARS)] = Field(
        description="The deck as a ydke://main!extra!side! link (percent-encoded: + / = as %2B %2F %3D).",
        examples=[ex.SMALL_YDKE],
    )
    date: IsoDate | None = Field(
        default=None,
        description="The event date; default today in Japan (UTC+9), and the answer is then fresh until the day "
        "ends there.",
        examples=["2008-06-01"],
    )
    format: Format = Field(default="ocg", description="The event's format; default ocg.", examples=["ocg"])
    banlist: BanlistId | None = Field(
        default=None,
        description="A list id of the format (GET /v1/banlists lists them); default: the format's list in force on "
        "the date.",
        examples=["ocg-2008-03-01"],
    )
    lang: Literal["ja", "en"] | None = Field(
        default=None,
        description="The language of the messages, ja or en; default: Accept-Language's choice (and the answer "
        "then varies by it).",
        examples=["ja"],
    )
