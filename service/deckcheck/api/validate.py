"""The /v1 routes for validation and the rule catalogue: thin layers over the engine."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import Counter
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import served
from deckcheck.api.metrics import Metrics
from deckcheck.api.problems import TargetTooLong
from deckcheck.api.responses import (
    BAD_QUERY,
    BY_LANGUAGE,
    CHECK_PROBLEMS,
    LINK_PROBLEMS,
    AcceptLanguage,
    cached,
    json_response,
    pick_language,
)
from deckcheck.data import Data
from deckcheck.days import today
from deckcheck.model import FORMATS, Report
from deckcheck.rules import RULES, eras, validate, validate_copies
from deckcheck.wire.answers import EraOut, RuleOut, ValidateResponse
from deckcheck.wire.inputs import context_for, deck_from, link_copies
from deckcheck.wire.judge.bodies import mark_escalations
from deckcheck.wire.reports import report_json, ruleset_json
from deckcheck.wire.requests import DeckIn, ValidateQuery, ValidateRequest

VALIDATE_PATH = "/v1/validate"
# The longest target (path and query) GET /v1/validate reads: what CDNs and browsers commonly keep, and some sixteen
# times the link of the largest legal deck (90 cards: under 500 characters).
MAX_LINK_TARGET = 8192
TOO_LONG = f"The request target is longer than {MAX_LINK_TARGET} bytes; send the deck in the body of POST /v1/validate."


# A check runs on the event loop when its deck and roster give their cards by passcode, in at most these many
# characters (a ydk file or ydke link: some 380 cards) or entries, against a bundled list: a 55-card deck costs
# about 50 µs there, as much as the hop to a check thread and back. Anything else waits for a thread: names to
# resolve (a text list of mistyped names costs over a millisecond), an inline or lflist.conf list, a larger deck.
INLINE_CHARS = 2048
INLINE_ENTRIES = 150
# The content types of a body POST /v1/validate reads directly (api/direct.py); FastAPI reads any other.
PLAIN_JSON = frozenset({"application/json", "application/json; charset=utf-8"})

router = APIRouter()
"""The validation and catalogue routes, over the data each request arrived to."""


@router.post(
    VALIDATE_PATH,
    response_model=ValidateResponse,
    responses=CHECK_PROBLEMS,
    tags=["validate"],
    operation_id="validateDeck",
)
async def validate_deck(request: Request, body: ValidateRequest, accept_language: AcceptLanguage = None) -> Response:
    """Check a deck against the tournament rules of its event (format and date) and report every violation with
    its penalty."""
    lang = pick_language(accept_language)
    state = app_state(request)
    work = partial(_checked, body, served(request).data, lang)
    answer, report = await state.admission.run(request, work, inline=runs_inline(body))
    _count_codes(state.metrics, report)
    return json_response(answer, lang)


@router.get(
    VALIDATE_PATH,
    response_model=ValidateResponse,
    responses={**LINK_PROBLEMS, **cached()},
    tags=["validate"],
    operation_id="validateDeckLink",
)
async def validate_link(
    request: Request, query: Annotated[ValidateQuery, Query()], accept_language: AcceptLanguage = None
) -> Response:
    """The answer of POST /v1/validate for a deck given as a ydke:// link in the query, which a CDN or the browser
    may keep: its ETag is the data version, the language, a digest of the deck and event, and the cadence of new
    lists that says whether a newer list may be in force, so a repeated deck is served by the cache and
    revalidated without a check. It waits for a check thread as the POST does, refused alike (503, Retry-After)
    when every one is busy and the queue is full. A target longer than 8,192 bytes is refused with 414: send such
    a deck in the body of the POST."""
    if len(request.scope["raw_path"]) + len(request.scope["query_string"]) + 1 > MAX_LINK_TARGET:
        raise TargetTooLong.one(["query", "ydke"], TOO_LONG, "target_too_long")
    link = query.ydke.replace(" ", "+")  # a + left unencoded reads as a space, which no link holds
    lang = query.lang or pick_language(accept_language)
    vary = () if query.lang else BY_LANGUAGE
    current = served(request)
    day = query.date or today()
    body = ValidateRequest(ydke=link, date=day, format=query.format, banlist=query.banlist)
    etag = current.caching.etag_of_day(lang, _digest(link, day, query.format, query.banlist))
    freshness = current.caching.of_day(query.date is not None)
    # Whether the deck is one to answer (or a 422) is known once it is checked: If-None-Match: * waits for it.
    if unchanged := current.caching.answer(request, etag, vary, cache_control=freshness, made=False):
        return unchanged
    state = app_state(request)
    work = partial(_checked, body, current.data, lang)
    answer, report = await state.admission.run(request, work, inline=runs_inline(body))
    _count_codes(state.metrics, report)
    if unchanged := current.caching.answer(request, etag, vary, cache_control=freshness):
        return unchanged
    return current.caching.keep(json_response(answer, lang), etag, vary, cache_control=freshness)


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
    if unchanged := caching.answer(request, etag, BY_LANGUAGE):
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
    return caching.keep(answer, etag, BY_LANGUAGE)


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
    if unchanged := caching.answer(request, etag, BY_LANGUAGE):
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
    return caching.keep(answer, etag, BY_LANGUAGE)


def _checked(body: ValidateRequest, data: Data, lang: str) -> tuple[dict[str, Any], Report]:
    """The answer to `body` in `lang` (the escalations its `prior` allows marked), and the report it was made from."""
    if body.ydke is None:
        deck = deck_from(body, data)
        context = context_for(body, data)
        report = validate(deck, context)
    else:  # a link has no lines for a report to point at: its copies are checked without the entries
        copies = link_copies(body.ydke)
        context = context_for(body, data)
        deck, report = None, validate_copies(copies, context)
    answer = report_json(report, lang, deck, context.roster)
    if body.prior is not None:
        mark_escalations(answer["violations"], {str(code): n for code, n in body.prior.items()}, lang)
    return answer, report


def _count_codes(metrics: Metrics, report: Report) -> None:
    """Count `report`'s violations by code, where it has any: most checks find none."""
    if report.violations:
        metrics.count_codes(Counter(v.code for v in report.violations))


