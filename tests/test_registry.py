"""The registry, the judges' guide, the README's example and the golden cases describe the same rules."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from deckcheck import Data
from deckcheck.errors import DataError
from deckcheck.rules import PENALTIES, RULES
from deckcheck.rules.registry import CATALOGUE, CODES, FIELDS, LOCALISED_FIELDS, load_catalogue
from tests.cases import CASES
from tests.golden import run_case

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
JUDGES = (ROOT / "docs" / "judges" / "index.md").read_text(encoding="utf-8")


def test_the_rule_codes_table_is_the_registry() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \| (.+?) \| (\w+) \| (explicit|by analogy) (.+?) \|$", JUDGES, re.M)
    expected = [(r.code, r.summary_en, r.rule, r.penalty, r.penalty_basis, r.penalty_ref) for r in RULES.values()]
    assert rows == expected


def test_every_code_is_produced_by_a_golden_case() -> None:
    produced = {code for _body, expected in CASES.values() for code, _section, _loc in expected}
    assert produced == set(RULES)


def test_registry_entries_are_complete() -> None:
    assert len(RULES) == 20
    for rule in RULES.values():
        assert rule.penalty in PENALTIES
        assert rule.penalty_basis in {"explicit", "by analogy"}
        assert re.fullmatch(r"PR \d+(\.[A-Z](\.\d+)?)?", rule.penalty_ref), rule.code
        assert re.fullmatch(r"(TR \d(\.[A-Z0-9]+)*( ※)?|PR [\d.A-Z]+)(, TR \d(\.[A-Z0-9.]+)?( ※)?)*", rule.rule), (
            rule.code
        )
        assert all([rule.summary_en, rule.summary_ja, rule.message_en, rule.message_ja, rule.remedy_en, rule.remedy_ja])
        assert re.search("[ぁ-んァ-ン一-龯]", rule.summary_ja + rule.message_ja + rule.remedy_ja), rule.code
        assert rule.summary_en.isascii(), rule.code
        assert rule.remedy_en.isascii(), rule.code


def _fields(template: str) -> set[str]:
    return {re.sub("_(en|ja)$", "", name) for _t, name, _s, _c in string.Formatter().parse(template) if name}


def test_both_languages_fill_the_same_fields() -> None:
    for rule in RULES.values():
        assert _fields(rule.message_en) == _fields(rule.message_ja), rule.code


CODE = "[rules.main_deck_too_small]"


@pytest.mark.parametrize(
    ("old", "new", "entry", "problem"),
    [
        (
            'summary.ja = "メインデッキが40枚未満。"\n',
            "",
            "rules.main_deck_too_small.summary",
            "exactly en and ja, not en",
        ),
        ('penalty = "duel_forfeiture"', 'penalty = "duel_forfeit"', CODE[1:-1], "'duel_forfeit' is not one of caution"),
        ('penalty_basis = "explicit"', 'penalty_basis = "implicit"', CODE[1:-1], "'implicit' is not one of explicit"),
        ('rule = "TR 3, TR 4.15"', 'rule = "TR3"', CODE[1:-1], "rule 'TR3' is not a citation"),
        ('penalty_ref = "PR 3.A.1"', 'penalty_ref = "TR 3"', CODE[1:-1], "penalty_ref 'TR 3' is not a citation"),
        ("{min}枚以上", "{max}枚以上", CODE[1:-1], "fills ['count', 'min'] but message.ja fills ['count', 'max']"),
        ("{min}枚以上", "{min枚以上", CODE[1:-1], "message: "),
        ("{min}枚以上", "{minimum}枚以上", CODE[1:-1], "{minimum} is not a field filled into a message in ja"),
        ("{min}枚以上", "{min:>3}枚以上", CODE[1:-1], "{min} carries a format or conversion"),
        ("{min}枚以上", "{min!r}枚以上", CODE[1:-1], "{min} carries a format or conversion"),
        ("{min}枚以上", "{}枚以上", CODE[1:-1], "{} is not a field"),
        (
            "{type_ja}モンスターです。メイン",
            "{type_en}モンスターです。メイン",
            "rules.extra_deck_card_in_main_deck",
            "{type_en}",
        ),
        (
            "[rules.forbidden_card]",
            "[rules.forbidden_cards]",
            "rules",
            "missing: ['forbidden_card'], no check yields: ['forbidden_cards']",
        ),
        (CODE, f'{CODE}\nnote = "x"', CODE[1:-1], "must give exactly message, penalty"),
        ('remedy = "replace_cards"', 'remedy = "replace_card"', "rules.extra_deck_card_in_main_deck", "'replace_card'"),
        (
            "[remedies.replace_cards]",
            '[remedies.spare]\nen = "a"\nja = "b"\n\n[remedies.replace_cards]',
            "remedies",
            "spare is a remedy no rule uses",
        ),
        ("[rules.main_deck_too_small]", "[rules.main_deck_too_small", "file", "Expected ']'"),
        ('rule = "TR 3, TR 4.15"', "rule = 3", CODE[1:-1], "rule must be a text"),
        ('remedy = "replace_cards"', "remedy = 3", "rules.extra_deck_card_in_main_deck.remedy", "must be a table"),
        ("[remedies.replace_cards]", 'ruleset = "x"\n\n[remedies.replace_cards]', "catalogue", "a [remedies] and a"),
    ],
)
def test_a_broken_catalogue_stops_start_up(tmp_path: Path, old: str, new: str, entry: str, problem: str) -> None:
    text = CATALOGUE.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "catalogue.toml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_catalogue(broken, CODES)
    assert (caught.value.file, caught.value.entry) == (str(broken), entry)
    assert problem in caught.value.problem


def test_a_catalogue_without_rules_stops_start_up(tmp_path: Path) -> None:
    empty = tmp_path / "catalogue.toml"
    empty.write_text("[remedies]\n[rules]\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"rules: must describe every code the checks yield; missing: \['card_type"):
        load_catalogue(empty, CODES)


def test_every_message_field_is_used() -> None:
    used = {name for rule in RULES.values() for name in _fields(rule.message_en) | _fields(rule.message_ja)}
    assert used == FIELDS | LOCALISED_FIELDS


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_golden_message_renders_in_both_languages(data: Data, lang: str) -> None:
    rendered = set()
    for body, _expected in CASES.values():
        for violation in run_case(body, data, lang)["violations"]:
            assert "{" not in violation["message"]
            rendered.add(violation["code"])
    assert rendered == set(RULES)


def test_readme_example_answer_is_real(data: Data) -> None:
    body = json.loads((ROOT / "examples" / "pot-of-greed-2008.json").read_text(encoding="utf-8"))
    answer = README.split("<!-- example-answer -->\n```json\n", 1)[1].split("\n```", 1)[0]
    assert json.loads(answer) == run_case(body, data, "ja")
