"""Write the desk page's words from their catalogue (catalogues/desk.toml) into the `WORDS` table of the page's
static/desk/words.js, leaving the rest of that module as it is: `python -m scripts.export_desk_words`."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "service" / "deckcheck"
DESK_WORDS = PACKAGE / "catalogues" / "desk.toml"
DESK_SCRIPT = PACKAGE / "static" / "desk" / "words.js"
LANGUAGES = ("ja", "en")
WIDTH = 120  # the line length of the project's code (ruff's line-length), packing several words to a line
PLACEHOLDER = re.compile(r"\{\d\}")
_KEY = re.compile(r"[a-z][a-z0-9_]*")
# The table in words.js: the comment lines just above it, and the object literal to its closing brace.
_TABLE = re.compile(r"(^//[^\n]*\n)*^export const WORDS = \{\n.*?^\};", re.MULTILINE | re.DOTALL)


def load(path: Path = DESK_WORDS) -> dict[str, dict[str, str]]:
    """The words of the catalogue at `path` by language and key; ValueError naming the key where the languages do
    not give the same keys, with the same {0}-style placeholders, as plain texts."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    if list(raw) != list(LANGUAGES):
        raise ValueError(f"{path}: must hold the tables {', '.join(LANGUAGES)} and nothing else, in that order")
    first, *others = (raw[lang] for lang in LANGUAGES)
    for lang, table in zip(LANGUAGES[1:], others, strict=True):
        if list(table) != list(first):
            missing, extra = sorted(first.keys() - table.keys()), sorted(table.keys() - first.keys())
            raise ValueError(
                f"{path}: [{lang}] must give the keys of [{LANGUAGES[0]}] in its order: {missing=} {extra=}"
            )
    for key in first:
        if not _KEY.fullmatch(key):
            raise ValueError(f"{path}: {key!r} is not a key the page can name (a-z, 0-9, _)")
        texts = [raw[lang][key] for lang in LANGUAGES]
        if not all(isinstance(text, str) for text in texts):
            raise ValueError(f"{path}: {key} must be a text in every language")
        if len({frozenset(PLACEHOLDER.findall(text)) for text in texts}) > 1:
            raise ValueError(f"{path}: {key} fills different placeholders in {' and '.join(LANGUAGES)}")
    return {lang: dict(raw[lang]) for lang in LANGUAGES}


def _pairs(words: dict[str, dict[str, str]]) -> list[str]:
    """Each key's words, as `key: ["ja text", "en text"],` in the order of LANGUAGES, as many to a line as fit in
    WIDTH: one table of keys, each holding its languages side by side, as the catalogue's keys are checked."""
    lines: list[str] = []
    line = ""
    for key in words[LANGUAGES[0]]:
        texts = ", ".join(json.dumps(words[lang][key], ensure_ascii=False) for lang in LANGUAGES)
        pair = f"{key}: [{texts}],"
        if line and len(line) + 1 + len(pair) > WIDTH:
            lines.append(line)
            line = ""
        line = f"{line} {pair}" if line else f"  {pair}"
    return [*lines, line] if line else lines


def table(path: Path = DESK_WORDS) -> str:
    """The `WORDS` table as the catalogue at `path` gives it, from its heading comment to its closing `};`."""
    out = [
        f"// The page's own words, generated from catalogues/{path.name} by `python -m scripts.export_desk_words`:",
        f"// edit the catalogue, not this table. Each key gives its words in {', then '.join(LANGUAGES)} (LANGUAGES).",
        "// Messages, rules and remedies come from the API in the language asked for.",
        "export const WORDS = {",
    ]
    return "\n".join([*out, *_pairs(load(path)), "};"])


def render(script: str, path: Path = DESK_WORDS) -> str:
    """The desk module `script` with its `WORDS` table replaced by the one the catalogue at `path` gives; ValueError
    where `script` holds no such table."""
    found = _TABLE.search(script)
    if found is None:
        raise ValueError("the desk script holds no `export const WORDS = {` … `};` table")
    return script[: found.start()] + table(path) + script[found.end() :]


if __name__ == "__main__":
    DESK_SCRIPT.write_text(render(DESK_SCRIPT.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the WORDS table of {DESK_SCRIPT}")
