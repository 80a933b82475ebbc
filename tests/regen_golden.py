"""Rewrite tests/golden/*.json from the current engine: `python -m tests.regen_golden`. Read the diff after."""

from __future__ import annotations

import json

from deckcheck import load_data
from tests.cases import CASES
from tests.golden import GOLDEN_DIR, golden_path, run_case


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


if __name__ == "__main__":
    main()
