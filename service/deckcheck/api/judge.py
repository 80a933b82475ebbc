"""The judge's routes: the infraction catalogue, assessing an infraction, and ruling on a match whose time is up.
Thin layers over rules/infractions.py, rules/assess.py and rules/timelimit.py."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck.api.live_data import served
from deckcheck.api.problems import problem
from deckcheck.api.responses import (
    BAD_QUERY,
    BY_LANGUAGE,
    JUDGE_PROBLEMS,
    AcceptLanguage,
    cached,
    json_response,
    pick_language,
)
from deckcheck.rules.assess import Contradictions
from deckcheck.rules.infractions import INFRACTIONS
from deckcheck.sentences import say
from deckcheck.wire.answers import AssessmentOut, InfractionOut, RulingOut
from deckcheck.wire.judge.bodies import assess_body, contradiction_errors, infraction_json, time_limit_body
from deckcheck.wire.judge.requests import AssessRequest, TimeLimitRequest

router = APIRouter(tags=["judge"])
"""The judge's routes."""


@router.get(
    "/v1/infractions",
    response_model=list[InfractionOut],
    responses={**BAD_QUERY, **cached()},
    operation_id="listInfractions",
)
def infractions(request: Request, accept_language: AcceptLanguage = None) -> Response:
    """The infraction catalogue: every item of the penalty regulations from PR 3 (the deck rules) to PR 10, with
    its penalty, citation, remedy and what an assessment of it depends on."""
    lang = pick_language(accept_language)
    caching = served(request).caching
    etag = caching.etag(lang)
    if unchanged := caching.answer(request, etag, BY_LANGUAGE):
        return unchanged
    answer = json_response([infraction_json(item, lang) for item in INFRACTIONS.values()], lang)
    return caching.keep(answer, etag, BY_LANGUAGE)


@router.post(
    "/v1/penalties/assess",
    response_model=AssessmentOut,
    responses=JUDGE_PROBLEMS,
    operation_id="assessPenalty",
)
def assess_penalty(body: AssessRequest, accept_language: AcceptLanguage = None) -> Response:
    """Assess an infraction: the penalty the regulations give on the facts given, whom and what it applies to, the
    remedy, whether it is recorded, and the higher penalty the referee may give for a repeat (PR 2.B) or an
    influenced outcome, never applied here. Facts that contradict the infraction chosen are refused (422), every
    contradiction named with the fields it is between, in the language asked for."""
    lang = pick_language(accept_language)
    try:
        return json_response(assess_body(body, lang), lang)
    except Contradictions as refused:
        detail = say("judging", "contradiction.detail", lang)
        errors = contradiction_errors(refused, lang)
        return problem(422, detail, errors, "invalid-request", headers={"Content-Language": lang})


@router.post(
    "/v1/matches/time-limit",
    response_model=RulingOut,
    responses=JUDGE_PROBLEMS,
    operation_id="ruleOnTimeLimit",
)
def time_limit(body: TimeLimitRequest, accept_language: AcceptLanguage = None) -> Response:
    """Rule on a match whose 40 minutes ran out (TR 2.C): the procedure that applies (判定1–3), the steps taken,
    the next step, and the duel and match winners once the state given settles them."""
    lang = pick_language(accept_language)
    return json_response(time_limit_body(body, lang), lang)
