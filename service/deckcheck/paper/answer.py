"""A reading of paper as the API answers it: every line with its box, text, confidence and card, why it needs
review in words (Japanese or English), and the deck of the lines read for sure."""

from __future__ import annotations

from typing import Any

from deckcheck.data import Card
from deckcheck.model import SECTIONS
from deckcheck.paper.lines import ReadLine
from deckcheck.paper.read import Reading
from deckcheck.paper.totals import Total
from deckcheck.sentences import say


def _card(card: Card) -> dict[str, Any]:
    return {"passcode": card.passcode, "name_ja": card.name_ja or None, "name_en": card.name_en or None}


def _message(line: ReadLine, lang: str) -> str | None:
    if not line.needs_review:
        return None
    said = say("paper", "reason_separator", lang).join(say("paper", f"reason.{r}", lang) for r in line.reasons)
    return say("paper", "review", lang, reasons=said)


def _line(line: ReadLine, lang: str) -> dict[str, Any]:
    card = line.card
    return {
        "page": line.page,
        "box": None if line.box is None else list(line.box),
        # A QR code's line was read as a passcode: its text is the card's name as the sheet would print it.
        "text": card.name(lang) if line.box is None and card is not None else line.text,
        "confidence": line.confidence,
        "section": line.section,
        "count": line.count,
        "passcode": line.passcode or (None if card is None else card.passcode),
        "name_ja": None if card is None else card.name_ja or None,
        "name_en": None if card is None else card.name_en or None,
        "needs_review": line.needs_review,
        "reasons": list(line.reasons),
        "message": _message(line, lang),
        "suggestions": [_card(other) for other in line.suggestions],
    }


def _total(total: Total, lang: str) -> dict[str, Any]:
    heading = total.heading
    printed, read = heading.printed, total.read
    message = None if total.agrees else say("paper", "total_differs", lang, count=printed, read=read)
    return {
        "page": heading.page,
        "box": list(heading.box),
        "text": heading.text,
        "printed": printed,
        "read": read,
        "agrees": total.agrees,
        "message": message,
        "lines": list(total.lines),
        "of_kind": heading.of_kind,
    }


def reading_json(reading: Reading, lang: str) -> dict[str, Any]:
    """The answer of POST /v1/decks/read, its messages in `lang` (ja or en)."""
    deck = reading.deck()
    return {
        "source": reading.source,
        "complete": reading.complete,
        "incomplete": [
            {"reason": reason, "message": say("paper", f"incomplete.{reason}", lang)} for reason in reading.incomplete
        ],
        "needs_review": reading.needs_review,
        "pages": [{"page": n, "width": w, "height": h} for n, (w, h) in enumerate(reading.pages, 1)],
        "pages_in_file": reading.total_pages,
        "qr": None if reading.qr is None else {"page": reading.qr[0], "box": list(reading.qr[1])},
        "lines": [_line(line, lang) for line in reading.lines],
        "ignored": [{"page": i.page, "box": list(i.box), "text": i.text} for i in reading.ignored],
        "totals": [_total(total, lang) for total in reading.totals],
        "deck": {s: [{"passcode": e.passcode, "count": e.count} for e in deck.section(s)] for s in SECTIONS},
        "ydke": reading.link,
        "cells": [{"page": page, "box": list(box)} for page, box in reading.cells],
    }
