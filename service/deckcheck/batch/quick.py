"""Recheck lines read for the columnar verdict without the request models.

Nearly every stored deck is a plain line: an id and a ydke link, or an id and lists of entries by passcode. The
commonest of them, an id and a link as a store writes them, are found in a chunk's bytes at once (stored.py); `quick`
reads any other such line with orjson alone and keeps it only where the request models (wire/requests.py, RecheckLine)
would read the same deck with no error (at most MAX_ENTRIES entries of at most MAX_COUNT copies a section: within
every bound of limits.py); anything else (another form, a name, a field or value the models would
refuse or read differently) is None, and the line takes the models' path, which gives its error or its report.

A line's fields besides those of a recheck line are the caller's own (`player`, `email`, `table`): both paths keep
them as orjson reads them, within MAX_FIELDS and MAX_FIELDS_BYTES, and echo them in the line's result.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import orjson

from deckcheck.limits import (
    ID_RANGE,
    MAX_COUNT,
    MAX_ENTRIES,
    MAX_FIELDS,
    MAX_FIELDS_BYTES,
    MAX_ID_CHARS,
    MAX_PASSCODE,
)
from deckcheck.model import Deck, Entry, Protectors, maker
from deckcheck.wire.requests import LANGUAGE_PATTERN, MAX_SOURCE_CHARS, RecheckLine

_SECTIONS = ("main", "extra", "side")
_PROTECTORS = frozenset({"used", "opaque_back", "uniform"})
_LANGUAGE = re.compile(LANGUAGE_PATTERN)
_ENTRY = frozenset({"passcode", "count", "language"})
_KNOWN = frozenset({"id", "ydke", *_SECTIONS, "protectors", "default_language"})
_LINE = frozenset(RecheckLine.model_fields)  # every other field is the caller's own
_MODELS_ONLY = _LINE - _KNOWN  # a line giving one of these is not plain


class Quick(NamedTuple):
    """A plain line: its id, its deck (a ydke link, or entries), what it says of protectors and language (the
    primary language subtag, lowercased), the caller's own fields (None when it gives none), and the lines it is
    judged with: those of the same form (links or entries), protectors and language."""

    id: str | int
    deck: str | Deck
    protectors: Protectors | None
    language: str | None
    fields: dict[str, Any] | None
    group: tuple[bool, Protectors | None, str | None]


LINK_GROUP = (True, None, None)  # the group of a link with neither protectors nor language
_new_quick = maker(Quick)


def own_fields(value: dict[str, Any]) -> dict[str, Any] | None:
    """The fields of a line read by orjson that are not a recheck line's, in the line's order; None if none."""
    if value.keys() <= _LINE:
        return None
    return {name: item for name, item in value.items() if name not in _LINE}


def fields_errors(fields: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Why a line's own fields are past the bounds, as field errors; none when they are within them."""
    if fields is None:
        return []
    if len(fields) > MAX_FIELDS:
        msg = f"a line carries at most {MAX_FIELDS} fields of its own beside the deck; this one {len(fields)}"
        return [{"loc": [], "msg": msg, "type": "too_many_fields"}]
    size = len(orjson.dumps(fields))
    if size > MAX_FIELDS_BYTES:
        msg = f"a line's own fields take at most {MAX_FIELDS_BYTES} bytes as JSON; these take {size}"
        return [{"loc": [], "msg": msg, "type": "fields_too_large"}]
    return []


def quick(raw: bytes) -> Quick | None:
    """The plain line `raw` is, or None."""
    try:
        value = orjson.loads(raw)
        return _plain(value) if type(value) is dict else None
    except (orjson.JSONDecodeError, _NotPlain):
        return None


def id_and_fields(raw: bytes) -> tuple[Any, dict[str, Any] | None]:
    """The id and own fields of a line the models refuse, each where it can still be read (the id where it is a
    valid one, the fields where they are within their bounds), else None."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None, None
    if type(value) is not dict:
        return None, None
    try:
        deck_id = _id(value.get("id"))
    except _NotPlain:
        deck_id = None
    fields = own_fields(value)
    return deck_id, None if fields_errors(fields) else fields


class _NotPlain(Exception):
    """A line the models must read."""


def _plain(value: dict[str, Any]) -> Quick:
    if len(value) == 2 and "ydke" in value and "id" in value:  # the stored deck: an id and a link, nothing else
        ydke = value["ydke"]
        if type(ydke) is not str or len(ydke) > MAX_SOURCE_CHARS:
            raise _NotPlain
        return _new_quick((_id(value["id"]), ydke, None, None, None, LINK_GROUP))
    fields = own_fields(value)
    if not value.keys().isdisjoint(_MODELS_ONLY) or fields_errors(fields):
        raise _NotPlain
    deck_id = _id(value.get("id"))
    sections = [_entries(value.get(name, [])) for name in _SECTIONS]
    ydke = value.get("ydke")
    if ydke is not None and (type(ydke) is not str or len(ydke) > MAX_SOURCE_CHARS or any(sections)):
        raise _NotPlain
    protectors = _protectors(value.get("protectors"))
    language = value.get("default_language")
    language = None if language is None else _language(language)
    deck = Deck(*sections) if ydke is None else ydke
    return Quick(deck_id, deck, protectors, language, fields, (ydke is not None, protectors, language))


def _id(deck_id: Any) -> str | int:
    if type(deck_id) is str and len(deck_id) <= MAX_ID_CHARS:
        return deck_id
    if type(deck_id) is int and ID_RANGE[0] <= deck_id <= ID_RANGE[1]:
        return deck_id
    raise _NotPlain


def _entries(value: Any) -> tuple[Entry, ...]:
    if type(value) is not list or len(value) > MAX_ENTRIES:
        raise _NotPlain
    entries = []
    for item in value:
        if type(item) is not dict or not item.keys() <= _ENTRY:
            raise _NotPlain
        passcode, count, language = item.get("passcode"), item.get("count", 1), item.get("language")
        if type(passcode) is not int or not 0 <= passcode <= MAX_PASSCODE:
            raise _NotPlain
        if type(count) is not int or not 1 <= count <= MAX_COUNT:
            raise _NotPlain
        entries.append(Entry(passcode, None, count, None if language is None else _language(language)))
    return tuple(entries)


def _protectors(value: Any) -> Protectors | None:
    if value is None:
        return None
    if type(value) is not dict or not value.keys() <= _PROTECTORS or any(type(v) is not bool for v in value.values()):
        raise _NotPlain
    return Protectors(**value)


def _language(tag: Any) -> str:
    """The primary subtag of a language tag, lowercased, as the models read it."""
    if type(tag) is not str or _LANGUAGE.fullmatch(tag) is None:
        raise _NotPlain
    return tag.split("-")[0].lower()
