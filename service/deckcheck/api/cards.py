"""GET /v1/cards/{passcode} and GET /v1/cards?q=: card lookup and name search."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from deckcheck.api.middleware.admission import Admission
from deckcheck.api.responses import NOT_FOUND, SEARCH_PROBLEMS, cached, json_response, paged
from deckcheck.api.served import served
from deckcheck.data import STATUS_NAMES
from deckcheck.errors import NotFound
from deckcheck.wire.answers import CardOutFull, SearchHit

# A passcode as printed: digits only (no sign, no underscores, no decimal point), so each card has one address.
PASSCODE_PATTERN = r"^[0-9]{1,9}$"
# The search answers at most this many cards for one query, a page at a time.
MAX_SEARCH_HITS = 500
MAX_PAGE = 50


def build_cards_router(admission: Admission) -> APIRouter:
    """The card routes, over the data each request arrived to."""
    router = APIRouter(tags=["cards"])

    @router.get(
        "/v1/cards/{passcode}", response_model=CardOutFull, responses={**NOT_FOUND, **cached()}, operation_id="getCard"
    )
    def card(
        request: Request,
        passcode: Annotated[
            str,
            Path(
                pattern=PASSCODE_PATTERN, description="Any of the card's passcodes, as printed.", examples=["55144522"]
            ),
        ],
    ) -> Response:
        """One card by any of its passcodes: names, kind, printings and its status on every bundled list."""
        data, caching = served(request).data, served(request).caching
        found = data.cards.by_passcode.get(int(passcode))
        if found is None:
            raise NotFound.one(
                ["path", "passcode"], f"{passcode} is not the passcode of an official card.", "unknown_card"
            )
        etag = caching.etag()
        if unchanged := caching.answer(request, etag):
            return unchanged
        history = []
        name_id = data.cards.name_id(found.passcode)
        for banlist in data.banlists.lists:
            limit = banlist.name_limit(name_id)  # a status reaches every card of the name
            history.append(
                {
                    "banlist": banlist.id,
                    "effective_from": None if banlist.effective_from is None else banlist.effective_from.isoformat(),
                    "effective_until": None if banlist.effective_until is None else banlist.effective_until.isoformat(),
                    "status": STATUS_NAMES[limit],
                    "limit": limit,
                }
            )
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
            Query(
                min_length=1, max_length=100, description="Part of a Japanese or English name.", examples=["Stardust"]
            ),
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
        found = await admission.check(request, partial(data.cards.search.search, q, end + 1))
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

    return router
