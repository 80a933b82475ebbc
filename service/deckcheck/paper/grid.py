"""The ruled tables of a page, for the answer's `cells` (the desk draws them over the page, so that staff see
which lines were a form's rows): the official OCG deck recipe (カード名 | 枚数), the TCG deck list
(Qty | Card Name), a shop's blank form, a spreadsheet print-out.

The rules are the page's long straight runs of ink: a horizontal one at least RULE_WIDTH of the page's width long, a
vertical one at least RULE_HEIGHT of its height, each found a few pixels either side so that a photographed page's
slightly sloping rule stays one run. Two horizontal rules that overlap, with no other between, bound a row band where
at least one vertical rule crosses the whole band; the vertical rules crossing it cut the band into cells. The page is
looked at with its longer side WORKING_PIXELS long, the size the rules' widths below were measured at.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

CONTRAST = 48  # grey levels a rule is darker than the paper beside it (a hairline scaled down is a light grey)
CROSSING = 4  # pixels from a thin line's pixels a crossing's dark pixels are
REACH = 7  # pixels either side in which that paper is looked for: a rule is at most twice as thick
RULE_WIDTH = 0.05  # of the page's width: a rule over a count's column alone is longer than any letter's stroke
RULE_HEIGHT = 0.03  # of the page's height: a vertical rule crosses at least two rows; no letter is that tall
THICKEST = 40  # rows of one rule at most: its own width and the slope of a photo's rule across a table
SLOPE = 2  # pixels either side a rule's run may wander (a photo's rules slope a little once set upright)
ROW = (0.006, 0.05)  # a row band's height, of the page's height, at least and at most (2 mm to 15 mm on A4)
WORKING_PIXELS = 2400  # the longer side of the page as its rules are looked for
COLUMN_APART = 0.02  # of a table's width: two cells whose left edges stand further apart are in two columns
OVERLAP = 0.5  # two horizontal rules bound one band when they overlap by this share of the shorter

Box = tuple[int, int, int, int]  # left, top, right, bottom


@dataclass(frozen=True, slots=True)
class Rule:
    """A straight rule: where it stands across (y of a horizontal one, x of a vertical one) and where it runs."""

    at: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Grid:
    """The page's rules, and the boxes of the cells they make: in each band, left to right."""

    horizontal: tuple[Rule, ...]
    vertical: tuple[Rule, ...]
    cells: tuple[Box, ...]


def cells(page: NDArray[np.uint8]) -> list[Box]:
    """The boxes (left, top, width, height, in the page's pixels) of the cells of the grey page's ruled tables."""
    import cv2  # noqa: PLC0415 - OpenCV is in the paper extra

    height, width = page.shape
    scale = min(1.0, WORKING_PIXELS / max(height, width))
    size = (max(1, round(width * scale)), max(1, round(height * scale)))  # a strip 20,000 by 3 keeps a row
    small = np.asarray(cv2.resize(page, size, interpolation=cv2.INTER_AREA), np.uint8) if scale < 1 else page
    return [
        (round(left / scale), round(top / scale), round((right - left) / scale), round((bottom - top) / scale))
        for left, top, right, bottom in find(small).cells
    ]


def tables(cells: list[Box]) -> list[Box]:
    """The tables the cells (left, top, width, height) make: cells that touch, joined, as one box each."""
    return [box for box, _members in _tables(cells)]


def between(cells: list[Box], texts: list[Box], typed: list[Box] | None = None) -> list[Box]:
    """The cells of the tables whose rules run between the page's runs of text (`texts`, boxes as the cells'), not
    through them, with something written in two of its columns at least (a count's and a name's): a table more of
    whose runs cross its cells' edges than stand in a cell is made of the strokes of letters (a photographed page's
    lines of text, their strokes in line down the page); one written in one column alone is a notebook's ruled page
    with its margin, or a form's fields; and no line is a row of one with nothing written in it. Runs of a text layer
    (`typed`) are what was typed, never strokes: one may span a row's cells (a form's fields of count and name read
    as one line) and stands in each cell it covers."""
    kept: list[Box] = []
    for (left, top, width, height), members in _tables(cells):
        crossing = 0
        columns: list[int] = []  # the left edges of the cells a run of text stands in
        for text, is_typed in [*((text, False) for text in texts), *((text, True) for text in typed or [])]:
            x, y = text[0] + text[2] / 2, text[1] + text[3] / 2
            if not (left <= x <= left + width and top <= y <= top + height):
                continue
            room = text[3] / 3
            holder = next((c for c in members if _within(text, c, room)), None)
            if holder is not None:
                columns.append(holder[0])
            elif is_typed:
                columns += [c[0] for c in members if _covers(text, c, room)]
            else:
                crossing += 1
        written = sorted(set(columns))
        apart = sum(b - a > COLUMN_APART * width for a, b in itertools.pairwise(written))
        if len(columns) >= crossing and apart:
            kept += members
    return kept


