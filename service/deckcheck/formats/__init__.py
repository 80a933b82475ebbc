"""Deck formats: .ydk files, ydke:// links and plain-text lists, read into decks and written back."""

from deckcheck.formats.common import DeckFormatError, FormatError
from deckcheck.formats.dispatch import parse, write
from deckcheck.formats.text import parse_text, write_text
from deckcheck.formats.ydk import parse_ydk, write_ydk
from deckcheck.formats.ydke import deck_of, parse_ydke, write_ydke, ydke_copies

__all__ = [
    "DeckFormatError",
    "FormatError",
    "deck_of",
    "parse",
    "parse_text",
    "parse_ydk",
    "parse_ydke",
    "write",
    "write_text",
    "write_ydk",
    "write_ydke",
    "ydke_copies",
]
