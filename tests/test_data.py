"""The bundled data: they load, they are immutable, they are what scripts/build_data.py builds from sources/,
and broken files stop start-up."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from deckcheck import Data, load_data
from deckcheck.api import create_app
from deckcheck.config import ConfigError, Settings, load_settings
from deckcheck.errors import DataError
from scripts.build_data import build_banlists, build_cards, replay_imports

ROOT = Path(__file__).resolve().parent.parent  # the repository, with cards/ and banlists/

SOURCES = ROOT / "sources"


def test_bundled_counts(data: Data) -> None:
    assert len(data.cards) == 14216
    assert len(data.cards.by_passcode) == 14372
    assert len(data.banlists.lists) == 133
    assert (len(data.banlists.of_format("ocg")), len(data.banlists.of_format("tcg"))) == (86, 47)
    spring_2008 = data.banlists.get("ocg-2008-03-01")
    assert spring_2008 is not None
    statuses = [sorted(v for v in spring_2008.limits.values()).count(n) for n in (0, 1, 2)]
    assert statuses == [40, 57, 12]


@pytest.mark.parametrize(
    ("day", "list_id"),
    [
        ("1999-07-07", None),
        ("1999-07-08", "ocg-1999-07-08"),
        ("2008-02-29", "ocg-2007-09-01"),
        ("2008-03-01", "ocg-2008-03-01"),
        ("2008-08-31", "ocg-2008-03-01"),
        ("2008-09-01", "ocg-2008-09-01"),
        ("2026-09-30", "ocg-2026-07-01"),
        ("2026-10-01", "ocg-2026-10-01"),
        ("2099-01-01", "ocg-2026-10-01"),
    ],
)
def test_list_in_force(data: Data, day: str, list_id: str | None) -> None:
    found = data.banlists.in_force(dt.date.fromisoformat(day))
    assert (None if found is None else found.id) == list_id


def test_aliases_resolve_to_the_canonical_card(data: Data) -> None:
    dark_magician = data.cards.by_passcode[46986414]
    assert data.cards.by_passcode[36996508] is dark_magician
    assert data.cards.aliases[46986414] == (36996508, 46986415, 46986416, 46986417, 46986418, 46986419, 46986421)
    assert data.cards.find_name("Harpie Lady 1") is not data.cards.find_name("Harpie Lady")


def test_data_cannot_be_changed(data: Data) -> None:
    with pytest.raises(TypeError):
        data.cards.by_passcode[1] = data.cards.by_passcode[46986414]  # type: ignore[index]
    with pytest.raises(TypeError):
        data.banlists.lists[0].limits[46986414] = 0  # type: ignore[index]
    with pytest.raises(AttributeError):
        data.cards.by_passcode[46986414].name_en = "x"  # type: ignore[misc]


def test_bundled_files_are_what_the_script_builds(tmp_path: Path) -> None:
    build_cards(SOURCES, tmp_path)
    for name in ("cards.csv", "printings.json"):
        assert (tmp_path / "cards" / name).read_bytes() == (ROOT / "cards" / name).read_bytes()
    assert [build_banlists(SOURCES, fmt, tmp_path) for fmt in ("ocg", "tcg")] == [85, 47]
    # The OCG 2026.10 list, which `deckcheck data add-list` added to the bundle from sources/incoming.
    assert replay_imports(SOURCES, tmp_path) == 1
    for fmt in ("ocg", "tcg"):
        built = sorted(p.name for p in (tmp_path / "banlists" / fmt).iterdir())
        assert built == sorted(p.name for p in (ROOT / "banlists" / fmt).iterdir())
        for name in built:
            assert (tmp_path / "banlists" / fmt / name).read_bytes() == (ROOT / "banlists" / fmt / name).read_bytes()


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled data."""
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    shutil.copytree(ROOT / "banlists", tmp_path / "banlists")
    return tmp_path


def _edit_cards(root: Path, old: str, new: str) -> None:
    path = root / "cards" / "cards.csv"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _edit_list(root: Path, file: str, changes: dict[str, object]) -> Path:
    path = root / "banlists" / "ocg" / file
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(changes)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "entry", "problem"),
    [
        ("55144522,0,1,強欲な壺", "55144522,0,1,強欲な壺,extra", "line", "wrong number of columns"),
        (
            "55144522,0,1,強欲な壺,Pot of Greed,spell",
            "55144522,0,1,強欲な壺,Pot of Greed,sorcery",
            "line",
            "unknown kind",
        ),
        (
            "55144522,0,1,強欲な壺,Pot of Greed,spell,none,0,1,1,1999-05-27",
            "55144522,0,1,強欲な壺,Pot of Greed,spell,none,0,1,1,1999-05-32",
            "line",
            "bad date",
        ),
        ("36996508,46986414,", "36996508,46986413,", "line", "alias 46986413 is not a canonical card"),
        ("483,0,1", "2511,0,1", "line", "passcode 2511 listed twice"),
        ("483,0,1", "x483,0,1", "line", "bad passcode"),
        ("passcode,alias", "code,alias", "header", "expected columns"),
    ],
)
def test_broken_card_file_stops_start_up(copy: Path, old: str, new: str, entry: str, problem: str) -> None:
    _edit_cards(copy, old, new)
    with pytest.raises(DataError) as caught:
        load_data(copy)
    assert caught.value.file.endswith("cards.csv")
    assert caught.value.entry.startswith(entry)
    assert problem in caught.value.problem