def _within(text: Box, cell: Box, room: float) -> bool:
    """Whether a run stands inside a cell, give or take `room`."""
    return (
        cell[0] - room <= text[0] and text[0] + text[2] <= cell[0] + cell[2] + room
        and cell[1] - room <= text[1] and text[1] + text[3] <= cell[1] + cell[3] + room
    )  # fmt: skip


def _covers(text: Box, cell: Box, room: float) -> bool:
    """Whether a run stands in the row of a cell and covers it across, give or take `room`."""
    return (
        text[0] - room <= cell[0] and cell[0] + cell[2] <= text[0] + text[2] + room
        and cell[1] - room <= text[1] and text[1] + text[3] <= cell[1] + cell[3] + room
    )  # fmt: skip


def _tables(cells: list[Box]) -> list[tuple[Box, list[Box]]]:
    """The tables the cells make, each as its box and its cells: cells that touch, joined."""
    made: list[tuple[list[int], list[Box]]] = []
    for cell in sorted(cells, key=lambda cell: (cell[1], cell[0])):
        left, top, width, height = cell
        box, members = [left, top, left + width, top + height], [cell]
        for table in [t for t in made if _touch(t[0], box)]:
            made.remove(table)
            box = [
                min(box[0], table[0][0]),
                min(box[1], table[0][1]),
                max(box[2], table[0][2]),
                max(box[3], table[0][3]),
            ]
            members += table[1]
        made.append((box, members))
    return [((left, top, right - left, bottom - top), members) for (left, top, right, bottom), members in made]


def _touch(one: list[int], other: list[int]) -> bool:
    """Whether two boxes (left, top, right, bottom) overlap or meet, within a few pixels."""
    gap = 2 * SLOPE + 2
    return (
        one[0] <= other[2] + gap and other[0] <= one[2] + gap and one[1] <= other[3] + gap and other[1] <= one[3] + gap
    )


def runs(indices: NDArray[np.intp], gap: float) -> list[tuple[int, int]]:
    """Runs of sorted `indices` (rows or columns that hold ink) apart by more than `gap`, as (first, last + 1)."""
    if not len(indices):
        return []
    parts = np.split(indices, np.flatnonzero(np.diff(indices) > gap) + 1)
    return [(int(part[0]), int(part[-1]) + 1) for part in parts]


