"""Deck formats: .ydk files, ydke:// links and plain-text lists, read into decks and written back."""

from deckcheck.formats.common import DeckFormatError, FormatError
from deckcheck.formats.dispatch import DECK_SUFFIXES, deck_file_format, parse, write
from deckcheck.formats.text import parse_text
from deckcheck.formats.ydk import parse_ydk
from deckcheck.formats.ydke import deck_of, parse_ydke, write_ydke, ydke_copies

__all__ = [
    "DECK_SUFFIXES",
    "DeckFormatError",
    "FormatError",
    "deck_file_format",
    "deck_of",
    "parse",
    "parse_text",
    "parse_ydk",
    "parse_ydke",
    "write",
    "write_ydke",
    "ydke_copies",
]
