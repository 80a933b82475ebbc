"""POST /v1/decks/parse and /v1/decks/convert: any deck form in, structured deck, any other form or a QR code out."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response

from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import served
from deckcheck.api.negotiation import choose_media, not_acceptable
from deckcheck.api.responses import CHECK_PROBLEMS, CONVERT_PROBLEMS, AcceptLanguage, json_response, pick_language
from deckcheck.data import Card, Data
from deckcheck.deck_limits import NameBudget
from deckcheck.errors import RequestError
from deckcheck.formats import QR_MEDIA_TYPES, DeckTooLargeForQr, QrImage, write, write_qr
from deckcheck.model import SECTIONS, Deck, Entry, LooseRead
from deckcheck.paper.sheet import DeckTooLargeForSheet, SheetFields, sheet_pdf
from deckcheck.versions import data_version
from deckcheck.wire.answers import ConvertResponse, ParseResponse
from deckcheck.wire.inputs import Resolution, deck_from, resolved, unknown_card, written
from deckcheck.wire.reports import loose_read_json
from deckcheck.wire.requests import ConvertRequest, DeckIn
from deckcheck.wire.sheet import SheetIn

_BINARY = {"schema": {"type": "string", "format": "binary"}}
# The convert operation's 200 beside the JSON of its response model: the QR code of `to: qr`.
_CONVERTED: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The deck in the form asked for: JSON, or for `to: qr` a QR code of its ydke:// link as SVG, "
        "or as PNG when Accept prefers image/png, or for `to: sheet` a registration sheet as a PDF.",
        "content": {"image/svg+xml": _BINARY, "image/png": _BINARY, "application/pdf": _BINARY},
        "headers": {
            "Content-Disposition": {
                "description": 'For qr: inline; filename="deck.svg" (or "deck.png"); for sheet: "deck-sheet.pdf".',
                "schema": {"type": "string"},
                "example": 'inline; filename="deck.svg"',
            }
        },
    }
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


def _problems(entries: list[Resolution], data: Data) -> list[dict[str, Any]]:
    """The entries that name no card, each with the closest names (for the first SUGGESTED_NAMES names)."""
    problems = []
    budget = NameBudget()
    for section, index, entry, card, reason, _read_as in entries:
        if card is not None or reason is None:
            continue
        hits, omitted = budget.suggestions(entry.name, data.cards.search)
        problems.append(
            {
                "section": section,
                "index": index,
                "lines": list(entry.lines),
                "type": reason,
                "msg": unknown_card(entry, reason),
                "suggestions": [
                    {"passcode": h.card.passcode, "name_en": h.card.name_en, "name_ja": h.card.name_ja} for h in hits
                ],
                "suggestions_omitted": omitted,
            }
        )
    return problems


def _read_loosely(entries: list[Resolution], deck: Deck) -> list[dict[str, Any]]:
    """The entries whose names were read loosely, as /v1/validate gives them (in English, as the parse answer is)."""
    return [
        loose_read_json(LooseRead((section, index), entry.name or "", card, read_as), "en", deck)
        for section, index, entry, card, _reason, read_as in entries
        if card is not None and read_as is not None
    ]


def _json_deck(deck: Deck) -> dict[str, list[dict[str, Any]]]:
    def entry(e: Entry) -> dict[str, Any]:
        out: dict[str, Any] = {"passcode": e.passcode} if e.passcode is not None else {"name": e.name}
        out["count"] = e.count
        if e.language is not None:
            out["language"] = e.language
        return out

    return {section: [entry(e) for e in deck.section(section)] for section in SECTIONS}


PARSE_PATH, CONVERT_PATH = "/v1/decks/parse", "/v1/decks/convert"


router = APIRouter(tags=["decks"])
"""The deck-format routes, over the data each request arrived to."""


@router.post(PARSE_PATH, response_model=ParseResponse, responses=CHECK_PROBLEMS, operation_id="parseDeck")
async def parse_deck(request: Request, body: DeckIn) -> Response:
    """Read a deck in any form and return every entry resolved, with the entries that name no card."""
    admission = app_state(request).admission
    return json_response(await admission.run(request, partial(_parse, body, served(request).data)))


@router.post(
    CONVERT_PATH,
    response_model=ConvertResponse,
    responses={**CONVERT_PROBLEMS, **_CONVERTED},
    operation_id="convertDeck",
)
async def convert_deck(
    request: Request,
    body: ConvertRequest,
    accept: Annotated[str | None, Header(include_in_schema=False)] = None,
    accept_language: AcceptLanguage = None,
) -> Response:
    """Turn a deck in any form into any other form, or (`to: qr`) draw its ydke:// link as a QR code: SVG, or PNG
    when Accept prefers image/png. A deck whose link no QR code holds is refused (deck_too_large_for_qr).
    `to: sheet` prints a deck registration sheet as a PDF (A4, or Letter with `sheet.paper`): the player and
    event of `sheet`, the deck by section and kind with counts, names in `names` (default: Accept-Language),
    and a QR code of its ydke:// link that POST /v1/decks/read reads back exactly."""
    data, admission = served(request).data, app_state(request).admission
    if body.to == "sheet":
        lang = body.names if "names" in body.model_fields_set else pick_language(accept_language)
        pdf = await admission.run(request, partial(_sheet, body, data, lang))
        headers = {"Content-Disposition": 'inline; filename="deck-sheet.pdf"', "Content-Language": lang}
        return Response(pdf, media_type="application/pdf", headers=headers)
    if body.to != "qr":
        return json_response(await admission.run(request, partial(_convert, body, data)))
    image = _image(accept)
    drawn = await admission.run(request, partial(_qr, body, data, image))
    headers = {"Content-Disposition": f'inline; filename="deck.{image}"', "Vary": "Accept"}
    return Response(drawn, media_type=QR_MEDIA_TYPES[image], headers=headers)


