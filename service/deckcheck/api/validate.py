"""The /v1 routes for validation, the rule catalogue and health: thin layers over the engine."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from deckcheck.api.responses import PROBLEMS, AcceptLanguage, json_response, pick_language
from deckcheck.api.schemas import ValidateResponse
from deckcheck.data import Data
from deckcheck.rules import RULES, validate
from deckcheck.wire import ValidateRequest, context_for, deck_from, report_json


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
