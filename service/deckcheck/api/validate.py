"""The /v1 routes for validation, the rule catalogue and health: thin layers over the engine."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header
from fastapi.responses import Response

from deckcheck.api.banlists import build_banlists_router
from deckcheck.api.cards import build_cards_router
from deckcheck.api.decks import build_decks_router
from deckcheck.api.problems import pick_language
from deckcheck.api.rechecks import build_rechecks_router
from deckcheck.data import Data
from deckcheck.rules.engine import validate
from deckcheck.rules.registry import RULES
from deckcheck.wire.inputs import context_for, deck_from
from deckcheck.wire.reports import json_response, report_json
from deckcheck.wire.schemas import Problem, ValidateRequest, ValidateResponse

PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}} for code in (400, 413, 422)
}
AcceptLanguage = Annotated[str | None, Header(description="ja or en; default en")]


def build_router(data: Data) -> APIRouter:
    """The validation, catalogue and health routes, bound to the data loaded at start-up."""
    router = APIRouter()

    @router.post("/v1/validate", response_model=ValidateResponse, responses=PROBLEMS, tags=["validate"])
    def validate_deck(body: ValidateRequest, accept_language: AcceptLanguage = None) -> Response:
        """Check a deck against the 2008 OCG tournament rules and report every violation with its penalty."""
        lang = pick_language(accept_language)
        deck = deck_from(body, data)
        context = context_for(body, data)
        return json_response(report_json(validate(deck, context), lang, deck, context.roster), lang)

    @router.get("/v1/rules", tags=["rules"])
    def rules(accept_language: AcceptLanguage = None) -> Response:
        """The rule catalogue: every code with its citation, penalty, basis and remedy."""
        lang = pick_language(accept_language)
        return json_response(
            [
                {
                    "code": r.code,
                    "summary": r.summary_ja if lang == "ja" else r.summary_en,
                    "rule": r.rule,
                    "penalty": r.penalty,
                    "penalty_basis": r.penalty_basis,
                    "penalty_ref": r.penalty_ref,
                    "remedy": r.remedy_ja if lang == "ja" else r.remedy_en,
                }
                for r in RULES.values()
            ],
            lang,
        )

    @router.get("/healthz", tags=["health"])
    def healthz() -> Response:
        """Liveness, with the size of the loaded data."""
        return json_response({"status": "ok", "cards": len(data.cards), "banlists": len(data.banlists.by_id)})

    return router


def install_routes(app: FastAPI, data: Data) -> None:
    """Mount every route on `app`."""
    app.include_router(build_router(data))
    app.include_router(build_decks_router(data, PROBLEMS))
    app.include_router(build_cards_router(data, PROBLEMS))
    app.include_router(build_banlists_router(data, PROBLEMS))
    app.include_router(build_rechecks_router(data, PROBLEMS))
