"""Reading and writing a deck in a form named at run time, and telling which form a deck file is written in."""

from __future__ import annotations

from pathlib import Path

from deckcheck.data import CardIndex
from deckcheck.formats.text import parse_text, write_text
from deckcheck.formats.ydk import parse_ydk, write_ydk
from deckcheck.formats.ydke import parse_ydke, write_ydke
from deckcheck.model import Deck

# A deck file's form by its suffix; a .json file holds a /v1/validate request body.
DECK_SUFFIXES = {".ydk": "ydk", ".ydke": "ydke", ".txt": "text", ".json": "json"}


def parse(fmt: str, source: str, cards: CardIndex) -> Deck:
    """Parse `source` written in `fmt` (ydk, ydke or text)."""
    if fmt == "ydk":
        return parse_ydk(source)
    if fmt == "ydke":
        return parse_ydke(source)
    return parse_text(source, cards)


def write(fmt: str, deck: Deck, cards: CardIndex, lang: str = "en") -> str:
    """Write `deck` as `fmt` (ydk, ydke or text with names in `lang`)."""
    if fmt == "ydk":
        return write_ydk(deck, cards)
    if fmt == "ydke":
        return write_ydke(deck, cards)
    return write_text(deck, cards, lang)


def deck_file_format(path: Path, text: str) -> str:
    """The form a deck file is written in: by its suffix, and a text file holding a ydke link is one."""
    fmt = DECK_SUFFIXES.get(path.suffix.lower(), "text")
    return "ydke" if fmt == "text" and text.lstrip().startswith("ydke://") else fmt
