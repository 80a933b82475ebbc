"""Card-name normalisation shared by every lookup (SPEC section 1)."""

from __future__ import annotations

import re
import unicodedata

# Dashes and hyphens that people type interchangeably in card names. The katakana long vowel mark (ー) is a
# letter, not a dash, and stays as it is.
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
# Middle dots: the Japanese ・ (and its half-width ･, which NFKC already folds) against the Latin ·.
_DOTS = "\u00b7\u2027\u2219\u22c5\u30fb\uff65"
_DASH = re.compile(f"[{_DASHES}]")
_DOT = re.compile(f"[{_DOTS}]")
_SPACES = re.compile(r"\s+")


def normalize_name(name: str) -> str:
    """Fold a card name for exact matching: NFKC, case folding, one space, one dash and one middle dot."""
    folded = _DOT.sub("・", _DASH.sub("-", unicodedata.normalize("NFKC", name).casefold()))
    return _SPACES.sub(" ", folded).strip()