@pytest.mark.parametrize(
    ("changes", "entry", "problem"),
    [
        ({"forbidden": [1]}, "forbidden[0]", "passcode 1 is not a known card"),
        ({"limited": [55144522]}, "limited[0]", "card 55144522 (Pot of Greed) is listed twice"),
        ({"semi_limited": [36996508]}, "semi_limited[0]", "alternate, not a canonical passcode"),
        ({"semi_limited": ["55144522"]}, "semi_limited[0]", "must be a passcode number"),
        ({"forbidden": None}, "forbidden", "must be a list"),
        ({"effective_from": "2008-13-01"}, "effective_from", "bad date"),
        ({"effective_until": "2008-01-01"}, "effective_until", "must be after effective_from"),
        ({"name": 5}, "name", "must be a str"),
    ],
)
def test_broken_list_stops_start_up(copy: Path, changes: dict[str, object], entry: str, problem: str) -> None:
    path = _edit_list(copy, "2008-03-01.json", changes)
    with pytest.raises(DataError) as caught:
        load_data(copy)
    assert (caught.value.file, caught.value.entry) == (str(path), entry)
    assert problem in caught.value.problem


def test_overlapping_lists_stop_start_up(copy: Path) -> None:
    _edit_list(copy, "2008-03-01.json", {"effective_until": "2008-10-01"})
    with pytest.raises(DataError, match="ocg-2008-03-01 runs until 2008-10-01 but ocg-2008-09-01 starts 2008-09-01"):
        load_data(copy)


def test_list_that_is_not_json_stops_start_up(copy: Path) -> None:
    (copy / "banlists" / "ocg" / "2008-03-01.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match=r"2008-03-01\.json: file"):
        load_data(copy)


def test_start_up_refuses_broken_data(copy: Path) -> None:
    _edit_list(copy, "2008-03-01.json", {"forbidden": [1]})
    with pytest.raises(DataError, match=r"2008-03-01\.json: forbidden\[0\]"):
        create_app(Settings(data_dir=copy))


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"DECKCHECK_DATA_DIR": "/nonexistent"},
            "^DECKCHECK_DATA_DIR=/nonexistent: not a folder holding cards/ and banlists/$",
        ),
        ({"DECKCHECK_MAX_BODY_BYTES": "lots"}, "^DECKCHECK_MAX_BODY_BYTES=lots: Input should be a valid integer"),
        (
            {"DECKCHECK_MAX_BODY_BYTES": "10"},
            "^DECKCHECK_MAX_BODY_BYTES=10: Input should be greater than or equal to 1024$",
        ),
        ({"DECKCHECK_BODY_TIMEOUT": "0"}, "^DECKCHECK_BODY_TIMEOUT=0: Input should be greater than 0$"),
        (
            {"DECKCHECK_LOG_LEVEL": "loud"},
            "^DECKCHECK_LOG_LEVEL=loud: Input should be 'debug', 'info', 'warning' or 'error'$",
        ),
    ],
)
def test_settings_refuse_nonsense(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=message):
        load_settings()


def test_settings_defaults_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.startswith("DECKCHECK_")]:
        monkeypatch.delenv(name)
    defaults = load_settings()
    assert (defaults.max_body_bytes, defaults.body_timeout, defaults.check_threads) == (1024 * 1024, 10.0, 2)
    monkeypatch.setenv("DECKCHECK_MAX_BODY_BYTES", "2048")
    monkeypatch.setenv("DECKCHECK_ACCESS_LOG", "false")
    changed = load_settings()
    assert (changed.max_body_bytes, changed.access_log) == (2048, False)


def test_the_settings_table_lists_every_setting_with_its_default() -> None:
    guide = (ROOT / "docs" / "operators" / "service.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(DECKCHECK_\w+)` \| (.+?) \|", guide, re.M))
    assert set(rows) == {f"DECKCHECK_{name.upper()}" for name in Settings.model_fields}
    assert rows["DECKCHECK_CORS_ORIGINS"] == '`["*"]`'
    assert rows["DECKCHECK_CACHE_MAX_AGE"] == str(Settings.model_fields["cache_max_age"].default)


def test_cors_origins_come_from_the_environment_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKCHECK_CORS_ORIGINS", '["https://decks.example", "http://localhost:3000"]')
    assert load_settings().cors_origins == ("https://decks.example", "http://localhost:3000")
    monkeypatch.setenv("DECKCHECK_CORS_ORIGINS", "https://decks.example, http://localhost:3000")
    assert load_settings().cors_origins == ("https://decks.example", "http://localhost:3000")
    monkeypatch.setenv("DECKCHECK_CORS_ORIGINS", "")
    assert load_settings().cors_origins == ()
    monkeypatch.setenv("DECKCHECK_CORS_ORIGINS", '["https://decks.example"')
    with pytest.raises(ConfigError, match=r"DECKCHECK_CORS_ORIGINS=.*: not a JSON list of origins"):
        load_settings()
