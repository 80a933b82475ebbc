"""Write the OpenAPI document the app serves to openapi/openapi.json: `python -m scripts.export_openapi`."""

from __future__ import annotations

import json
from pathlib import Path

from deckcheck.app import app

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def render() -> str:
    """The app's OpenAPI document as committed: sorted keys, two-space indent, final newline."""
    return json.dumps(app.openapi(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    OPENAPI_PATH.parent.mkdir(exist_ok=True)
    OPENAPI_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {OPENAPI_PATH}")
