"""Batch rechecks: one result line per NDJSON input line, in order, and a summary of what a list change broke.

The same code serves POST /v1/rechecks and `deckcheck recheck`; it holds nothing per deck beyond the summary's
counts (and the first ids of decks a list change made illegal), so memory stays flat however many decks pass.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
from pydantic import ValidationError

from deckcheck.batch.spec import RecheckSetup
from deckcheck.batch.summary import Outcome
from deckcheck.data import Data
from deckcheck.errors import RequestError
from deckcheck.formats import DeckFormatError, deck_of, ydke_copies
from deckcheck.limits import ID_RANGE, MAX_ID_CHARS, copies_limit_errors
from deckcheck.model import Context, Copies, Deck, Protectors, Report
from deckcheck.rules import (
    full_report,
    legal_report,
    list_change_report_of_copies,
    tally_copies,
    validate,
    within_limits,
)
from deckcheck.wire import DEFAULT_LANGUAGES, RecheckLine, deck_from, limit_errors, read_errors, violations_json

MAX_LINE_BYTES = 1024 * 1024
# The rules a list change can newly break: a deck legal before and illegal now breaks one of these.
_LIST_CODES = frozenset({"forbidden_card", "limited_card_exceeded", "semi_limited_card_exceeded"})


class Rechecker:
    """Checks NDJSON lines one by one against a fixed setup."""

    def __init__(self, data: Data, setup: RecheckSetup) -> None:
        self.data = data
        self.setup = setup
        language = DEFAULT_LANGUAGES[setup.format]
        self.context = Context(setup.date, setup.banlist, data.cards, default_language=language, format=setup.format)
        self.before = None if setup.previous is None else replace(self.context, banlist=setup.previous)

    def _contexts(self, line: RecheckLine) -> tuple[Context, Context | None]:
        """The batch's contexts, with the deck's own protectors and default language where it gives them."""
        if line.protectors is None and line.default_language is None:
            return self.context, self.before
        protectors = None if line.protectors is None else Protectors(**line.protectors.model_dump())
        language = (line.default_language or self.context.default_language).split("-")[0].lower()
        now = replace(self.context, protectors=protectors, default_language=language)
        return now, None if self.before is None else replace(
            self.before, protectors=protectors, default_language=language
        )

    def check(self, number: int, raw: bytes | None) -> tuple[bytes, Outcome]:
        """The result line (with its newline) for input line `number`, and its outcome for the summary.
        `raw` is None for a line that was longer than MAX_LINE_BYTES and was not kept."""
        try:
            line = self._parse(raw)
            # A ydke link is read straight into copies per card: a legal deck never needs its entries built.
            copies = None if line.ydke is None else ydke_copies(line.ydke)
        except _LineError as exc:
            return self._error(number, exc.id, exc.errors)
        except DeckFormatError as exc:
            return self._error(number, line.id, read_errors(exc, "ydke", ()).errors)
        if copies is not None and (past := copies_limit_errors(copies)):
            return self._error(number, line.id, limit_errors(past, None, ("ydke",)).errors)
        contexts = self._contexts(line)
        if copies is None:
            try:
                deck = deck_from(line, self.data, ())
            except RequestError as exc:  # a .ydk or text source that cannot be read
                return self._error(number, line.id, exc.errors)
            return self._report(number, line.id, deck, contexts)
        return self._check_copies(number, line.id, copies, contexts)

    def _check_copies(
        self, number: int, deck_id: str | int, copies: Copies, contexts: tuple[Context, Context | None]
    ) -> tuple[bytes, Outcome]:
        """The result line of a deck given as a ydke link, read as copies per card."""
        now, before = contexts
        # Both lists judge the same date, protectors and languages: one tally serves both.
        counted = tally_copies(copies, now)
        was_legal = None if before is None else counted is not None and within_limits(counted[0], before.banlist)
        if counted is not None and within_limits(counted[0], now.banlist):
            return self._result(number, deck_id, None, legal_report(counted[1], now), was_legal)
        if was_legal and counted is not None:
            # A deck legal under the previous list can only break the copy rules under the new one.
            report = list_change_report_of_copies(copies, counted, now)
            return self._result(number, deck_id, None, report, was_legal)
        deck = deck_of(copies)
        return self._result(number, deck_id, deck, full_report(deck, now), was_legal)

    def _report(
        self, number: int, deck_id: str | int, deck: Deck, contexts: tuple[Context, Context | None]
    ) -> tuple[bytes, Outcome]:
        """The result line of a deck given as entries (JSON lists, .ydk or text)."""
        now, before = contexts
        was_legal = None if before is None else validate(deck, before).legal
        return self._result(number, deck_id, deck, validate(deck, now), was_legal)

    def _result(
        self, number: int, deck_id: str | int, deck: Deck | None, report: Report, was_legal: bool | None
    ) -> tuple[bytes, Outcome]:
        """The result line of a report, as /v1/validate gives it, with what the previous list said."""
        result = {
            "line": number,
            "id": deck_id,
            "legal": report.legal,
            "penalty": report.penalty,
            "counts": report.counts,
            "violations": violations_json(report, self.setup.lang, deck),
        }
        codes = tuple(v.code for v in report.violations)
        outcome = Outcome("legal" if report.legal else "illegal", deck_id, codes)
        if was_legal is not None:
            newly = was_legal and not report.legal
            result |= {"legal_before": was_legal, "newly_illegal": newly}
            if newly:
                outcome = Outcome("illegal", deck_id, codes, True, _causes(report))
        return orjson.dumps(result) + b"\n", outcome

    def _parse(self, raw: bytes | None) -> RecheckLine:
        if raw is None or len(raw) > MAX_LINE_BYTES:
            raise _LineError([{"loc": [], "msg": f"line longer than {MAX_LINE_BYTES} bytes", "type": "line_too_long"}])
        if not raw.strip():
            raise _LineError([{"loc": [], "msg": "empty line: one deck a line", "type": "empty_line"}])
        try:
            return RecheckLine.model_validate_json(raw)
        except ValidationError as exc:
            errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
            raise _LineError(errors, _id_of(raw)) from None

    def _error(self, number: int, deck_id: Any, errors: list[dict[str, Any]]) -> tuple[bytes, Outcome]:
        body = {"line": number, "id": deck_id, "error": {"msg": errors[0]["msg"], "errors": errors}}
        return orjson.dumps(body) + b"\n", Outcome("error", deck_id)


class _LineError(Exception):
    def __init__(self, errors: list[dict[str, Any]], deck_id: Any = None) -> None:
        super().__init__(errors[0]["msg"])
        self.errors = errors
        self.id = deck_id


def _id_of(raw: bytes) -> Any:
    """The id of a line that does not fit the schema, when it can still be read."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    deck_id = value.get("id") if isinstance(value, dict) else None
    if isinstance(deck_id, str):
        return deck_id if len(deck_id) <= MAX_ID_CHARS else None
    if isinstance(deck_id, int) and not isinstance(deck_id, bool):
        return deck_id if ID_RANGE[0] <= deck_id <= ID_RANGE[1] else None
    return None


def _causes(report: Report) -> tuple[int, ...]:
    """The cards behind the violations a list change can cause."""
    return tuple(
        sorted({c.passcode for v in report.violations if v.code in _LIST_CODES for c in v.cards if c.passcode})
    )
