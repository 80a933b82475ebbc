"""The /v1 routes: thin layers that turn HTTP bodies into engine input and reports into JSON."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, FastAPI, Header
from fastapi.responses import Response

from service._banlists import Banlist, build_limits
from service._data import Data
from service._engine import validate
from service._http import RequestError, pick_language
from service._messages import render
from service._model import Context, Deck, Entry, Protectors, Report, Violation
from service._rules import RULES
from service._schemas import DeckIn, EntryIn, InlineBanlist, Problem, ValidateRequest, ValidateResponse

JAPAN = dt.timezone(dt.timedelta(hours=9))
_PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}} for code in (400, 413, 422)
}


def _json(body: Any, lang: str | None = None) -> Response:
    headers = {"Content-Language": lang} if lang else None
    return Response(orjson.dumps(body), media_type="application/json", headers=headers)


def _entries(entries: list[EntryIn]) -> tuple[Entry, ...]:
    return tuple(
        Entry(e.passcode, e.name, e.count, None if e.language is None else e.language.split("-")[0].lower())
        for e in entries
    )


def _deck(body: DeckIn) -> Deck:
    return Deck(_entries(body.main), _entries(body.extra), _entries(body.side))


def _banlist(body: ValidateRequest, day: dt.date, data: Data) -> Banlist | None:
    if body.banlist is None:
        return data.banlists.in_force(day)
    if isinstance(body.banlist, str):
        found = data.banlists.get(body.banlist)
        if found is None:
            raise RequestError(["body", "banlist"], f"No bundled list is called {body.banlist}.", "unknown_banlist")
        return found
    return _inline(body.banlist, data)


def _inline(inline: InlineBanlist, data: Data) -> Banlist:
    statuses = {"forbidden": inline.forbidden, "limited": inline.limited, "semi_limited": inline.semi_limited}
    try:
        limits = build_limits(statuses, data.cards)
    except ValueError as exc:
        entry, _, problem = str(exc).partition(": ")
        status, _, index = entry.rstrip("]").partition("[")
        raise RequestError(["body", "banlist", status, int(index)], problem, "invalid_banlist_entry") from None
    return Banlist("inline", inline.name, "OCG", None, None, limits)


def context_for(body: ValidateRequest, data: Data) -> Context:
    """The engine context a request describes; unknown list ids and lone duel numbers are request errors."""
    day = body.date or dt.datetime.now(JAPAN).date()
    if body.duel != 1 and body.roster is None:
        raise RequestError(
            ["body", "duel"], "Duels 2 and 3 are checked against a roster; none was given.", "roster_required"
        )
    protectors = None if body.protectors is None else Protectors(**body.protectors.model_dump())
    return Context(
        date=day,
        banlist=_banlist(body, day, data),
        cards=data.cards,
        protectors=protectors,
        roster=None if body.roster is None else _deck(body.roster),
        duel=body.duel,
        phase=body.phase,
        default_language=body.default_language.split("-")[0].lower(),
    )


def _violation_json(v: Violation, lang: str) -> dict[str, Any]:
    message, remedy = render(v, lang)
    return {
        "code": v.code,
        "message": message,
        "section": v.section,
        "loc": [list(loc) for loc in v.loc],
        "cards": [{"passcode": c.passcode, "name": c.name(lang), "count": c.count, "limit": c.limit} for c in v.cards],
        "ctx": v.ctx,
        "rule": v.rule,
        "penalty": v.penalty,
        "penalty_basis": v.penalty_basis,
        "penalty_ref": v.penalty_ref,
        "penalty_applies_to": v.penalty_applies_to,
        "remedy": remedy,
    }


def report_json(report: Report, lang: str) -> dict[str, Any]:
    """The response body for a report, with messages in `lang`."""
    banlist = report.banlist
    return {
        "legal": report.legal,
        "penalty": report.penalty,
        "counts": report.counts,
        "date": report.date.isoformat(),
        "banlist": None
        if banlist is None
        else {
            "id": banlist.id,
            "name": banlist.name,
            "effective_from": None if banlist.effective_from is None else banlist.effective_from.isoformat(),
            "effective_until": None if banlist.effective_until is None else banlist.effective_until.isoformat(),
        },
        "ruleset": {"id": report.ruleset},
        "violations": [_violation_json(v, lang) for v in report.violations],
    }


def build_router(data: Data) -> APIRouter:
    """The routes, bound to the data loaded at start-up."""
    router = APIRouter()

    @router.post("/v1/validate", response_model=ValidateResponse, responses=_PROBLEMS, tags=["validate"])
    def validate_deck(body: ValidateRequest, accept_language: Annotated[str | None, Header()] = None) -> Response:
        """Check a deck against the 2008 OCG tournament rules and report every violation with its penalty."""
        lang = pick_language(accept_language)
        report = validate(_deck(body), context_for(body, data))
        return _json(report_json(report, lang), lang)

    @router.get("/v1/rules", tags=["rules"])
    def rules(accept_language: Annotated[str | None, Header()] = None) -> Response:
        """The rule catalogue: every code with its citation, penalty, basis and remedy."""
        lang = pick_language(accept_language)
        return _json(
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
        return _json({"status": "ok", "cards": len(data.cards), "banlists": len(data.banlists.by_id)})

    return router


def install_routes(app: FastAPI, data: Data) -> None:
    """Mount the /v1 routes and health check on `app`."""
    app.include_router(build_router(data))
