"""Text bound for a spreadsheet: the CSV files an organiser opens in Excel (`deckcheck recheck --report`, an event's
players.csv). A cell that begins as a formula would is kept as text (OWASP's advice); the files carry a byte order
mark, without which Excel in Japan reads a CSV as Shift_JIS and every Japanese name turns to mojibake."""

from __future__ import annotations

CSV_ENCODING = "utf-8-sig"
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def as_text(text: str) -> str:
    """`text` as a spreadsheet shows it as text: after a quote, when it begins as a formula would."""
    return "'" + text if text.startswith(_FORMULA) else text