def _long_runs(ink: NDArray[np.bool_], length: int) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """The runs of `ink` along its rows at least `length` long: their rows, first columns and ends (exclusive)."""
    padded = np.zeros((ink.shape[0], ink.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = ink
    steps = np.diff(padded, axis=1)
    rows, starts = np.nonzero(steps == 1)
    _rows, ends = np.nonzero(steps == -1)  # row by row, in order: each run's end pairs with its start
    keep = ends - starts >= length
    return rows[keep], starts[keep], ends[keep]


def _thick(ink: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """`ink` with every row taken with the SLOPE rows either side of it."""
    out = ink.copy()
    for shift in range(1, SLOPE + 1):
        out[shift:] |= ink[:-shift]
        out[:-shift] |= ink[shift:]
    return out


def _rules(found: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]], length: int) -> list[Rule]:
    """The rules the long runs make: runs on rows close together, no more than THICKEST rows in all (a band of ink
    thicker than that, a page of noise or a dark fill, is no rule), are one rule, cut where it leaves a gap."""
    rows, starts, ends = found
    rules = []
    for top, bottom in runs(np.unique(rows), SLOPE + 1):
        if bottom - top > THICKEST:
            continue
        inside = (rows >= top) & (rows < bottom)
        order = np.argsort(starts[inside], kind="stable")
        first, last = starts[inside][order], ends[inside][order]
        reach = np.maximum.accumulate(last)
        cuts = np.flatnonzero(first[1:] > reach[:-1] + SLOPE + 1) + 1
        for part_start, part_end in zip(np.split(first, cuts), np.split(reach, cuts), strict=True):
            if int(part_end[-1]) - int(part_start[0]) >= length:
                rules.append(Rule((top + bottom) // 2, int(part_start[0]), int(part_end[-1])))
    return rules


def _window_max(pixels: NDArray[np.uint8], reach: int, axis: int) -> NDArray[np.uint8]:
    """Each pixel's brightest neighbour within `reach` along `axis` (0: up and down, 1: left and right), by windows
    doubled in size."""
    out = pixels.copy()
    span = 1
    while span <= reach:
        step = min(span, reach + 1 - span)
        moved = np.full_like(out, 0)
        forward, backward = [slice(None)] * 2, [slice(None)] * 2
        forward[axis], backward[axis] = slice(step, None), slice(None, -step)
        moved[tuple(backward)] = out[tuple(forward)]
        grown = np.maximum(out, moved)
        moved[...] = 0
        moved[tuple(forward)] = out[tuple(backward)]
        out = np.maximum(grown, moved)
        span += step
    return out


def _thin(pixels: NDArray[np.uint8], axis: int) -> NDArray[np.bool_]:
    """The pixels of thin dark lines across `axis`: darker by CONTRAST than the brightest pixel within REACH either
    side. A rule is, faint or black, on white or beside a grey heading's fill; a grey fill itself, a shadow across a
    photo or the desk around the page is not."""
    brightest = _window_max(pixels, REACH, axis)
    return (brightest.astype(np.int16) - pixels) > CONTRAST


def _lines(pixels: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """The pixels of thin dark lines either way, and the dark pixels where two cross (thin neither way, but beside
    the thin ones of both)."""
    thin = _thin(pixels, 0) | _thin(pixels, 1)
    near = thin.view(np.uint8)
    beside = (_window_max(near, CROSSING, 0) | _window_max(near, CROSSING, 1)).view(np.bool_)
    return thin | (beside & (pixels < 255 - CONTRAST))


def find(pixels: NDArray[np.uint8]) -> Grid:
    """The rules and cells of a grey page."""
    height, width = pixels.shape
    across, down = round(RULE_WIDTH * width), round(RULE_HEIGHT * height)
    thin = _lines(pixels)  # either way, so that a rule runs on through the rules crossing it
    along, standing = _long_runs(_thick(thin), across), _long_runs(_thick(np.ascontiguousarray(thin.T)), down)
    horizontal, vertical = _rules(along, across), _rules(standing, down)
    return Grid(tuple(horizontal), tuple(vertical), tuple(_cells(horizontal, vertical, height)))


def _cells(horizontal: list[Rule], vertical: list[Rule], height: int) -> list[Box]:
    """The cells of the bands two horizontal rules bound, as (left, top, right, bottom)."""
    low, high = ROW[0] * height, ROW[1] * height
    tolerance = 2 * SLOPE + 2
    cells: list[Box] = []
    ordered = sorted(horizontal, key=lambda rule: rule.at)
    for number, upper in enumerate(ordered):
        under = next((at for at in range(number + 1, len(ordered)) if _overlap(upper, ordered[at]) >= OVERLAP), None)
        if under is None or not low <= ordered[under].at - upper.at <= high:
            continue
        lower = ordered[under]
        left, right = max(upper.start, lower.start), min(upper.end, lower.end)
        crossing = sorted(
            rule.at
            for rule in vertical
            if rule.start <= upper.at + tolerance
            and rule.end >= lower.at - tolerance
            and left - tolerance <= rule.at <= right + tolerance
        )
        edges = [x for at, x in enumerate(crossing) if not at or x - crossing[at - 1] > tolerance]
        if not edges:  # rules across with none down: a form's fields, a blog's separators, no table
            continue
        # A table's outer rule lost (in a photo's shadow): the ends of its rules above and below stand for it.
        edges = [left, *edges] if edges[0] - left > 2 * tolerance else edges
        edges = [*edges, right] if edges[-1] < right - 2 * tolerance else edges
        cells += [(x0, upper.at, x1, lower.at) for x0, x1 in itertools.pairwise(edges)]
    return cells


def _overlap(one: Rule, other: Rule) -> float:
    shared = min(one.end, other.end) - max(one.start, other.start)
    return shared / max(1, min(one.end - one.start, other.end - other.start))
