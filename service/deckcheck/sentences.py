"""The sentences the service and the command say to people, in Japanese and English, from the catalogues in
catalogues/ beside this module: read and checked once, at import, each rendered by `say`. A broken entry stops
start-up with the file and the entry named.

An entry is a TOML table of `en` and `ja` texts with `{name}` fields; an English text that counts something may be a
table of `one` and `other` forms instead, and `say` picks one by the field `count` (Japanese needs one form).
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from deckcheck.errors import DataError

CATALOGUES = Path(__file__).with_name("catalogues")
LANGUAGES = ("en", "ja")
PLURAL_FORMS = ("one", "other")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One entry of a catalogue: its Japanese text, and its English text in the forms `one` and `other` (the same
    text twice where it does not count anything)."""

    ja: str
    one: str
    other: str

    def text(self, lang: str, count: object = None) -> str:
        """The template in `lang` (ja, else en), its English form picked by `count`."""
        if lang == "ja":
            return self.ja
        return self.one if count == 1 else self.other


def _fields(template: str) -> frozenset[str]:
    return frozenset(name for _text, name, _spec, _conversion in string.Formatter().parse(template) if name)


def _sentence(file: str, name: str, entry: object) -> Sentence:
    def fail(problem: str) -> DataError:
        return DataError(file, name, problem)

    if not isinstance(entry, dict) or set(entry) != set(LANGUAGES):
        raise fail(f"must give exactly {' and '.join(LANGUAGES)}")
    en, ja = entry["en"], entry["ja"]
    forms = en if isinstance(en, dict) else dict.fromkeys(PLURAL_FORMS, en)
    if set(forms) != set(PLURAL_FORMS):
        raise fail(f"en must be a text, or a table of exactly {' and '.join(PLURAL_FORMS)}")
    texts = [text for text in (ja, *(forms[form] for form in PLURAL_FORMS)) if isinstance(text, str)]
    if len(texts) != 1 + len(PLURAL_FORMS):
        raise fail("ja must be a text, and en a text or texts")
    try:
        filled = {_fields(text) for text in texts}
    except ValueError as exc:
        raise fail(str(exc)) from None
    if len(filled) > 1:
        raise fail(f"its texts fill different fields: {sorted(sorted(fields) for fields in filled)}")
    ja, one, other = texts
    if one != other and "count" not in filled.pop():
        raise fail("en gives one and other forms but fills no {count} to pick them by")
    return Sentence(ja=ja, one=one, other=other)


def _entries(file: str, prefix: str, table: Mapping[str, object]) -> dict[str, Sentence]:
    """The entries of `table` by dotted name: a table of tables holds more (a table of card languages holds tables
    named en and ja), any other table is one (its en may be a table of plural forms)."""
    found: dict[str, Sentence] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and all(isinstance(v, dict) and not {*v} & {*PLURAL_FORMS} for v in value.values()):
            found |= _entries(file, f"{name}.", value)
        else:
            found[name] = _sentence(file, name, value)
    return found


def read_catalogue(path: Path) -> dict[str, Any]:
    """The TOML catalogue at `path` (these, and the rules' own in rules/), as read; DataError naming the file where
    it cannot be read."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(str(path), "file", str(exc)) from None


def load(path: Path) -> Mapping[str, Sentence]:
    """Every sentence of the catalogue at `path` by its dotted name; DataError naming the file and the entry."""
    return MappingProxyType(_entries(str(path), "", read_catalogue(path)))


SENTENCES: Mapping[str, Mapping[str, Sentence]] = MappingProxyType(
    {name: load(CATALOGUES / f"{name}.toml") for name in ("paper", "messages", "cli", "judging")}
)


def say(catalogue: str, key: str, lang: str, /, **fields: object) -> str:
    """The sentence `key` of `catalogue` in `lang` (ja, else en), its English form picked by the field `count`, its
    {fields} filled."""
    return SENTENCES[catalogue][key].text(lang, fields.get("count")).format(**fields)
