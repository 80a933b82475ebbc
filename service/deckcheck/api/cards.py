"""GET /v1/cards/{passcode}, its legality through time, and GET /v1/cards?q=: card lookup and name search."""

from __future__ import annotations

import datetime as dt
import re
from functools import partial
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import served
from deckcheck.api.responses import (
    BY_LANGUAGE,
    NOT_FOUND,
    SEARCH_PROBLEMS,
    AcceptLanguage,
    cached,
    json_response,
    paged,
    pick_language,
)
from deckcheck.data import STATUS_NAMES, Banlists, Card, Data
from deckcheck.data.memo import kept_with
from deckcheck.days import today
from deckcheck.errors import NotFound
from deckcheck.model import FORMATS, Format
from deckcheck.rules.eras import first_day_printed, ruleset_for
from deckcheck.rules.history import on_day, periods
from deckcheck.sentences import say
from deckcheck.wire.answers import CardLegality, CardOutFull, SearchHit
from deckcheck.wire.inputs import date_notes
from deckcheck.wire.reports import notes_json
from deckcheck.wire.request_values import IsoDate

# A passcode as printed: digits only (no sign, no underscores, no decimal point), so each card has one address.
PASSCODE_PATTERN = r"^[0-9]{1,9}$"
# The search answers at most this many cards for one query, a page at a time.
MAX_SEARCH_HITS = 500
MAX_PAGE = 50


PasscodePath = Annotated[
    str,
    Path(pattern=PASSCODE_PATTERN, description="Any of the card's passcodes, as printed.", examples=["55144522"]),
]


_PASSCODE = re.compile(PASSCODE_PATTERN)
router = APIRouter(tags=["cards"])
"""The card routes, over the data each request arrived to."""


@router.get(
    "/v1/cards/{passcode}", response_model=CardOutFull, responses={**NOT_FOUND, **cached()}, operation_id="getCard"
)
async def card(request: Request, passcode: PasscodePath) -> Response:  # on the event loop: its answer is mostly kept
    """One card by any of its passcodes: names, kind, printings and its status on every bundled list."""
    data, caching = served(request).data, served(request).caching
    found = _card(data, passcode, today())
    etag = caching.etag()
    if unchanged := caching.answer(request, etag):
        return unchanged
    history = _history(data.banlists, data.cards.name_id(found.passcode))
    answer = json_response(
        {
            "passcode": found.passcode,
            "requested": int(passcode),
            "aliases": list(data.cards.aliases[found.passcode]),
            "name_en": found.name_en,
            "name_ja": found.name_ja,
            "kind": found.kind,
            "extra_deck_type": found.extra_deck_type,
            "pendulum": found.pendulum,
            "ocg": found.ocg,
            "tcg": found.tcg,
            "first_japanese_printing": None if found.ja_first_print is None else found.ja_first_print.isoformat(),
            "first_japanese_printing_exact": found.ja_first_print_exact,
            "first_tcg_printing": None if found.tcg_first_print is None else found.tcg_first_print.isoformat(),
            "first_tcg_printing_exact": found.tcg_first_print_exact,
            "provisional": found.provisional,
            "banlists": history,
        }
    )
    return caching.keep(answer, etag)


def read_card(request: Request, body: bytes) -> dict[str, Any] | None:
    """card's arguments for a passcode FastAPI would take as it is (api/direct.py); None for any other."""
    passcode = request.path_params["passcode"]
    return {"request": request, "passcode": passcode} if _PASSCODE.fullmatch(passcode) else None


@kept_with(512)
def _history(banlists: Banlists, name_id: int) -> orjson.Fragment:
    """A name's status on every bundled list, as the JSON of a card's answer: a status reaches every card of the
    name. It is the same for every request until the data change, and making it takes most of the route's time (133
    lists: about 0.4 ms), so it is kept with the lists, as JSON (16 KB), for the 512 names asked for last."""
    return orjson.Fragment(
        orjson.dumps(
            [
                {
                    "banlist": banlist.id,
                    "effective_from": None if banlist.effective_from is None else banlist.effective_from.isoformat(),
                    "effective_until": None if banlist.effective_until is None else banlist.effective_until.isoformat(),
                    "status": STATUS_NAMES[limit],
                    "limit": limit,
                }
                for banlist in banlists.lists
                for limit in (banlist.name_limit(name_id),)
            ]
        )
    )


