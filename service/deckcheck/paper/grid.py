"""The ruled tables of a form: the official OCG deck recipe (カード名 | 枚数) and the TCG deck list (Qty | Card Name)
print each card on a row of a grid, its count in a column of its own, away from the name.

The rules are the page's long straight runs of ink: a horizontal one at least RULE_WIDTH of the page's width long, a
vertical one at least RULE_HEIGHT of its height, each found a few pixels either side so that a photographed page's
slightly sloping rule stays one run. Two horizontal rules that overlap, with no other between, bound a row band where
at least two vertical rules cross the whole band; the vertical rules crossing it cut the band into cells. A cell is
narrow (a count's column) when it is less than NARROW row heights wide, else wide (a name's). In one band, a wide
cell and the narrow cell beside it are one line of the deck: the narrow one on the side where the band's first cell
is narrow (`Qty | Card Name`), else after it (`カード名 | 枚数`). Words are given to the cell that holds their middle.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from deckcheck.paper.bands import runs

CONTRAST = 48  # grey levels a rule is darker than the paper beside it (a hairline scaled down is a light grey)
FILL = 190  # a form's grey fill is lighter than this; text is darker
CROSSING = 4  # pixels from a thin line's pixels a crossing's dark pixels are
REACH = 7  # pixels either side in which that paper is looked for: a rule is at most twice as thick
RULE_WIDTH = 0.05  # of the page's width: a rule over a count's column alone is longer than any letter's stroke
RULE_HEIGHT = 0.03  # of the page's height: a vertical rule crosses at least two rows; no letter is that tall
THICKEST = 40  # rows of one rule at most: its own width and the slope of a photo's rule across a table
SLOPE = 2  # pixels either side a rule's run may wander (a photo's rules slope a little once set upright)
ROW = (0.006, 0.05)  # a row band's height, of the page's height, at least and at most (2 mm to 15 mm on A4)
NARROW = 3.0  # a cell less than this many row heights wide is a count's column
OVERLAP = 0.5  # two horizontal rules bound one band when they overlap by this share of the shorter

Box = tuple[int, int, int, int]  # left, top, right, bottom


@dataclass(frozen=True, slots=True)
class Rule:
    """A straight rule: where it stands across (y of a horizontal one, x of a vertical one) and where it runs."""

    at: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a table, the band (row) it is in, and whether it is a count's narrow column."""

    box: Box
    band: int
    narrow: bool
    top: int  # where its table begins: the upper rule of the first of the bands set one under another down to it

    def holds(self, left: int, top: int, right: int, bottom: int) -> bool:
        """Whether a word's middle is inside the cell."""
        x, y = (left + right) / 2, (top + bottom) / 2
        return self.box[0] <= x < self.box[2] and self.box[1] <= y < self.box[3]


@dataclass(frozen=True, slots=True)
class Grid:
    """The page's rules, and the cells they make: in each band, left to right."""

    horizontal: tuple[Rule, ...]
    vertical: tuple[Rule, ...]
    cells: tuple[Cell, ...]

    def pairs(self) -> list[tuple[Cell, Cell | None]]:
        """Each wide cell with the narrow cell that holds its count, where one stands beside it on its side."""
        found: list[tuple[Cell, Cell | None]] = []
        for band in sorted({cell.band for cell in self.cells}):
            row = [cell for cell in self.cells if cell.band == band]
            before = row[0].narrow  # `Qty | Card Name`: the count before the name
            for at, cell in enumerate(row):
                if cell.narrow:
                    continue
                beside = at - 1 if before else at + 1
                count = row[beside] if 0 <= beside < len(row) and row[beside].narrow else None
                found.append((cell, count))
        return found


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


def _rules(
    found: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]], length: int
) -> tuple[list[Rule], NDArray[np.bool_]]:
    """The rules the long runs make, and which runs they are made of: runs on rows close together, no more than
    THICKEST rows in all (a band of ink thicker than that, a page of noise or a dark fill, is no rule), are one rule,
    cut where it leaves a gap."""
    rows, starts, ends = found
    rules = []
    kept = np.zeros(len(rows), dtype=np.bool_)
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
                kept |= inside & (starts >= part_start[0]) & (ends <= part_end[-1])
    return rules, kept


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


def find(pixels: NDArray[np.uint8]) -> tuple[Grid, NDArray[np.uint8]]:
    """The rules and cells of a grey page, and the page with its rules and a form's grey fills painted white:
    Tesseract reads a cell's words better without the box around them."""
    height, width = pixels.shape
    across, down = round(RULE_WIDTH * width), round(RULE_HEIGHT * height)
    thin = _lines(pixels)  # either way, so that a rule runs on through the rules crossing it
    flat, upright = thin, np.ascontiguousarray(thin.T)
    along, standing = _long_runs(_thick(flat), across), _long_runs(_thick(upright), down)
    (horizontal, flat_kept), (vertical, upright_kept) = _rules(along, across), _rules(standing, down)
    grid = Grid(tuple(horizontal), tuple(vertical), tuple(_cells(horizontal, vertical, height)))
    if not horizontal and not vertical:
        return grid, pixels
    erased = pixels.copy()
    if grid.cells:  # a form: its grey fills (a heading's band) as white as the paper, which Tesseract passes over
        erased[erased > FILL] = 255
    for row, start, end in zip(*(part[flat_kept] for part in along), strict=True):
        erased[row, start:end][flat[row, start:end]] = 255
    for column, start, end in zip(*(part[upright_kept] for part in standing), strict=True):
        erased[start:end, column][upright[column, start:end]] = 255
    return grid, erased


def _cells(horizontal: list[Rule], vertical: list[Rule], height: int) -> list[Cell]:
    low, high = ROW[0] * height, ROW[1] * height
    tolerance = 2 * SLOPE + 2
    cells: list[Cell] = []
    ordered = sorted(horizontal, key=lambda rule: rule.at)
    tops: dict[int, int] = {}  # a band's lower rule (by index) -> the top of its table
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
        if len(edges) < 2:
            continue
        top = tops.get(number, upper.at)
        tops[under] = top
        row = lower.at - upper.at
        for x0, x1 in itertools.pairwise(edges):
            cells.append(Cell((x0, upper.at, x1, lower.at), number, x1 - x0 < NARROW * row, top))
    return cells


def _overlap(one: Rule, other: Rule) -> float:
    shared = min(one.end, other.end) - max(one.start, other.start)
    return shared / max(1, min(one.end - one.start, other.end - other.start))
