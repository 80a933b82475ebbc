"""The repository stands alone and reads as it should: nothing in it points at a file outside it, the source data the
bundled copies are built from are in it, the changelog opens on what is unreleased, and commit subjects fit a line."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What a clone does not have: the folder beside the repository its data and rules once came from, and the documents
# there (the rules are cited by their own sections, TR n and PR n.X, and the data live in sources/).
OUTSIDE = re.compile(r"\.\./shared|/work/shared|\bSPEC(?:\.md|\s*§|\s+section)|\bthe seeds\b|\bseeds'")
# Vendored or generated files, whose words are not the project's, and this file, which names what it looks for.
NOT_OURS = (
    "service/deckcheck/static/vendor/",
    "clients/typescript/package-lock.json",
    "sources/",
    "tests/test_repository.py",
)
# The first commit held to the subject rule: the history before it is kept as it is, never rewritten.
FIRST_SHORT_SUBJECT = "9c998ad"
MAX_SUBJECT = 72
# Commits since whose subjects ran past it, kept as they are for the same reason: 75, 76 and 76 characters.
LONG_SUBJECTS_KEPT = frozenset({"7e848ea", "750fc20", "450bd5a"})


def _tracked() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in listed.decode().split("\0") if name and not name.startswith(NOT_OURS)]


def test_nothing_points_outside_the_repository() -> None:
    found = []
    for path in _tracked():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue  # binary files (fonts, weights, images), and a file deleted but not yet committed
        found += [
            f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for number, line in enumerate(text.splitlines(), 1)
            if OUTSIDE.search(line)
        ]
    assert found == []


def test_the_pattern_finds_what_it_is_for() -> None:
    said = ["see ../shared/data", "SPEC section 4", "SPEC §5", "the seeds win", "the seeds' date", "SPEC.md"]
    fine = ["before_seeds", "random seeds = [1, 2]", "SPECIAL damages", "the phone photos' seeds: SEED"]
    assert [bool(OUTSIDE.search(text)) for text in said + fine] == [True] * len(said) + [False] * len(fine)


def test_the_sources_of_the_bundled_data_are_in_the_repository() -> None:
    sources = ROOT / "sources"
    assert sorted(path.name for path in (sources / "incoming").iterdir()) == [
        "README.md",
        "konami-ocg-2021-10.csv",
        "konami-ocg-2025-04.csv",
        "ocg-2026-10.lflist.conf",
        "prerelease-dbgv.cdb",
    ]
    assert (sources / "cards.csv").stat().st_size > 1_000_000
    assert {path.name for path in (sources / "banlists").iterdir()} == {"ocg", "tcg", "index.json"}
    assert "## Sources" in (sources / "README.md").read_text(encoding="utf-8")  # where each file comes from


def test_the_changelog_opens_on_what_is_unreleased() -> None:
    headings = [line for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines() if line[:3] == "## "]
    assert headings[0] == "## Unreleased"
    assert headings[-1].startswith("## 0.1.0")


def test_commit_subjects_fit_one_line() -> None:
    _tracked()
    log = subprocess.run(
        ["git", "log", "--format=%h %s", f"{FIRST_SHORT_SUBJECT}^..HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if log.returncode != 0:
        pytest.skip(f"the history holds no {FIRST_SHORT_SUBJECT} (a shallow clone)")
    long = [
        line
        for line in log.stdout.splitlines()
        if len(line.split(" ", 1)[1]) > MAX_SUBJECT and not line.startswith(tuple(LONG_SUBJECTS_KEPT))
    ]
    assert long == []
