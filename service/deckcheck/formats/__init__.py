"""Deck formats: .ydk files, ydke:// links and plain-text lists, read into decks and written back; and QR codes of
a deck's ydke link."""

from deckcheck.formats.common import DeckFormatError, FormatError
from deckcheck.formats.dispatch import DECK_SUFFIXES, deck_file_format, parse, write
from deckcheck.formats.qr import QR_MEDIA_TYPES, DeckTooLargeForQr, QrImage, write_qr
from deckcheck.formats.text import parse_text
from deckcheck.formats.ydk import parse_ydk
from deckcheck.formats.ydke import parse_ydke, write_ydke, ydke_copies

__all__ = [
    "DECK_SUFFIXES",
    "QR_MEDIA_TYPES",
    "DeckFormatError",
    "DeckTooLargeForQr",
    "FormatError",
    "QrImage",
    "deck_file_format",
    "parse",
    "parse_text",
    "parse_ydk",
    "parse_ydke",
    "write",
    "write_qr",
    "write_ydke",
    "ydke_copies",
]
