"""deckcheck: Yu-Gi-Oh! OCG deck lists checked against the official tournament rules, with penalties.

The engine's names load on first use (PEP 562), so `import deckcheck.client` costs a website's code no engine, no
card data and no numpy."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckcheck.data import Data, load_data
    from deckcheck.model import Context, Deck, Entry, Protectors, Report, Violation
    from deckcheck.rules import validate

__version__ = "0.1.0"
_HOMES = {
    "Data": "deckcheck.data",
    "load_data": "deckcheck.data",
    "Context": "deckcheck.model",
    "Deck": "deckcheck.model",
    "Entry": "deckcheck.model",
    "Protectors": "deckcheck.model",
    "Report": "deckcheck.model",
    "Violation": "deckcheck.model",
    "validate": "deckcheck.rules",
}
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


def __getattr__(name: str) -> Any:
    """The engine's public names, imported from their modules when first asked for."""
    if name not in _HOMES:
        raise AttributeError(f"module 'deckcheck' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
