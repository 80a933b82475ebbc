"""The registry, the README and the golden cases describe the same rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

from deckcheck import Data
from deckcheck.rules import PENALTIES, RULES
from tests.cases import CASES
from tests.golden import run_case

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_table_is_the_registry() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \| (.+?) \| (\w+) \| (explicit|by analogy) (.+?) \|$", README, re.M)
    expected = [(r.code, r.summary_en, r.rule, r.penalty, r.penalty_basis, r.penalty_ref) for r in RULES.values()]
    assert rows == expected


def test_every_code_is_produced_by_a_golden_case() -> None:
    produced = {code for _body, expected in CASES.values() for code, _section, _loc in expected}
    assert produced == set(RULES)


def test_registry_entries_are_complete() -> None:
    for rule in RULES.values():
        assert rule.penalty in PENALTIES
        assert rule.penalty_basis in {"explicit", "by analogy"}
        assert re.fullmatch(r"PR \d+(\.[A-Z](\.\d+)?)?", rule.penalty_ref), rule.code
        assert re.fullmatch(r"(TR \d(\.[A-Z0-9]+)*( ※)?|PR [\d.A-Z]+)(, TR \d(\.[A-Z0-9.]+)?( ※)?)*", rule.rule), (
            rule.code
        )
        assert all([rule.summary_en, rule.summary_ja, rule.message_en, rule.message_ja, rule.remedy_en, rule.remedy_ja])


def test_readme_example_answer_is_real(data: Data) -> None:
    body = json.loads((ROOT / "examples" / "pot-of-greed-2008.json").read_text(encoding="utf-8"))
    answer = README.split("<!-- example-answer -->\n```json\n", 1)[1].split("\n```", 1)[0]
    assert json.loads(answer) == run_case(body, data, "ja")
