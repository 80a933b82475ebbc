"""Batch rechecks of stored decks against a Forbidden/Limited list: NDJSON lines in, one result line each in input
order, and a summary of what a list change broke; in this process or in worker processes."""

from deckcheck.batch.entries import validate_all
from deckcheck.batch.files import MAX_LINE_BYTES, deck_lines
from deckcheck.batch.recheck import Rechecker
from deckcheck.batch.spec import BatchSpec, RecheckSetup
from deckcheck.batch.summary import Summary
from deckcheck.batch.workers import default_workers, run_batch

__all__ = [
    "MAX_LINE_BYTES",
    "BatchSpec",
    "RecheckSetup",
    "Rechecker",
    "Summary",
    "deck_lines",
    "default_workers",
    "run_batch",
    "validate_all",
]
