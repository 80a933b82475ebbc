"""The words of the judge's answers (judging.toml beside this module), loaded and checked once, at import: what a
penalty applies to, why it may be raised, why facts contradict the infraction chosen, each step of the time-limit
procedures, and the penalties' names, every one in Japanese and English. A code the assessment or the procedures
can give without its words stops start-up."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import get_args

from deckcheck.rules.assess import AppliesTo
from deckcheck.rules.infractions import Timing
from deckcheck.rules.registry import PENALTIES, TEXT_LANGUAGES, TableEntry, read_table
from deckcheck.rules.timelimit import StepCode

JUDGING_FILE = Path(__file__).with_name("judging.toml")
# Each table of the file and the codes it must give words for.
GROUPS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "applies_to": get_args(AppliesTo),
        "prizes": ("kept", "lost"),
        "escalation": ("repeated", "influenced_outcome"),
        "forfeit": ("instead", "possible"),
        "discretion": ("circumstances",),
        "contradiction": (
            "detail",
            "unintentional",
            "intentional",
            "minutes_late",
            "timing",
            "instead",
            "no_instead",
        ),
        "spans": ("bounded", "open"),
        "timings": get_args(Timing),
        "steps": get_args(StepCode),
        "penalties": PENALTIES,
    }
)
Texts = Mapping[str, Mapping[str, tuple[str, str]]]


def load_judging(path: Path) -> tuple[Texts, tuple[str, str]]:
    """Every group's words by code, (en, ja), and the words for a player; DataError naming the entry at fault."""
    file = str(path)
    top = read_table(path, "judging")
    raw = top.table
    if set(raw) != {*GROUPS, "players"}:
        top.fail(f"must hold the tables {', '.join([*GROUPS, 'players'])} and nothing else")
    texts: dict[str, Mapping[str, tuple[str, str]]] = {}
    for group, codes in GROUPS.items():
        entries = TableEntry(file, group, raw[group])
        if list(entries.table) != list(codes):
            entries.fail(f"must give exactly {', '.join(codes)}, in that order")
        texts[group] = MappingProxyType({code: entries.texts(code) for code in codes})
    players = top.texts("players")
    return MappingProxyType(texts), players


TEXTS, PLAYER_WORDS = load_judging(JUDGING_FILE)


def words(group: str, code: str, lang: str, **fields: object) -> str:
    """The words for `code` of `group` in `lang` (en or ja), its {fields} filled."""
    return TEXTS[group][code][TEXT_LANGUAGES.index(lang)].format(**fields)


def player_words(number: int, lang: str) -> str:
    """ "player 1" / "プレイヤー1"."""
    return PLAYER_WORDS[TEXT_LANGUAGES.index(lang)].format(number=number)
