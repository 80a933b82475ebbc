"""Reports on many decks at once: the columnar verdict finds the legal ones together, the engine reports on the rest.

For callers that hold decks already read (`deckcheck validate` over many files): a legal deck's report is the one
`validate` gives it (`legal_report` of its counts), and every other deck's comes from `validate` itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.batch.columnar import verdict
from deckcheck.batch.entries import entries_chunk
from deckcheck.model import Context, Deck, Report
from deckcheck.rules import legal_report, validate


def validate_all(decks: Sequence[tuple[Deck, Context]]) -> list[Report]:
    """`validate(deck, context)` for each pair, in order; the decks of one context are judged together."""
    groups: dict[Context, list[int]] = {}
    for index, (_deck, context) in enumerate(decks):
        groups.setdefault(context, []).append(index)
    reports: list[Report | None] = [None] * len(decks)
    for context, members in groups.items():
        if len(members) == 1:  # the fast answer for one deck costs less than a chunk of one
            reports[members[0]] = validate(decks[members[0]][0], context)
            continue
        chunk = entries_chunk([decks[index][0] for index in members])
        for index, legal in zip(members, verdict(chunk, context)[0].tolist(), strict=True):
            deck = decks[index][0]
            reports[index] = legal_report(deck.counts(), context) if legal else validate(deck, context)
    return [report for report in reports if report is not None]
