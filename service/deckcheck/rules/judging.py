"""The codes the judge's answers put into words (catalogues/judging.toml): what a penalty applies to, why it may be
raised, why facts contradict the infraction chosen, each step of the time-limit procedures, and the penalties' names.
Checked once, at import: a code the assessment or the procedures can give without its words, or words for no code,
stop start-up. The answers say them with `sentences.say("judging", "group.code", lang, ...)`."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import get_args

from deckcheck.errors import DataError
from deckcheck.rules.assess import AppliesTo
from deckcheck.rules.infractions import Timing
from deckcheck.rules.registry import PENALTIES
from deckcheck.rules.timelimit import StepCode
from deckcheck.sentences import CATALOGUES, SENTENCES

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
PLAYERS = "players"  # "player {number}" / "プレイヤー{number}"


def check_judging(found: list[str]) -> None:
    """DataError naming the first group whose entries in `found` (the catalogue's names, in its order) are not
    exactly its codes in order, or any entry outside the groups."""
    file = str(CATALOGUES / "judging.toml")
    for group, codes in GROUPS.items():
        given = [name.removeprefix(f"{group}.") for name in found if name.startswith(f"{group}.")]
        if given != list(codes):
            raise DataError(file, group, f"must give exactly {', '.join(codes)}, in that order")
    stray = [name for name in found if name != PLAYERS and name.split(".")[0] not in GROUPS]
    if stray or PLAYERS not in found:
        raise DataError(file, "judging", f"must hold the tables {', '.join([*GROUPS, PLAYERS])} and nothing else")


check_judging(list(SENTENCES["judging"]))
