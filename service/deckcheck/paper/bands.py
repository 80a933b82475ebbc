"""Where a page holds printed lines that Tesseract's layout analysis passed over.

Tesseract finds a page's text blocks before it reads them, and now and then leaves a run of plain lines out of every
block (three clean lines of a 300 dpi sheet in a row, read by nothing). What ink is left once every word read is
taken away is looked at here: cut into bands by the blank rows between them, and each band by the gutters in it,
what is left that is shaped as a printed line (as high as the page's words, and some letters long) is a line to read
again on its own. Specks, rules, a letter's stroke outside its word's box and the edge of a photographed page are
not.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

INK = 128  # a grey level darker than this is ink
MIN_LENGTH = 2.5  # a line left unread is at least this many of its heights long: a count and a name of two letters
HEIGHTS = (0.6, 1.8)  # and this many of the page's word heights high, at least and at most
GUTTER = 2.2  # a gap of more than this many heights parts two pieces of a band (ocr.LINE_GAP: two columns)
MOST = 40  # bands read again on a page, at most: a page that leaves more unread is no list that reads well

Box = tuple[int, int, int, int]  # left, top, right, bottom


def unread(pixels: NDArray[np.uint8], read: Sequence[Box], height: int) -> list[Box]:
    """The boxes of the lines on the page's `pixels` that no box of `read` (the words read, in the same pixels)
    covers, where `height` is the page's usual word height; top to bottom, at most MOST."""
    if height <= 0:
        return []
    ink = pixels < INK
    pad = max(1, height // 3)  # a word's box may fall a few pixels short of its letters' ink
    for left, top, right, bottom in read:
        ink[max(0, top - pad) : bottom + pad, max(0, left - pad) : right + pad] = False
    found: list[Box] = []
    for top, bottom in runs(np.flatnonzero(ink.any(axis=1)), 1):
        band = ink[top:bottom]
        for left, right in runs(np.flatnonzero(band.any(axis=0)), round(GUTTER * height)):
            rows = np.flatnonzero(band[:, left:right].any(axis=1))
            box = (left, top + int(rows[0]), right, top + int(rows[-1]) + 1)
            high = HEIGHTS[0] * height <= box[3] - box[1] <= HEIGHTS[1] * height
            if high and right - left >= MIN_LENGTH * height:
                found.append(box)
    return found[:MOST]


def runs(indices: NDArray[np.intp], gap: float) -> list[tuple[int, int]]:
    """Runs of sorted `indices` (rows or columns that hold ink) apart by more than `gap`, as (first, last + 1)."""
    if not len(indices):
        return []
    parts = np.split(indices, np.flatnonzero(np.diff(indices) > gap) + 1)
    return [(int(part[0]), int(part[-1]) + 1) for part in parts]
