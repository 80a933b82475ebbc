"""The values typed into a PDF's form fields, read by pypdf in a process of its own (paper/fields.py runs it):
`python -m deckcheck.paper.pypdf_fields PAGES ANNOTATIONS CHARACTERS` reads the PDF on its standard input and writes
on its standard output, as JSON, each of its first PAGES pages' media box, its /Rotate and its text and choice fields'
widgets, each with its rectangle and the words of its value: `{"pages": [{"box": [x0, y0, x1, y1], "rotate": 0,
"fields": [{"rect": [x0, y0, x1, y1], "words": [[text, x0, y0, x1, y1], ...]}, ...]}, ...]}` (a page that cannot be
read is null), all in the PDF's own points (its default user space, y up), as the widget's /Rect gives them.

A field's value is one word over its widget's rectangle; a multi-line field's value one word a line, stacked from the
top of its rectangle at its font's line height (or closer, so that every line stays inside it). Buttons (check
boxes, radio buttons, push buttons), signatures, password fields, hidden widgets and empty values give none. At most
ANNOTATIONS annotations are looked at and words written, all pages together, a value's line cut at CHARACTERS.

The file is whoever sent it: whatever of it cannot be read (a page, an annotation, a field with no /Rect) gives no
words and never stops the rest; pypdf's warnings are silenced, so that a broken file writes no megabytes of them.
"""

from __future__ import annotations

import io
import json
import logging
import re
import sys
import warnings
from typing import Any

from pypdf import PdfReader
from pypdf.generic import DictionaryObject, IndirectObject, NameObject

PARENTS = 32  # /Parent links followed up a field's tree for an inherited entry (a real form has two or three)
HIDDEN = 2 | 32  # annotation flags Hidden and NoView: a widget that neither shows nor prints
MULTILINE = 1 << 12  # text field flags (Ff): bit 13 Multiline, bit 14 Password
PASSWORD = 1 << 13
FAR = 1e7  # points from the origin past which a number is no coordinate (nor infinite, nor NaN)
LETTER = (0.0, 0.0, 612.0, 792.0)  # poppler's page where the /MediaBox is missing or empty
FIELD_LINES = 200  # lines of a multi-line field read: a whole deck list typed into one box has some 60
LEADING = 1.2  # a line's height in a multi-line field, in its font's size
AUTO_SIZE = 12.0  # the font size a viewer sets a multi-line field of auto size (`0 Tf`) in
_SIZE = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s+Tf\b")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")  # and lone surrogates, which no JSON answer holds
_LINES = re.compile(r"\r\n|\r|\n")


def main(argv: list[str]) -> int:
    """Reads the PDF on standard input, writes its pages' field words on standard output."""
    pages, annotations, characters = (int(value) for value in argv[1:4])
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    read = read_fields(sys.stdin.buffer.read(), pages, annotations, characters)
    sys.stdout.buffer.write(json.dumps({"pages": read}).encode("ascii"))
    return 0


def read_fields(content: bytes, pages: int, annotations: int, characters: int) -> list[dict[str, Any] | None]:
    """Each of the first `pages` pages' box, rotation and fields (None for a page that cannot be read); no pages
    where the file cannot be opened."""
    try:
        reader = PdfReader(io.BytesIO(content), strict=False)
        count = min(len(reader.pages), pages)
    except Exception:  # any file at all: what cannot be read gives no words
        return []
    budget = [annotations]
    read: list[dict[str, Any] | None] = []
    for number in range(count):
        try:
            page = reader.pages[number]
            box = _rect(_inherited(page, "/MediaBox")) or LETTER
            if box[2] - box[0] <= 0 or box[3] - box[1] <= 0:
                box = LETTER
            rotate = _inherited(page, "/Rotate")
            fields = _page_fields(page, budget, characters)
            read.append({"box": box, "rotate": rotate if isinstance(rotate, int) else 0, "fields": fields})
        except Exception:  # a page that cannot be read gives none
            read.append(None)
    return read


