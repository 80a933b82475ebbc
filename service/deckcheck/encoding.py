"""The text of a file a player or Konami wrote, read as the desk reads one (static/desk/reading.js): UTF-8 (a byte
order mark dropped), else Shift_JIS as Japanese Windows software writes it (CP932, which the browser's `shift_jis`
decoder reads). Every command that reads deck files (`validate`, `qr`, `recheck`) and the reader of Konami's list
CSV read them here, so a file is the same text in each. It imports nothing of the engine: `data` and `formats`
both stand on it."""

from __future__ import annotations

import codecs
from typing import Literal

from deckcheck.errors import InvalidInput

Encoding = Literal["utf-8", "cp932"]


class NotText(InvalidInput):
    """Bytes that are neither UTF-8 nor CP932 text: `line` and `byte` say where the reading that went further
    stopped, and the message says so."""

    def __init__(self, line: int, byte: int) -> None:
        super().__init__(f"line {line}: byte {byte:#04x} is neither UTF-8 nor Shift_JIS (CP932) text")
        self.line = line
        self.byte = byte


def decoded_text(raw: bytes) -> tuple[str, Encoding]:
    """The file's text and the encoding it was read in; NotText where neither reads it."""
    body = raw.removeprefix(codecs.BOM_UTF8)
    try:
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as utf8:
        try:
            return body.decode("cp932"), "cp932"
        except UnicodeDecodeError as cp932:
            at = max(utf8.start, cp932.start)  # where the reading that went further stopped
            raise NotText(body.count(b"\n", 0, at) + 1, body[at]) from None
