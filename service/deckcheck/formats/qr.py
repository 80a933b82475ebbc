"""QR codes of a deck: its ydke:// link drawn as a QR code (SVG or PNG) that a registration desk scans with a phone.

The code holds the same text `write_ydke` writes, so whatever reads a ydke link reads the scanned code. Its drawing
is chosen for reading from a printed sheet or a phone screen:

- error correction M (15 % of the code may be lost): the usual level for print and screens, robust to glare, creases
  and a smudged print, at a capacity that holds every real deck (a 60-card main deck with full extra and side decks
  of all-different cards is a 490-byte link, version 17; the largest deck a code holds has 435 cards). segno raises
  the level to Q or H where the data still fits the same version, so a deck that leaves room in its version gets
  the stronger code at no cost in size. L would hold 27 % more, but only for decks of 436 to 551 cards, which no
  tournament allows;
- a quiet zone of 4 modules, the width ISO/IEC 18004 asks for, without which some scanners find no code;
- 8 pixels a module in a PNG (a 90-card deck is 744 px square, the largest 1,480 px), comfortably scannable from a
  phone screen or a print; the SVG is drawn at the same size and scales without loss;
- black modules on a white background, never transparent, so the code reads on a dark page too.
"""

from __future__ import annotations

import io
from typing import Literal

from deckcheck.data import CardIndex
from deckcheck.errors import InvalidInput
from deckcheck.formats.ydke import write_ydke
from deckcheck.model import Deck

QrImage = Literal["svg", "png"]
QR_MEDIA_TYPES: dict[QrImage, str] = {"svg": "image/svg+xml", "png": "image/png"}
QR_ERROR = "M"
# The most bytes a QR code holds at level M, version 40, in byte mode (ISO/IEC 18004 Table 7), the mode of a ydke
# link (ASCII with lower-case letters: one byte a character); tests/test_qr.py holds this figure to segno's own.
QR_MAX_BYTES = 2331
QR_BORDER = 4  # modules of quiet zone around the code
QR_SCALE = 8  # pixels (SVG user units) a module


class DeckTooLargeForQr(InvalidInput):
    """The deck's ydke link holds more bytes than the largest QR code at level M."""

    def __init__(self, size: int) -> None:
        super().__init__(
            f"the deck's ydke link has {size} bytes; a QR code (version 40, error correction {QR_ERROR}) holds at "
            f"most {QR_MAX_BYTES}"
        )
        self.size = size


def qr_code(text: str, image: QrImage) -> bytes:
    """`text` drawn as a QR code, as SVG or PNG; DeckTooLargeForQr when it has more bytes than a code holds (told
    before any drawing: segno is slow to refuse a link of the largest deck a request may give)."""
    import segno  # noqa: PLC0415 - segno (and the urllib it loads) would slow the import of every reader of decks

    size = len(text.encode())
    if size > QR_MAX_BYTES:
        raise DeckTooLargeForQr(size)
    code = segno.make_qr(text, error=QR_ERROR, boost_error=True)
    out = io.BytesIO()
    code.save(out, kind=image, scale=QR_SCALE, border=QR_BORDER, dark="#000", light="#fff")
    return out.getvalue()


def write_qr(deck: Deck, cards: CardIndex, image: QrImage = "svg") -> bytes:
    """A QR code of the deck's ydke:// link (every entry must name an official card, as for `write_ydke`)."""
    return qr_code(write_ydke(deck, cards), image)
