"""The lines of a recheck as text: read as the desk and deck files are (deckcheck.encoding), UTF-8, else Shift_JIS
as Windows writes it (CP932), and counted in each once any was CP932. Each line is read on its own, since a
recheck's lines are never all in one place: POST /v1/rechecks checks each part of its body as it arrives, worker
processes and Dask partitions each read a part of a file. A line that is not UTF-8 but is CP932 is Shift_JIS
whatever the lines around it are, and the same line is the same deck however the input was cut."""

from __future__ import annotations

import codecs
from collections.abc import Sequence

from deckcheck.batch.files import MAX_LINE_BYTES, Decoded, Unread
from deckcheck.batch.quick import Quick, quick
from deckcheck.encoding import Encoding, NotText, decoded_text

# An input line: its bytes, None for a line too long to keep, a line read as text already (a deck file, a table's
# row), or a deck file that could not be read as text.
Line = bytes | Decoded | Unread | None


def read_lines(lines: Sequence[Line]) -> tuple[Sequence[Line], list[Quick | None], tuple[int, int]]:
    """The lines as UTF-8, the plain line each is (`quick`, None where it is not one), and how many were read as
    UTF-8 and as CP932 (a line not read as text, too long or a file that is no text, is neither).

    A line orjson reads as a plain line is UTF-8 already, as nearly every line is: only the others are looked at.
    One that is not UTF-8 but is CP932 (Shift_JIS as Windows writes it) is written as UTF-8 and read again, so its
    deck, id and own fields are what they would be in a UTF-8 file, by the same path (deckcheck.encoding reads it
    as it reads a deck file, a byte order mark dropped). One that neither reads is left as it is, and gets the
    error line the models give it."""
    plains = [quick(raw) if type(raw) is bytes and len(raw) <= MAX_LINE_BYTES else None for raw in lines]
    read: list[Line] | None = None
    cp932 = unread = 0
    for index, plain in enumerate(plains):
        if plain is not None:
            continue
        raw = lines[index]
        found = _as_utf8(raw)
        if found is None:
            unread += 1
            continue
        line, encoding = found
        cp932 += encoding == "cp932"
        if line is not raw:
            if read is None:
                read = list(lines)
            read[index] = line
            plains[index] = quick(line) if len(line) <= MAX_LINE_BYTES else None
    return (lines if read is None else read), plains, (len(lines) - cp932 - unread, cp932)


def _as_utf8(raw: Line) -> tuple[bytes, Encoding] | None:
    """A line as UTF-8 bytes (the very bytes where they are UTF-8 already) and the encoding it was read in; None
    where it is not read as text."""
    if isinstance(raw, Decoded):
        return raw.line, raw.encoding
    if type(raw) is not bytes or len(raw) > MAX_LINE_BYTES:
        return None
    if raw.isascii():
        return raw, "utf-8"
    try:
        text, encoding = decoded_text(raw)
    except NotText:
        return None
    if encoding == "utf-8" and not raw.startswith(codecs.BOM_UTF8):
        return raw, encoding
    return text.encode(), encoding
