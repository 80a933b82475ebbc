"""The /v1 routes for validation and the rule catalogue: thin layers over the engine."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck.api.metrics import Metrics
from deckcheck.api.middleware.admission import Admission
from deckcheck.api.responses import BAD_QUERY, CHECK_PROBLEMS, AcceptLanguage, cached, json_response, pick_language
from deckcheck.api.served import served
from deckcheck.model import FORMATS, Report
from deckcheck.rules import RULES, eras, validate
from deckcheck.wire.answers import EraOut, RuleOut, ValidateResponse
from deckcheck.wire.inputs import context_for, deck_from
from deckcheck.wire.judge.bodies import mark_escalations
from deckcheck.wire.reports import report_json, ruleset_json
from deckcheck.wire.requests import ValidateRequest

# The catalogues' texts are in the language Accept-Language picks.
_BY_LANGUAGE = ("Accept-Language",)


VALIDATE_PATH = "/v1/validate"


def build_router(admission: Admission, metrics: Metrics) -> APIRouter:
    """The validation and catalogue routes, over the data each request arrived to."""
    router = APIRouter()

    @router.post(
        VALIDATE_PATH,
        response_model=ValidateResponse,
        responses=CHECK_PROBLEMS,
        tags=["validate"],
        operation_id="validateDeck",
    )
    async def validate_deck(
        request: Request, body: ValidateRequest, accept_language: AcceptLanguage = None
    ) -> Response:
        """Check a deck against the tournament rules of its event (format and date) and report every violation with
        its penalty."""
        lang = pick_language(accept_language)
        data = served(request).data

        def check() -> tuple[dict[str, Any], Report]:
            deck = deck_from(body, data)
            context = context_for(body, data)
            report = validate(deck, context)
            answer = report_json(report, lang, deck, context.roster)
            if body.prior is not None:
                mark_escalations(answer["violations"], {str(code): n for code, n in body.prior.items()}, lang)
            return answer, report

        answer, report = await admission.run(request, check)
        metrics.count_codes(Counter(v.code for v in report.violations))
        return json_response(answer, lang)

    @router.get(
        "/v1/rules",
        response_model=list[RuleOut],
        tags=["rules"],
        responses={**BAD_QUERY, **cached()},
        operation_id="listRules",
    )
    def rules(request: Request, accept_language: AcceptLanguage = None) -> Response:
        """The rule catalogue: every code with its citation, penalty, basis and remedy."""
        lang = pick_language(accept_language)
        caching = served(request).caching
        etag = caching.etag(lang)
        if unchanged := caching.answer(request, etag, _BY_LANGUAGE):
            return unchanged
        answer = json_response(
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
        return caching.keep(answer, etag, _BY_LANGUAGE)

    @router.get(
        "/v1/rules/eras",
        response_model=list[EraOut],
        tags=["rules"],
        responses={**BAD_QUERY, **cached()},
        operation_id="listRuleEras",
    )
    def rule_eras(request: Request, accept_language: AcceptLanguage = None) -> Response:
        """The rule eras of each format: from when each ruleset applied, its card types, languages and notes."""
        lang = pick_language(accept_language)
        data, caching = served(request).data, served(request).caching
        etag = caching.etag(lang)
        if unchanged := caching.answer(request, etag, _BY_LANGUAGE):
            return unchanged
        answer = json_response(
            [
                {
                    "from": None if start is None else start.isoformat(),
                    "until": None if until is None else until.isoformat(),
                    **ruleset_json(ruleset, ruleset.notes, lang),
                }
                for fmt in FORMATS
                for start, until, ruleset in eras(data.cards, fmt)
            ],
            lang,
        )
        return caching.keep(answer, etag, _BY_LANGUAGE)

    return router
