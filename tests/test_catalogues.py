"""The catalogues of words (service/deckcheck/catalogues/): the desk page's table in words.js is what
scripts/export_desk_words.py writes from desk.toml now, both languages give the same keys with the same
placeholders, every sentence the service and the command say is loaded whole, and English picks its plural by the
count."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from deckcheck.errors import DataError
from deckcheck.sentences import CATALOGUES, SENTENCES, load, say
from deckcheck.wire.answers.paper import ReviewReason
from scripts.export_desk_words import DESK_SCRIPT, DESK_WORDS, PLACEHOLDER, render
from scripts.export_desk_words import load as load_desk


def test_the_desk_script_holds_the_words_the_catalogue_gives() -> None:
    script = DESK_SCRIPT.read_text(encoding="utf-8")
    assert script == render(script), "run `python -m scripts.export_desk_words` and commit static/desk/words.js"


def test_the_desk_words_give_the_same_keys_and_placeholders_in_both_languages() -> None:
    words = load_desk()
    assert list(words) == ["ja", "en"]
    assert list(words["ja"]) == list(words["en"])
    assert len(words["ja"]) > 250
    differ = {
        key: (text, words["en"][key])
        for key, text in words["ja"].items()
        if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(words["en"][key]))
    }
    assert differ == {}


def test_the_desk_catalogue_refuses_a_key_one_language_lacks(tmp_path: Path) -> None:
    broken = tmp_path / "desk.toml"
    broken.write_text('[ja]\ntitle = "受付"\nwarn = "{0}まで"\n\n[en]\ntitle = "desk"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[en\] must give the keys of \[ja\] in its order: missing=\['warn'\]"):
        load_desk(broken)


def test_the_desk_catalogue_refuses_a_placeholder_one_language_lacks(tmp_path: Path) -> None:
    broken = tmp_path / "desk.toml"
    broken.write_text('[ja]\nwarn = "{0}まで"\n\n[en]\nwarn = "until"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="warn fills different placeholders in ja and en"):
        load_desk(broken)


def test_the_desk_table_changes_with_the_catalogue(tmp_path: Path) -> None:
    changed = tmp_path / "desk.toml"
    changed.write_text(DESK_WORDS.read_text(encoding="utf-8").replace('"deckcheck desk"', '"the desk"', 1))
    script = DESK_SCRIPT.read_text(encoding="utf-8")
    rendered = render(script, changed)
    assert rendered != script
    assert re.search(r'\btitle: \["deckcheck 受付", "the desk"\],', rendered)
    assert rendered.endswith(script[script.index("\nconst LANGUAGES") :])


def test_every_catalogue_of_sentences_is_loaded() -> None:
    files = sorted(path.stem for path in CATALOGUES.glob("*.toml") if path.name != DESK_WORDS.name)
    assert sorted(SENTENCES) == files == ["cli", "judging", "messages", "paper"]
    sizes = {name: len(sentences) for name, sentences in SENTENCES.items()}
    assert sizes == {"cli": 62, "judging": 43, "messages": 53, "paper": 28}


def test_english_picks_its_plural_by_the_count() -> None:
    assert [say("cli", "changes", "en", old="A", new="B", count=n) for n in (0, 1, 2)] == [
        "A → B: 0 changes",
        "A → B: 1 change",
        "A → B: 2 changes",
    ]
    assert [say("cli", "changes", "ja", old="A", new="B", count=n) for n in (1, 2)] == [
        "A → B：1件の変更",
        "A → B：2件の変更",
    ]
    assert [say("paper", "total_differs", "en", count=n, read=2)[:29] for n in (1, 3)] == [
        "the heading says 1 card but 2",
        "the heading says 3 cards but ",
    ]
    assert [say("cli", "data_cards", "en", count=n, path="p", provisional=0) for n in (1, 31)] == [
        "1 card to p (0 under provisional passcodes)",
        "31 cards to p (0 under provisional passcodes)",
    ]


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ('en = "a"', "x: must give exactly en and ja"),
        ('en = "{a}"\nja = "{b}"', "x: its texts fill different fields"),
        ('en.one = "a"\nen.other = "b"\nja = "c"', "x: en gives one and other forms but fills no {count}"),
        ('en.one = "{count} a"\nja = "{count}"', "x: en must be a text, or a table of exactly one and other"),
        ('en = 1\nja = "c"', "x: ja must be a text, and en a text or texts"),
    ],
)
def test_a_broken_sentence_is_named(tmp_path: Path, entry: str, problem: str) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(f"[x]\n{entry}\n", encoding="utf-8")
    with pytest.raises(DataError) as raised:
        load(broken)
    assert str(raised.value).startswith(f"{broken}: {problem}")


def test_every_reason_a_read_line_gives_has_its_words() -> None:
    reasons = {name.removeprefix("reason.") for name in SENTENCES["paper"] if name.startswith("reason.")}
    assert reasons == set(get_args(ReviewReason))
