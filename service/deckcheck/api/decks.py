"""POST /v1/decks/parse and /v1/decks/convert: any deck form in, structured deck or any other form out."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck.api.admission import Admission
from deckcheck.api.responses import CHECK_PROBLEMS, json_response
from deckcheck.data import Card, Data
from deckcheck.errors import RequestError
from deckcheck.formats import DeckFormatError, write
from deckcheck.limits import NameBudget
from deckcheck.model import SECTIONS, Deck, Entry, Section
from deckcheck.rules import resolve_entry
from deckcheck.wire import ConvertRequest, DeckIn, deck_from
from deckcheck.wire.answers import ConvertResponse, ParseResponse

_REASONS = {
    "unknown_passcode": "passcode {passcode} is not an official card",
    "unknown_name": "'{name}' is not the name of an official card",
    "passcode_name_mismatch": "passcode {passcode} and the name '{name}' are different cards",
}


def _parsed(entry: Entry, card: Card | None) -> dict[str, Any]:
    return {
        "passcode": entry.passcode if entry.passcode is not None else None if card is None else card.passcode,
        "canonical": None if card is None else card.passcode,
        "name_en": None if card is None else card.name_en,
        "name_ja": None if card is None else card.name_ja,
        "kind": None if card is None else card.kind,
        "extra_deck_type": None if card is None else card.extra_deck_type,
        "count": entry.count,
        "language": entry.language,
        "lines": list(entry.lines),
    }


# An entry, where it stands, and its card (or None and why).
Resolution = tuple[Section, int, Entry, Card | None, str | None]


def _resolved(deck: Deck, data: Data) -> list[Resolution]:
    """Every entry with its card, or None and why, in section order."""
    return [
        (section, index, entry, *resolve_entry(entry, data.cards))
        for section in SECTIONS
        for index, entry in enumerate(deck.section(section))
    ]


def _problems(entries: list[Resolution], data: Data) -> list[dict[str, Any]]:
    """The entries that name no card, each with the closest names (for the first SUGGESTED_NAMES names)."""
    problems = []
    budget = NameBudget()
    for section, index, entry, card, reason in entries:
        if card is not None or reason is None:
            continue
        hits, omitted = budget.suggestions(entry.name, data.cards.search)
        problems.append(
            {
                "section": section,
                "index": index,
                "lines": list(entry.lines),
                "type": reason,
                "msg": _REASONS[reason].format(passcode=entry.passcode, name=entry.name),
                "suggestions": [
                    {"passcode": h.card.passcode, "name_en": h.card.name_en, "name_ja": h.card.name_ja} for h in hits
                ],
                "suggestions_omitted": omitted,
            }
        )
    return problems


def _json_deck(deck: Deck) -> dict[str, list[dict[str, Any]]]:
    def entry(e: Entry) -> dict[str, Any]:
        out: dict[str, Any] = {"passcode": e.passcode} if e.passcode is not None else {"name": e.name}
        out["count"] = e.count
        if e.language is not None:
            out["language"] = e.language
        return out

    return {section: [entry(e) for e in deck.section(section)] for section in SECTIONS}


def build_decks_router(data: Data, admission: Admission) -> APIRouter:
    """The deck-format routes, bound to the data loaded at start-up."""
    router = APIRouter(tags=["decks"])

    @router.post("/v1/decks/parse", response_model=ParseResponse, responses=CHECK_PROBLEMS, operation_id="parseDeck")
    async def parse_deck(request: Request, body: DeckIn) -> Response:
        """Read a deck in any form and return every entry resolved, with the entries that name no card."""

        def parse() -> dict[str, Any]:
            deck = deck_from(body, data)
            entries = _resolved(deck, data)
            result: dict[str, Any] = {"format": body.source_format(), "counts": deck.counts()}
            result |= {s: [_parsed(e, card) for section, _i, e, card, _r in entries if section == s] for s in SECTIONS}
            result["problems"] = _problems(entries, data)
            return result

        return json_response(await admission.check(request, parse))

    @router.post(
        "/v1/decks/convert", response_model=ConvertResponse, responses=CHECK_PROBLEMS, operation_id="convertDeck"
    )
    async def convert_deck(request: Request, body: ConvertRequest) -> Response:
        """Turn a deck in any form into any other form."""
        return json_response(await admission.check(request, partial(_convert, body, data)))

    return router


def _convert(body: ConvertRequest, data: Data) -> dict[str, Any]:
    deck = deck_from(body, data)
    if body.to == "json":
        return {"format": "json", "content": None, "deck": _json_deck(deck)}
    try:
        content = write(body.to, deck, data.cards, body.names)
    except DeckFormatError as exc:
        found = _problems(_resolved(deck, data), data)
        errors = [
            {"loc": ["body", p["section"], p["index"]], "msg": p["msg"] + "; it cannot be written", "type": p["type"]}
            for p in found
        ]
        raise RequestError(errors or [{"loc": ["body"], "msg": str(exc), "type": "unknown_card"}]) from None
    return {"format": body.to, "content": content, "deck": None}
