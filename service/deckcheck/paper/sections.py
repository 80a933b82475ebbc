"""Which section a line of a page is in: the heading that stands over it on the page, never the order its lines
happen to be read in. On a form whose tables stand side by side (the TCG deck list's Monster, Spell and Trap tables,
its Side and Extra tables below them) the order lines are read in crosses from one table into the next, so the
section of a line is its nearest heading above it whose width it shares.

A line over which no heading stands takes the section of the lines read before it: a plain list filled down one
column and on into the next, a page that goes on from the one before. Where that is a table's row (a table's own
heading was not read), or two headings of other sections stand over it about as near, the section is not certain and
the line is marked `section_unclear` for staff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckcheck.model import Section

Box = tuple[int, int, int, int]  # left, top, width, height in the page's pixels
SHARED = 0.5  # of a line's width, at least, that a heading over it shares
AS_NEAR = 0.75  # two headings within this many of the line's heights of each other are as near


@dataclass(frozen=True, slots=True)
class Placed:
    """A line's section, the heading it is under (an index into the page's headings; None for none), and whether
    the section is uncertain."""

    section: Section
    heading: int | None
    unclear: bool


def place(box: Box, headings: Sequence[tuple[Box, Section]], flow: Section | None, table: int | None) -> Placed:
    """The section of the line at `box` under the page's `headings`; `flow` is the section the lines read before it
    are in (None before any heading), `table` how high the heading of the ruled table the line is a row of may stand
    (None for a line in no table): a table's heading stands over it or in its first rows, never over another table
    above it (page.py)."""
    left, top, width, height = box
    middle = top + height / 2
    highest = -1.0 if table is None else float(table)
    over = [
        (middle - (h_top + h_height), number)
        for number, ((h_left, h_top, h_width, h_height), _section) in enumerate(headings)
        if highest <= h_top + h_height / 2 < middle
        and min(left + width, h_left + h_width) - max(left, h_left) >= SHARED * width
    ]
    if not over:
        unclear = table is not None or (flow is None and bool(headings))
        return Placed(flow or "main", None, unclear)
    distance, number = min(over)
    section = headings[number][1]
    rivals = any(d - distance < AS_NEAR * height and headings[n][1] != section for d, n in over)
    return Placed(section, number, rivals)
