"""Every golden case: the hand-written violations, then the whole stored report."""

from __future__ import annotations

import json
from typing import Any

import pytest

from deckcheck import Data
from deckcheck.rules import PENALTIES
from tests.cases import CASES
from tests.golden import golden_path, run_case


@pytest.mark.parametrize("name", list(CASES))
def test_case(name: str, data: Data) -> None:
    body, expected = CASES[name]
    report = run_case(body, data)
    found = [(v["code"], v["section"], v["loc"]) for v in report["violations"]]
    assert found == [(code, section, loc) for code, section, loc in expected]
    assert report["legal"] is (not expected)
    assert report["penalty"] == (None if not expected else max_penalty(report))
    assert report == json.loads(golden_path(name).read_text(encoding="utf-8"))


def max_penalty(report: dict[str, Any]) -> str:
    """The most severe penalty among the violations, by PR 1's order."""
    penalties: list[str] = [v["penalty"] for v in report["violations"]]
    return max(penalties, key=PENALTIES.index)
