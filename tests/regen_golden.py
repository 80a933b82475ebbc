"""Rewrite tests/golden/*.json from the current engine: `python -m tests.regen_golden`. Read the diff after."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import httpx

from deckcheck import load_data
from deckcheck.rules.infractions import INFRACTIONS
from tests import served
from tests.cases import CASES
from tests.golden import GOLDEN_DIR, golden_path, run_case
from tests.judge_golden import GOLDEN_ASSESSMENTS, answers_for


def main() -> None:
    """Regenerate every golden file and remove those of cases that no longer exist."""
    data = load_data()
    for old in GOLDEN_DIR.glob("*.json"):
        if old.stem not in CASES:
            old.unlink()
    for name, (body, _expected) in CASES.items():
        text = json.dumps(run_case(body, data), ensure_ascii=False, indent=1) + "\n"
        golden_path(name).write_text(text, encoding="utf-8")
    print(f"wrote {len(CASES)} golden files to {GOLDEN_DIR}")
    with tempfile.TemporaryDirectory() as tmp, served.serving(Path(tmp) / "log", {}) as server:
        client = httpx.Client(base_url=server.url)
        for code in INFRACTIONS:
            text = json.dumps(answers_for(client, code), ensure_ascii=False, indent=1) + "\n"
            (GOLDEN_ASSESSMENTS / f"{code}.json").write_text(text, encoding="utf-8")
    print(f"wrote {len(INFRACTIONS)} golden assessments to {GOLDEN_ASSESSMENTS}")


if __name__ == "__main__":
    main()
