"""The ydke:// link: main!extra!side, each base64 of little-endian uint32 passcodes, one copy each."""

from __future__ import annotations

import base64
import binascii
import re
import struct
from collections import Counter

from deckcheck.data import CardIndex
from deckcheck.formats.common import DeckFormatError, FormatError, section_passcodes
from deckcheck.model import SECTIONS, Copies, Deck, deck_of

YDKE_PREFIX = "ydke://"


def ydke_copies(link: str) -> Copies:
    """Read a ydke:// link (main!extra!side, each base64 of little-endian uint32 passcodes) into copies per
    passcode for each section, in order of each card's first copy."""
    body = link.strip()
    if not body.startswith(YDKE_PREFIX):
        raise DeckFormatError([FormatError("a ydke link starts with ydke://", "not_ydke", part="link")])
    parts = body[len(YDKE_PREFIX) :].split("!")
    if len(parts) == 4 and parts[3] == "":
        parts = parts[:3]
    if len(parts) != 3:
        message = f"a ydke link has 3 parts, this one {len(parts)}"
        raise DeckFormatError([FormatError(message, "ydke_parts", part="link")])
    sections: list[Counter[int]] = []
    errors: list[FormatError] = []
    for section, part in zip(SECTIONS, parts, strict=True):
        try:
            raw = _b64(part)
        except ValueError as exc:
            errors.append(FormatError(f"{section}: {exc}", "ydke_base64", part=section))
            continue
        if len(raw) % 4:
            message = f"{section}: {len(raw)} bytes is not a whole number of passcodes"
            errors.append(FormatError(message, "ydke_length", part=section))
            continue
        sections.append(Counter(struct.unpack(f"<{len(raw) // 4}I", raw)))
    if errors:
        raise DeckFormatError(errors)
    return sections[0], sections[1], sections[2]


def parse_ydke(link: str) -> Deck:
    """Read a ydke:// link: main!extra!side, each base64 of little-endian uint32 passcodes."""
    return deck_of(ydke_copies(link))


def _b64(part: str) -> bytes:
    """Standard or url-safe base64, padding optional."""
    if part.endswith("=") or len(part) % 4 == 0:
        try:
            return binascii.a2b_base64(part, strict_mode=True)  # the common case, at C speed
        except binascii.Error:
            pass
    if not re.fullmatch(r"[A-Za-z0-9+/\-_]*={0,2}", part):
        raise ValueError("not base64")
    padded = part.rstrip("=")
    padded += "=" * (-len(padded) % 4)
    try:
        return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"not base64 ({exc})") from None


def write_ydke(deck: Deck, cards: CardIndex) -> str:
    """A ydke:// link of the deck; every entry must name an official card."""
    parts = []
    for section in SECTIONS:
        passcodes = section_passcodes(deck, section, cards)
        parts.append(base64.b64encode(struct.pack(f"<{len(passcodes)}I", *passcodes)).decode("ascii"))
    return YDKE_PREFIX + "!".join(parts) + "!"
