"""deckcheck: Yu-Gi-Oh! OCG deck lists checked against the official tournament rules, with penalties."""

from __future__ import annotations

from deckcheck.data import Data, load_data
from deckcheck.model import Context, Deck, Entry, Protectors, Report, Violation
from deckcheck.rules import validate

__version__ = "0.1.0"
__all__ = [
    "Context",
    "Data",
    "Deck",
    "Entry",
    "Protectors",
    "Report",
    "Violation",
    "__version__",
    "load_data",
    "validate",
]
