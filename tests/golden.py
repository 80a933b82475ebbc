"""Run a golden case through the same code path as POST /v1/validate, without HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckcheck import Data, validate
from deckcheck.wire.inputs import context_for, deck_from
from deckcheck.wire.reports import report_json
from deckcheck.wire.requests import ValidateRequest

GOLDEN_DIR = Path(__file__).parent / "golden"


def run_case(body: dict[str, Any], data: Data, lang: str = "en") -> dict[str, Any]:
    """The response body /v1/validate gives for `body`."""
    request = ValidateRequest.model_validate(body)
    deck, context = deck_from(request, data), context_for(request, data)
    return report_json(validate(deck, context), lang, deck, context.roster)


def golden_path(name: str) -> Path:
    """Where the whole expected report of case `name` is stored."""
    return GOLDEN_DIR / f"{name}.json"
