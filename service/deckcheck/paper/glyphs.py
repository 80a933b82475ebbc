"""The glyphs the text detector passes over: a count that stands alone in its cell (`1`, a stroke the detector marks
too faintly), a circled digit or a badge apart from its name. They are found in the ink no run of text covers.

Ink is whatever differs from its surroundings by CONTRAST grey levels, darker or lighter (a dark digit on paper, a
light one on a screen), the surroundings being the median of a window several lines high, in which text vanishes.
Long straight strokes (a table's rules, underlines, a bar's edge) are taken out first. What is left and is shaped as
a glyph of the page's text (as high as a letter, no wider than a few) is a run of its own, neighbouring glyphs joined
(`15`, `×3`); specks, rules, icons larger than the text and photographs are not.
"""

from __future__ import annotations

import statistics

import numpy as np
from numpy.typing import NDArray

from deckcheck.paper.detect import Quad, upright

WORKING_HEIGHT = 24.0  # pixels a line of the page's text is high where the ink is looked at
CONTRAST = 48  # grey levels ink differs from its surroundings by, at least
# A glyph is at least and at most this many of the page's line heights high: a line's box stands well clear of its
# ink, and the sides of a box drawn round a count are taller.
TALL = (0.3, 0.9)
WIDE = 1.6  # and at most this many wide
JOIN = 0.45  # glyphs closer than this many line heights are one run
RULE = 2.5  # a straight stroke this many line heights long is a rule, not a glyph
MOST = 300  # glyphs kept from a page, at most


def lone(page: NDArray[np.uint8], found: list[Quad], ground: NDArray[np.uint8] | None = None) -> list[Quad]:
    """The runs of one or a few glyphs on a grey page that no quad of `found` covers; `ground` is the page as it
    was before its light was evened (paper/detect.py), where the paper's edge against what it lies on still shows."""
    import cv2  # noqa: PLC0415 - OpenCV is in the paper extra

    if not found:
        return []
    line = statistics.median(quad.height for quad in found)
    scale = min(1.0, WORKING_HEIGHT / max(1.0, line))
    size = (max(1, round(page.shape[1] * scale)), max(1, round(page.shape[0] * scale)))
    small = cv2.resize(page, size, interpolation=cv2.INTER_AREA) if scale < 1 else page
    high = line * scale
    window = min(255, 2 * round(2 * high) + 1)
    around = cv2.medianBlur(small, window)
    before = page if ground is None else ground
    shrunk = np.asarray(cv2.resize(before, size, interpolation=cv2.INTER_AREA), np.uint8) if scale < 1 else before
    grounds = np.asarray(cv2.medianBlur(shrunk, window), np.uint8)
    signed = small.astype(np.int16) - around.astype(np.int16)
    runs: list[Quad] = []
    for ink in (signed < -CONTRAST, signed > CONTRAST):
        mask = _without_rules(ink.astype(np.uint8), round(RULE * high))
        runs += _glyph_runs(mask, grounds, [_scaled(quad, scale) for quad in found], high, 1 / scale)
    runs.sort(key=lambda quad: (quad.box[1], quad.box[0]))
    return runs[:MOST]


def _without_rules(ink: NDArray[np.uint8], length: int) -> NDArray[np.uint8]:
    """The ink without its straight strokes `length` long or longer, across or down."""
    import cv2  # noqa: PLC0415

    length = max(3, length)
    across = np.asarray(cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8)), np.uint8)
    down = np.asarray(cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8)), np.uint8)
    rules = np.asarray(cv2.dilate(across | down, np.ones((3, 3), np.uint8)), np.uint8)
    out: NDArray[np.uint8] = ink & (1 - rules)
    return out


def _scaled(quad: Quad, scale: float) -> tuple[int, int, int, int]:
    """A found quad's box at `scale`, a little room around it: left, top, right, bottom."""
    left, top, width, tall = quad.box
    pad = tall * 0.15
    return (
        max(0, round((left - pad) * scale)),
        max(0, round((top - pad) * scale)),
        round((left + width + pad) * scale) + 1,
        round((top + tall + pad) * scale) + 1,
    )


def _glyph_runs(
    mask: NDArray[np.uint8],
    around: NDArray[np.uint8],
    found: list[tuple[int, int, int, int]],
    high: float,
    back: float,
) -> list[Quad]:
    """The components of `mask` shaped as glyphs `high` pixels tall, joined into runs, as quads scaled by `back`.
    A component any of the `found` boxes reaches into is read already (the ring round a circled digit the detector
    found goes with it), one whose box holds another's is a ring or a frame round it, and one whose surroundings
    (`around`) differ from side to side stands on an edge (a photographed page's against the table), not a glyph."""
    import cv2  # noqa: PLC0415

    count, labels, stats, _centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    read = {int(label) for x0, y0, x1, y1 in found for label in np.unique(labels[y0:y1, x0:x1])}
    every = [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _area in stats[1:count]]
    shaped = [
        box
        for label, box in enumerate(every, 1)
        if label not in read
        and TALL[0] * high <= box[3] - box[1] <= TALL[1] * high
        and box[2] - box[0] <= WIDE * high
        and _one_ground(around, box, high)
    ]
    boxes = [box for box in shaped if not any(other != box and _holds(box, other) for other in shaped)]
    boxes.sort()
    runs: list[list[int]] = []
    for left, top, right, bottom in boxes[: 4 * MOST]:
        run = next(
            (r for r in runs if left - r[2] <= JOIN * high and min(bottom, r[3]) - max(top, r[1]) > 0.3 * high),
            None,
        )
        if run is not None:
            run[1], run[2], run[3] = min(run[1], top), max(run[2], right), max(run[3], bottom)
        else:
            runs.append([left, top, right, bottom])
    pad = 0.3 * high
    return [
        upright((left - pad) * back, (top - pad) * back, (right + pad) * back, (bottom + pad) * back)
        for left, top, right, bottom in runs
        if right - left <= 3 * WIDE * high
    ]


def _holds(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    """Whether box `outer` holds box `inner` whole."""
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _one_ground(around: NDArray[np.uint8], box: tuple[int, int, int, int], high: float) -> bool:
    """Whether the ground a line's height out from a glyph's box, on each side of it, is one: within CONTRAST grey
    levels all round."""
    left, top, right, bottom = box
    x, y, reach = (left + right) // 2, (top + bottom) // 2, round(high)
    rows, columns = around.shape
    points = [(y, left - reach), (y, right + reach), (top - reach, x), (bottom + reach, x)]
    levels = [int(around[min(max(r, 0), rows - 1), min(max(c, 0), columns - 1)]) for r, c in points]
    return max(levels) - min(levels) < CONTRAST