def runs_inline(body: ValidateRequest) -> bool:
    """Whether `body`'s check is small and bounded by its size: run inline (INLINE_CHARS)."""
    return isinstance(body.banlist, str | None) and _by_passcode(body) and _by_passcode(body.roster)


def _by_passcode(deck: DeckIn | None) -> bool:
    """Whether `deck` (none at all counts) gives its cards by passcode alone, within INLINE_CHARS or INLINE_ENTRIES."""
    if deck is None:
        return True
    given = deck.source_format()
    if given != "json":
        return given != "text" and len(deck.source_text()) <= INLINE_CHARS
    entries = (*deck.main, *deck.extra, *deck.side)
    return len(entries) <= INLINE_ENTRIES and all(entry.name is None for entry in entries)


def read_validate(request: Request, body: bytes) -> dict[str, Any] | None:
    """validate_deck's arguments for a JSON body that is a whole ValidateRequest, read as FastAPI reads it (the
    body parsed by `json.loads`, the model validated from what it gives); None for any other (api/direct.py)."""
    if request.headers.get("content-type") not in PLAIN_JSON:
        return None
    try:
        parsed = ValidateRequest.model_validate(json.loads(body))
    except (ValueError, RecursionError):  # not JSON, nested past the parser, not a request: FastAPI says why
        return None
    return {"request": request, "body": parsed, "accept_language": request.headers.get("accept-language")}


def _digest(ydke: str, day: dt.date, fmt: str, banlist: str | None) -> str:
    """What of a GET /v1/validate request its answer depends on, beside the data and the language, in 16 hex
    digits."""
    key = "\n".join((ydke, day.isoformat(), fmt, banlist or ""))
    return hashlib.sha256(key.encode()).hexdigest()[:16]
