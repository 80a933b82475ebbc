"""Reading and writing a deck in a form named at run time."""

from __future__ import annotations

from deckcheck.data import CardIndex
from deckcheck.formats.text import parse_text, write_text
from deckcheck.formats.ydk import parse_ydk, write_ydk
from deckcheck.formats.ydke import parse_ydke, write_ydke
from deckcheck.model import Deck


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
