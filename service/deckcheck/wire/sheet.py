"""The player and event a registration sheet prints beside the deck (`to: sheet` of POST /v1/decks/convert)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.wire.request_values import Format, IsoDate

Paper = Literal["a4", "letter"]
_FIELD_TEXT = Annotated[str | None, Field(min_length=1, max_length=100)]


class SheetIn(BaseModel):
    """What a registration sheet says besides the deck; a field left out is printed blank, to fill by hand."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"player_name": "山田 太郎", "date": "2008-09-01", "format": "ocg"}]},
    )

    player_name: _FIELD_TEXT = Field(default=None, description="The player's name.", examples=["山田 太郎"])
    player_furigana: _FIELD_TEXT = Field(
        default=None, description="The name's reading in kana (フリガナ).", examples=["ヤマダ タロウ"]
    )
    player_id: _FIELD_TEXT = Field(
        default=None, description="The player's ID (CARD GAME ID, COSSY ID).", examples=["0123456789"]
    )
    event: _FIELD_TEXT = Field(default=None, description="The event's name.", examples=["Store Championship"])
    date: IsoDate | None = Field(default=None, description="The event's day.", examples=["2008-09-01"])
    format: Format | None = Field(default=None, description="The event's format.", examples=["ocg"])
    paper: Paper = Field(default="a4", description="The paper size: A4 or US Letter.", examples=["a4"])
