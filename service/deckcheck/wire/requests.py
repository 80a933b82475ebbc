"""The JSON request bodies of the API, also read by the command line and batch rechecks (SPEC section 3)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, WithJsonSchema, model_validator

from deckcheck.limits import ID_RANGE, MAX_COUNT, MAX_ENTRIES, MAX_ID_CHARS, MAX_NAME_CHARS

MAX_SOURCE_CHARS = 1_000_000
LANGUAGE_PATTERN = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$"
BANLIST_ID_PATTERN = r"^[a-z]{2,8}-\d{4}-\d{2}-\d{2}$"
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_date(value: Any) -> Any:
    """Accept only YYYY-MM-DD strings naming a real day (no timestamps, no 2008-02-30)."""
    if isinstance(value, str):
        if not _ISO_DATE.fullmatch(value):
            raise ValueError("must be a date written YYYY-MM-DD")
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{value} is not a day of the calendar") from None
    return value


IsoDate = Annotated[dt.date, BeforeValidator(_iso_date), WithJsonSchema({"type": "string", "format": "date"})]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class EntryIn(_Strict):
    """One card line: a passcode and/or a name, how many copies, and the printed language."""

    passcode: int | None = Field(None, ge=0, le=999_999_999, description="The passcode printed on the card.")
    name: str | None = Field(
        None, min_length=1, max_length=MAX_NAME_CHARS, description="Japanese or English card name."
    )
    count: int = Field(1, ge=1, le=MAX_COUNT)
    language: str | None = Field(None, pattern=LANGUAGE_PATTERN, description="Printed language, e.g. ja, en, ko.")

    @model_validator(mode="after")
    def _names_a_card(self) -> EntryIn:
        if self.passcode is None and self.name is None:
            raise ValueError("an entry needs a passcode or a name")
        return self


Entries = Annotated[list[EntryIn], Field(default_factory=list, max_length=MAX_ENTRIES)]


DeckFormat = Literal["json", "ydk", "ydke", "text"]
SourceText = Annotated[str | None, Field(None, max_length=MAX_SOURCE_CHARS)]


class DeckIn(_Strict):
    """A deck: main, extra and side lists, or one .ydk file, ydke:// link or plain-text list."""

    main: Entries
    extra: Entries
    side: Entries
    ydk: SourceText = Field(None, description="A .ydk file: #main, #extra and !side sections of passcodes.")
    ydke: SourceText = Field(None, description="A ydke:// link.")
    text: SourceText = Field(None, description="A plain list, one card a line, by name or passcode.")

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
    """What the player declares about sleeves and protectors."""

    used: bool = False
    opaque_back: bool = Field(False, description="The protectors hide the common (back) side of the cards.")
    uniform: bool = Field(True, description="Every card of main, extra and side is in identical protectors.")


ListedCard = (
    Annotated[int, Field(ge=0, le=999_999_999)] | Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]
)
ListedCards = Annotated[
    list[ListedCard], Field(default_factory=list, max_length=5000, description="Passcodes or card names.")
]


class InlineBanlist(_Strict):
    """A Forbidden/Limited list given in the request, e.g. a proposed list not yet bundled; cards by passcode or
    by Japanese or English name."""

    name: str = Field("inline list", min_length=1, max_length=100)
    forbidden: ListedCards
    limited: ListedCards
    semi_limited: ListedCards


class LflistBanlist(_Strict):
    """A Forbidden/Limited list given as the text of an lflist.conf file (EDOPro, ygopro)."""

    lflist: str = Field(max_length=MAX_SOURCE_CHARS, description="The file's text.")
    list: str | None = Field(
        None, min_length=1, max_length=100, description="The `!` name of the list to use; needed when it holds several."
    )


def _banlist_kind(value: Any) -> str:
    if isinstance(value, str):
        return "id"
    return "lflist" if isinstance(value, dict) and "lflist" in value else "inline"


BanlistChoice = Annotated[
    Annotated[Annotated[str, Field(pattern=BANLIST_ID_PATTERN, max_length=20)], Tag("id")]
    | Annotated[InlineBanlist, Tag("inline")]
    | Annotated[LflistBanlist, Tag("lflist")],
    Discriminator(_banlist_kind),
]
Format = Literal["ocg", "tcg"]
DEFAULT_LANGUAGE_FIELD = Field(
    None, pattern=LANGUAGE_PATTERN, description="Language of entries that give none; default ja (OCG) or en (TCG)."
)


class ValidateRequest(DeckIn):
    """A deck and the event it is checked for."""

    date: IsoDate | None = Field(None, description="Event date; default today in Japan.")
    format: Format = Field("ocg", description="ocg (the default) or tcg: which lists, printings and languages apply.")
    banlist: BanlistChoice | None = Field(
        None,
        description="A bundled list id (ocg-2008-03-01) of the format, an inline list, or an lflist.conf text; "
        "default: the format's list in force on the date.",
    )
    protectors: ProtectorsIn | None = None
    roster: DeckIn | None = Field(None, description="The Deck Roster Sheet (デッキ記入シート), in any deck form.")
    duel: Literal[1, 2, 3] = Field(1, description="Which duel of the match the deck is presented for.")
    phase: Literal["registration", "between_duels", "during_duel"] = "registration"
    default_language: str | None = DEFAULT_LANGUAGE_FIELD


class ConvertRequest(DeckIn):
    """A deck in any form and the form wanted."""

    to: DeckFormat
    names: Literal["en", "ja"] = Field("en", description="Card-name language of a text list.")


DeckId = Annotated[str, Field(max_length=MAX_ID_CHARS)] | Annotated[int, Field(ge=ID_RANGE[0], le=ID_RANGE[1])]


class RecheckLine(DeckIn):
    """One NDJSON line of a recheck: a deck in any form, the caller's id for it, and what else belongs to the deck
    (the date and the list belong to the whole recheck)."""

    id: DeckId = Field(
        description=f"The caller's id for the deck: a string of up to {MAX_ID_CHARS} characters or a 64-bit whole "
        "number, echoed in its result line."
    )
    protectors: ProtectorsIn | None = None
    default_language: str | None = DEFAULT_LANGUAGE_FIELD