def _parse(body: DeckIn, data: Data) -> dict[str, Any]:
    deck = deck_from(body, data)
    entries = resolved(deck, data.cards)
    result: dict[str, Any] = {"format": body.source_format(), "counts": deck.counts()}
    result |= {s: [_parsed(e, card) for section, _i, e, card, *_ in entries if section == s] for s in SECTIONS}
    result["problems"] = _problems(entries, data)
    result["read_loosely"] = _read_loosely(entries, deck)
    return result


def _image(accept: str | None) -> QrImage:
    """The drawing Accept weighs higher, SVG on a tie; a request that refuses both is answered 406."""
    chosen = choose_media(accept, [QR_MEDIA_TYPES["svg"], QR_MEDIA_TYPES["png"]])
    if chosen is None:
        raise not_acceptable(["image/svg+xml", "image/png"])
    return "png" if chosen == QR_MEDIA_TYPES["png"] else "svg"


def _convert(body: ConvertRequest, data: Data) -> dict[str, Any]:
    deck = deck_from(body, data)
    if body.to == "json":
        return {"format": "json", "content": None, "deck": _json_deck(deck)}
    content = written(deck, data.cards, partial(write, body.to, deck, data.cards, body.names))
    return {"format": body.to, "content": content, "deck": None}


def _sheet(body: ConvertRequest, data: Data, lang: str) -> bytes:
    deck = deck_from(body, data)
    given = body.sheet or SheetIn()
    fields = SheetFields(
        given.player_name, given.player_furigana, given.player_id, given.event, given.date, given.format, given.paper
    )
    try:
        return written(deck, data.cards, partial(sheet_pdf, deck, data.cards, lang, fields, data_version(data)))
    except DeckTooLargeForSheet as exc:
        raise RequestError.one(["body"], str(exc), "deck_too_large_for_sheet") from None
    except DeckTooLargeForQr as exc:
        raise RequestError.one(["body"], str(exc), "deck_too_large_for_qr") from None


def _qr(body: ConvertRequest, data: Data, image: QrImage) -> bytes:
    deck = deck_from(body, data)
    try:
        return written(deck, data.cards, partial(write_qr, deck, data.cards, image))
    except DeckTooLargeForQr as exc:
        raise RequestError.one(["body"], str(exc), "deck_too_large_for_qr") from None
