"""The one registry of rule codes: what each rule says, where, the penalty and its basis, messages and remedy.

The texts live in catalogue.toml beside this module, Japanese and English side by side, where a translator can edit
them; they are loaded and checked once, at import, and a broken entry stops start-up with its name. The
catalogue endpoint, the judges' guide's table (docs/judges/index.md, Rule codes) and the tests all read this table.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from deckcheck.errors import DataError
from deckcheck.rules import checks, languages, printings, roster
from deckcheck.sentences import read_catalogue

CATALOGUE = Path(__file__).with_name("catalogue.toml")

# PR 1, least to most severe.
PENALTIES = ("caution", "warning", "duel_forfeiture", "match_forfeiture", "disqualification", "total_disqualification")
SEVERITY = MappingProxyType({name: rank for rank, name in enumerate(PENALTIES)})
BASES = ("explicit", "by analogy")
# Every text of the catalogue is given in these; the card languages of TR 1 are rules/checks.py's LANGUAGES.
TEXT_LANGUAGES = ("en", "ja")
# "TR 3", "TR 2.D.8", "TR 1 ※", "PR 3.A.2", several joined by ", "; the penalty reference is one PR item.
_CITATION = re.compile(r"(TR|PR) \d+(\.[A-Z0-9]+)*( ※)?")
CITATIONS = re.compile(rf"{_CITATION.pattern}(, {_CITATION.pattern})*")
PENALTY_REF = re.compile(r"PR \d+(\.[A-Z](\.\d+)?)?")
_KEYS = frozenset({"rule", "penalty", "penalty_basis", "penalty_ref", "summary", "message", "remedy"})
# The fields rules/messages.py fills into a message. Three name a word in the message's own language and carry its
# suffix ({type_en} in English, {type_ja} in Japanese); the others read the same in both languages.
FIELDS = frozenset(
    {
        "banlist",
        "cards",
        "count",
        "date",
        "details",
        "entry",
        "hint",
        "language",
        "languages",
        "limit",
        "max",
        "min",
        "presented",
        "registered",
        "ruleset",
    }
)
LOCALISED_FIELDS = frozenset({"allowed", "extra_types", "first", "section", "type"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """One rule code and everything said about it."""

    code: str
    summary_en: str
    summary_ja: str
    rule: str
    penalty: str
    penalty_basis: str  # "explicit": PR names it; "by analogy": PR's closest named violation
    penalty_ref: str
    message_en: str
    message_ja: str
    remedy_en: str
    remedy_ja: str


class TableEntry:
    """Reads one table of the catalogue, naming the file and the entry in every complaint."""

    def __init__(self, file: str, name: str, table: Any) -> None:
        self.file = file
        self.name = name
        if not isinstance(table, dict):
            self.fail("must be a table")
        self.table: dict[str, Any] = table

    def fail(self, problem: str) -> NoReturn:
        """Stop start-up: this entry of the file is broken."""
        raise DataError(self.file, self.name, problem)

    def text(self, key: str, pattern: re.Pattern[str] | None = None, choices: tuple[str, ...] = ()) -> str:
        """The text `key`, not blank, matching `pattern` or one of `choices` where they are given."""
        value = self.table.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{key} must be a text")
        if pattern is not None and not pattern.fullmatch(value):
            self.fail(f"{key} {value!r} is not a citation like {pattern.pattern}")
        if choices and value not in choices:
            self.fail(f"{key} {value!r} is not one of {', '.join(choices)}")
        return str(value)

    def texts(self, key: str) -> tuple[str, str]:
        """The {en, ja} table `key`: both languages, nothing else."""
        texts = TableEntry(self.file, f"{self.name}.{key}", self.table.get(key))
        if set(texts.table) != set(TEXT_LANGUAGES):
            given = ", ".join(sorted(texts.table)) or "nothing"
            texts.fail(f"must give exactly {' and '.join(TEXT_LANGUAGES)}, not {given}")
        return texts.text("en"), texts.text("ja")


def _placeholders(template: str, lang: str) -> set[str]:
    """The fields a message template in `lang` fills, a localised one without its suffix; ValueError for a field
    messages.py does not fill, one in the other language, a format or conversion, or a brace left open."""
    names = set()
    for _text, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if spec or conversion:
            raise ValueError(f"{{{name}}} carries a format or conversion")
        base = name.removesuffix(f"_{lang}")
        if name not in FIELDS and not (base != name and base in LOCALISED_FIELDS):
            raise ValueError(f"{{{name}}} is not a field filled into a message in {lang}")
        names.add(base)
    return names


def _rule(code: str, entry: TableEntry, remedies: Mapping[str, tuple[str, str]]) -> Rule:
    if set(entry.table) != _KEYS:
        entry.fail(f"must give exactly {', '.join(sorted(_KEYS))}")
    message_en, message_ja = entry.texts("message")
    try:
        en, ja = _placeholders(message_en, "en"), _placeholders(message_ja, "ja")
    except ValueError as exc:
        entry.fail(f"message: {exc}")
    if en != ja:
        entry.fail(f"message.en fills {sorted(en)} but message.ja fills {sorted(ja)}")
    remedy = entry.table["remedy"]
    if isinstance(remedy, str) and remedy not in remedies:
        entry.fail(f"remedy {remedy!r} is not one of the shared remedies: {', '.join(remedies)}")
    remedy_en, remedy_ja = remedies[remedy] if isinstance(remedy, str) else entry.texts("remedy")
    summary_en, summary_ja = entry.texts("summary")
    return Rule(
        code=code,
        summary_en=summary_en,
        summary_ja=summary_ja,
        rule=entry.text("rule", CITATIONS),
        penalty=entry.text("penalty", choices=PENALTIES),
        penalty_basis=entry.text("penalty_basis", choices=BASES),
        penalty_ref=entry.text("penalty_ref", PENALTY_REF),
        message_en=message_en,
        message_ja=message_ja,
        remedy_en=remedy_en,
        remedy_ja=remedy_ja,
    )


def read_table(path: Path, name: str) -> TableEntry:
    """The TOML file at `path` as the entry `name`; DataError naming the file where it cannot be read."""
    return TableEntry(str(path), name, read_catalogue(path))


def load_catalogue(path: Path, codes: frozenset[str]) -> Mapping[str, Rule]:
    """Every rule of the catalogue file at `path`, in its order, which must be exactly the `codes` the checks yield;
    raise DataError naming the entry on any problem."""
    file = str(path)
    top = read_table(path, "catalogue")
    raw = top.table
    if set(raw) != {"remedies", "rules"}:
        top.fail("must hold a [remedies] and a [rules] table and nothing else")
    shared = TableEntry(file, "remedies", raw["remedies"])
    remedies = {name: shared.texts(name) for name in shared.table}
    rules = TableEntry(file, "rules", raw["rules"])
    if rules.table.keys() != codes:
        missing, unknown = sorted(codes - rules.table.keys()), sorted(rules.table.keys() - codes)
        rules.fail(f"must describe every code the checks yield; missing: {missing}, no check yields: {unknown}")
    loaded = {
        code: _rule(code, TableEntry(file, f"rules.{code}", table), remedies) for code, table in rules.table.items()
    }
    used = {table["remedy"] for table in rules.table.values() if isinstance(table["remedy"], str)}
    for name in remedies.keys() - used:
        shared.fail(f"{name} is a remedy no rule uses")
    return MappingProxyType(loaded)


CODES = checks.CODES | languages.CODES | printings.CODES | roster.CODES
RULES = load_catalogue(CATALOGUE, CODES)