def _page_fields(page: DictionaryObject, budget: list[int], characters: int) -> list[dict[str, Any]]:
    annots = _resolved(page.get("/Annots"))
    if not isinstance(annots, list):
        return []
    fields: list[dict[str, Any]] = []
    for annot in annots:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        try:
            field = _widget(_resolved(annot), characters)
        except Exception:  # one broken annotation passes by
            continue
        if field is not None:
            field["words"] = field["words"][: budget[0] + 1]
            budget[0] -= len(field["words"]) - 1
            fields.append(field)
    return fields


def _widget(widget: object, characters: int) -> dict[str, Any] | None:
    """One widget annotation's rectangle and the words of its field's value, None where it shows no text."""
    if not isinstance(widget, DictionaryObject):
        return None
    shown, rect = _value(widget), _rect(widget.get("/Rect"))
    if shown is None or rect is None:
        return None
    value, multiline = shown
    x0, y0, x1, y1 = rect
    if not multiline:
        text = _clean(value, characters)
        return {"rect": rect, "words": [[text, x0, y0, x1, y1]]} if text else None
    lines = _LINES.split(value, maxsplit=FIELD_LINES)[:FIELD_LINES]
    appearance = _inherited(widget, "/DA")
    found = _SIZE.findall(appearance) if isinstance(appearance, str) else []
    size = float(found[-1]) if found else 0.0
    pitch = min((size or AUTO_SIZE) * LEADING, (y1 - y0) / len(lines))
    words = []
    for number, line in enumerate(lines):
        text = _clean(line, characters)
        if text:
            words.append([text, x0, y1 - (number + 1) * pitch, x1, y1 - number * pitch])
    return {"rect": rect, "words": words} if words else None


def _value(widget: DictionaryObject) -> tuple[str, bool] | None:
    """A widget's field's value and whether it is a multi-line text field's; None for a widget that shows no value
    (hidden, of no text or choice field, of a password field) or a value that is no text."""
    if _resolved(widget.get("/Subtype")) != "/Widget":
        return None
    flags = _resolved(widget.get("/F", 0))
    kind, value, field_flags = (_inherited(widget, key) for key in ("/FT", "/V", "/Ff"))
    field_flags = field_flags if isinstance(field_flags, int) else 0
    if (isinstance(flags, int) and flags & HIDDEN) or (kind == "/Tx" and field_flags & PASSWORD):
        return None
    if kind not in {"/Tx", "/Ch"} or not isinstance(value, str) or isinstance(value, NameObject):
        return None
    return value, kind == "/Tx" and bool(field_flags & MULTILINE)


def _inherited(field: DictionaryObject, key: str) -> object:
    """An entry of a field or, where it has none, of the nearest field over it (its /Parent), as far as PARENTS."""
    here: object = field
    for _level in range(PARENTS):
        if not isinstance(here, DictionaryObject):
            return None
        if key in here:
            return _resolved(here.get(key))
        here = _resolved(here.get("/Parent"))
    return None


def _resolved(value: object) -> object:
    return value.get_object() if isinstance(value, IndirectObject) else value


def _rect(value: object) -> tuple[float, float, float, float] | None:
    """A rectangle's corners (left, bottom, right, top), whichever corners it names; None where it is no four
    numbers within FAR."""
    value = _resolved(value)
    if not isinstance(value, list) or len(value) != 4:
        return None
    numbers = [float(v) for v in map(_resolved, value) if isinstance(v, int | float) and abs(v) < FAR]
    if len(numbers) != 4:
        return None
    left, bottom, right, top = numbers
    return min(left, right), min(bottom, top), max(left, right), max(bottom, top)


def _clean(text: str, characters: int) -> str:
    """A value's text as a word: no control characters nor lone surrogates, its spaces run together, at most
    `characters` long."""
    return " ".join(_CONTROL.sub(" ", text[: characters * 2]).split())[:characters]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