@router.get(
    "/v1/cards/{passcode}/legality",
    response_model=CardLegality,
    responses={**NOT_FOUND, **cached()},
    operation_id="getCardLegality",
)
def legality(
    request: Request,
    passcode: PasscodePath,
    date: Annotated[
        IsoDate | None,
        Query(description="The day asked about in `on_date`; default today in Japan.", examples=["2026-12-01"]),
    ] = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    """A card's legality in the OCG and the TCG: its status on every list of each format as periods, from its
    first printing there to today and on, and its status on `date`, with the notes POST /v1/validate gives an
    event of the format on that date about its list (list_may_be_outdated), in the language of
    Accept-Language. A passcode of no card on a day after the card data end is a 404 that says a card printed
    since may be missing."""
    lang = pick_language(accept_language)
    data, caching = served(request).data, served(request).caching
    day = date or today()
    found = _card(data, passcode, day)
    etag = caching.etag_of_day(day.isoformat(), lang)
    freshness = caching.of_day(date is not None)
    if unchanged := caching.answer(request, etag, BY_LANGUAGE, cache_control=freshness):
        return unchanged
    answer = {
        "passcode": found.passcode,
        "requested": int(passcode),
        "name_en": found.name_en,
        "name_ja": found.name_ja,
        "date": day.isoformat(),
        "formats": [_format_legality(found, data, fmt, day, lang) for fmt in FORMATS],
    }
    return caching.keep(json_response(answer, lang), etag, BY_LANGUAGE, cache_control=freshness)


@router.get(
    "/v1/cards",
    response_model=list[SearchHit],
    responses={**SEARCH_PROBLEMS, **cached(paged=True)},
    operation_id="searchCards",
)
async def search(
    request: Request,
    q: Annotated[
        str,
        Query(min_length=1, max_length=100, description="Part of a Japanese or English name.", examples=["Stardust"]),
    ],
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Cards on this page.", examples=[10])] = 10,
    offset: Annotated[
        int,
        Query(
            ge=0,
            le=MAX_SEARCH_HITS - 1,
            description=f"Cards skipped: the page's start in the ranking of the best {MAX_SEARCH_HITS}.",
            examples=[0],
        ),
    ] = 0,
) -> Response:
    """Search card names, best first: exact, then prefix, then substring, then fuzzy; width and kana variants
    folded. A page at a time: when more cards match, a `Link` header names the next page (rel="next")."""
    data, caching = served(request).data, served(request).caching
    etag = caching.etag()
    if unchanged := caching.answer(request, etag):
        return unchanged
    end = min(offset + limit, MAX_SEARCH_HITS)  # a page never reaches past the best MAX_SEARCH_HITS
    found = await app_state(request).admission.check(request, partial(data.cards.search.search, q, end + 1))
    hits = found[offset:end]
    answer = json_response(
        [
            {
                "passcode": h.card.passcode,
                "name_en": h.card.name_en,
                "name_ja": h.card.name_ja,
                "matched": h.name,
                "match": h.match,
                "score": h.score,
            }
            for h in hits
        ]
    )
    more = len(found) > end and end < MAX_SEARCH_HITS
    return caching.keep(paged(answer, request, end if more else None), etag)


def _card(data: Data, passcode: str, day: dt.date) -> Card:
    """The card of a passcode as printed; NotFound naming it when it is no official card's, and saying, as the
    unknown_card of POST /v1/validate does (rules/checks.py), that a card printed since may be missing when `day` is
    after the card data end."""
    found = data.cards.by_passcode.get(int(passcode))
    if found is None:
        until = data.cards.printings_until
        newer = say("messages", "unknown.newer", "en", until=until) if data.cards.may_lack_printings(day) else ""
        msg = f"{passcode} is not the passcode of an official card.{newer}"
        raise NotFound.one(["path", "passcode"], msg, "unknown_card")
    return found


def _status(limit: int | None) -> dict[str, Any]:
    return {"status": None if limit is None else STATUS_NAMES[limit], "limit": limit}


def _format_legality(card: Card, data: Data, fmt: Format, day: dt.date, lang: str) -> dict[str, Any]:
    """A card's legality in one format (rules/history.py), as GET /v1/cards/{passcode}/legality writes it, with the
    notes in `lang` an answer of POST /v1/validate of that format and day has about the list it picked."""
    first = first_day_printed(card, fmt)
    on = on_day(card, data.cards, data.banlists, fmt, day)
    notes = notes_json(date_notes(on.banlist, day, data), ruleset_for(data.cards, fmt, day), lang, on.banlist)
    return {
        "format": fmt,
        "first_printed": None if first is None else first.isoformat(),
        "periods": [
            {
                **_status(period.limit),
                "from": period.start.isoformat(),
                "until": None if period.until is None else period.until.isoformat(),
                "banlists": list(period.lists),
            }
            for period in periods(card, data.cards, data.banlists, fmt)
        ],
        "on_date": {
            **_status(on.limit),
            "banlist": None if on.banlist is None else on.banlist.id,
            "printed": on.printed,
        },
        "notes": notes,
    }
