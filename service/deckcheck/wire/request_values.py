"""The values request bodies hold: dates written YYYY-MM-DD, and each closed set of values as a named type, a
component schema of its own in the OpenAPI document (so a generated client gets a named union)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema
from typing_extensions import TypeAliasType

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
Format = TypeAliasType(
    "Format",
    Annotated[
        Literal["ocg", "tcg"],
        Field(description="An event's format, which picks the lists, printings and card languages.", examples=["ocg"]),
    ],
)
# A deck's forms, each of which a deck is read from and converted to; a deck is converted to a QR code too.
_DECK_FORMATS = Literal["json", "ydk", "ydke", "text"]
DeckFormat = TypeAliasType(
    "DeckFormat",
    Annotated[
        _DECK_FORMATS,
        Field(description="A deck's form: JSON entry lists, .ydk file, ydke:// link or text list.", examples=["ydk"]),
    ],
)
ConvertTarget = TypeAliasType(
    "ConvertTarget",
    Annotated[
        Literal[_DECK_FORMATS, "qr", "sheet"],
        Field(
            description="What a deck is converted to: JSON entry lists, a .ydk file, a ydke:// link, a text list, "
            "qr, a QR code image of its ydke:// link, or sheet, a deck registration sheet as a PDF.",
            examples=["ydke"],
        ),
    ],
)
Phase = TypeAliasType(
    "Phase",
    Annotated[
        Literal["registration", "between_duels", "during_duel"],
        Field(
            description="When a deck is checked: at registration, between duels or during a duel.",
            examples=["registration"],
        ),
    ],
)
Duel = TypeAliasType("Duel", Annotated[Literal[1, 2, 3], Field(description="A duel of a match.", examples=[1])])
NameLanguage = TypeAliasType(
    "NameLanguage", Annotated[Literal["en", "ja"], Field(description="A card-name language.", examples=["en"])]
)
