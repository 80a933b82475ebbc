"""A test that hangs fails alone after its timeout (pytest-timeout, `timeout` in pyproject.toml), and the run goes
on to the next test: one hang never eats CI's budget."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]

HANGS = """
import threading


def test_hangs() -> None:
    threading.Event().wait()


def test_after_it() -> None:
    assert True
"""


def test_every_test_has_a_timeout() -> None:
    assert isinstance(OPTIONS["timeout"], int)
    assert 0 < OPTIONS["timeout"] <= 600


@pytest.mark.slow
def test_a_hanging_test_fails_alone_after_its_timeout(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(HANGS, encoding="utf-8")
    # The project's own pytest settings, with a timeout of 2 s instead of minutes.
    options = {**OPTIONS, "timeout": 2, "testpaths": ["."]}
    lines = [f"{key} = {json.dumps(value)}" for key, value in options.items()]  # JSON's values are TOML's too
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    outcomes = sorted(line.split(" - ")[0] for line in run.stdout.splitlines() if line.startswith(("PASSED", "FAILED")))
    assert (run.returncode, outcomes) == (1, ["FAILED test_hang.py::test_hangs", "PASSED test_hang.py::test_after_it"])
    assert "Timeout (>2.0s)" in run.stdout
