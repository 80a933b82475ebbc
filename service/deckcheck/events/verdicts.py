"""An event's verdicts: the answer POST /v1/validate gives a deck on the event's day, format and list, for a
registration; and for a deck check (PR 3.B), the deck presented checked against the registered one as its Deck
Roster Sheet (TR 2.B), so that every difference is a roster_mismatch with its penalty and timing."""

from __future__ import annotations

from typing import Any, Literal, get_args

from deckcheck.data import Data
from deckcheck.errors import RequestError
from deckcheck.events.records import Event
from deckcheck.model import Report
from deckcheck.rules import validate
from deckcheck.wire.inputs import context_for, deck_from
from deckcheck.wire.reports import report_json
from deckcheck.wire.request_values import Duel, Phase
from deckcheck.wire.requests import DeckIn, ValidateRequest

Status = Literal["legal", "needs_review", "illegal"]
STATUSES: tuple[Status, ...] = get_args(Status)


def status_of(report: Report) -> Status:
    """illegal when the deck breaks a rule; needs_review when it is legal as read but a name was read loosely,
    for the desk to confirm; else legal."""
    if not report.legal:
        return "illegal"
    return "needs_review" if report.read_loosely else "legal"


def registered(event: Event, deck: DeckIn, data: Data, lang: str) -> tuple[dict[str, Any], Report]:
    """POST /v1/validate's answer for `deck` at `event`, in `lang`, and its report."""
    return _answer(_request(event, deck), data, lang)


def checked(
    event: Event, presented: DeckIn, roster: DeckIn, data: Data, lang: str, *, duel: Duel, phase: Phase
) -> tuple[dict[str, Any], Report]:
    """The answer for the deck `presented` in a deck check at `event`, against the registered deck as its roster."""
    return _answer(_request(event, presented, roster=roster, duel=duel, phase=phase), data, lang)


def judge(event: Event, data: Data) -> Any:
    """A function of a kept deck (JSON) to its status at `event`, for checking every registration again."""

    def status(deck: dict[str, Any]) -> Status:
        return status_of(_answer(_request(event, DeckIn.model_validate(deck)), data, "en")[1])

    return status


def _request(event: Event, deck: DeckIn, **match: Any) -> ValidateRequest:
    fields = {name: getattr(deck, name) for name in deck.model_fields_set}
    return ValidateRequest(**fields, date=event.date, format=event.format, banlist=event.banlist, **match)


def _answer(body: ValidateRequest, data: Data, lang: str) -> tuple[dict[str, Any], Report]:
    try:
        deck = deck_from(body, data)
        context = context_for(body, data)
    except RequestError as exc:
        raise RequestError([{**error, "loc": _where(error["loc"])} for error in exc.errors]) from None
    report = validate(deck, context)
    return report_json(report, lang, deck, context.roster), report


def _where(loc: list[str | int]) -> list[str | int]:
    """Where an error of the deck's is in the event's request: under its `deck`; the roster's is the registered
    deck's."""
    if loc[:2] == ["body", "roster"]:
        return ["registration", "deck", *loc[2:]]
    return ["body", "deck", *loc[1:]] if loc[:1] == ["body"] else loc
