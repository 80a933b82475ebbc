"""The rule engine: `validate(deck, context) -> Report`, one small check per rule, the registry of codes with their
citations and penalties, and the messages in Japanese and English."""

from deckcheck.rules.engine import (
    answer_notes,
    full_report,
    legal_report,
    resolve_entry,
    validate,
    validate_copies,
    warm,
)
from deckcheck.rules.eras import RULES_ID, era_starts, eras, ruleset_for
from deckcheck.rules.judging import GROUPS
from deckcheck.rules.messages import loose_read_text, note_text, render
from deckcheck.rules.registry import PENALTIES, RULES, Rule

__all__ = [
    "GROUPS",
    "PENALTIES",
    "RULES",
    "RULES_ID",
    "Rule",
    "answer_notes",
    "era_starts",
    "eras",
    "full_report",
    "legal_report",
    "loose_read_text",
    "note_text",
    "render",
    "resolve_entry",
    "ruleset_for",
    "validate",
    "validate_copies",
    "warm",
]
