"""A run of text cut from the page as the recognizer reads it best: turned upright, a little room around it (more
round a count's, so that a ring or a frame drawn round it comes whole, and is painted out), light text on dark made
dark on light, its light evened along it, its contrast stretched, the rules along its edges taken out, and cut to
its line of text, which fills FILL of its height.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from deckcheck.paper.detect import Quad

PAD = 0.12  # of a run's height added all round before it is cut out
RING = 0.3  # and round a short run's (a count's), so that a ring or a frame drawn round it is cut out whole
FILL = 0.7  # of a crop's height its text fills: it reads text set smaller less well, and text set larger more slowly
TIGHT = 0.15  # of the text's height kept around it once the crop is cut to its ink
FRAMED = 2.0  # widths of its height a crop may be, at most, for a ring or frame round its text to be looked for
STRAY = 0.4  # of a crop's height: a stroke across its edge that reaches no further in is a neighbour's
RULE_FILL = 0.7  # of a crop's row (or column) that is ink, at least, where a rule runs along it


def cut(page: NDArray[np.uint8], quad: Quad) -> NDArray[np.uint8]:
    """The run of text `quad` cut from the grey page, upright, a little room around it, dark text on light."""
    import cv2  # noqa: PLC0415 - OpenCV is in the paper extra

    pad = (RING if quad.width <= FRAMED * quad.height else PAD) * quad.height
    angle = quad.angle
    along, across = (math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.points
    grown = np.array(
        [
            (x0 - pad * along[0] - pad * across[0], y0 - pad * along[1] - pad * across[1]),
            (x1 + pad * along[0] - pad * across[0], y1 + pad * along[1] - pad * across[1]),
            (x2 + pad * along[0] + pad * across[0], y2 + pad * along[1] + pad * across[1]),
            (x3 - pad * along[0] + pad * across[0], y3 - pad * along[1] + pad * across[1]),
        ],
        dtype=np.float32,
    )
    width = max(2, round(quad.width + 2 * pad))
    height = max(2, round(quad.height + 2 * pad))
    target = np.array([(0, 0), (width, 0), (width, height), (0, height)], dtype=np.float32)
    turn = cv2.getPerspectiveTransform(grown, target)
    upright = cv2.warpPerspective(page, turn, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return _tight(_unframed(_dark_on_light(np.asarray(upright, np.uint8))))


def _unframed(crop: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A short crop (a count's: at most FRAMED times as wide as high) without the ring or frame drawn round its
    text (a circled digit, an outlined badge, a box a count is written in): ink that holds other ink whole within
    its bounds and stands most of the crop's height, painted white. A name's crop is left alone (回 holds a box)."""
    import cv2  # noqa: PLC0415

    height, width = crop.shape
    if width > FRAMED * height:
        return crop
    count, labels, stats, _centres = cv2.connectedComponentsWithStats((crop < 128).astype(np.uint8), connectivity=8)
    boxes = [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _area in stats[1:count]]
    rings = [
        label
        for label, (x0, y0, x1, y1) in enumerate(boxes, 1)
        if y1 - y0 >= 0.6 * height
        and any(
            other != label and x0 <= a and y0 <= b and c <= x1 and d <= y1
            for other, (a, b, c, d) in enumerate(boxes, 1)
        )
    ]
    if not rings:
        return crop
    out = crop.copy()
    out[np.isin(labels, rings)] = 255
    return out


def _dark_on_light(crop: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The crop dark text on light, its light evened along it: turned over where its text is light on dark (where
    the middle half of its rows, in which the text stands, is more dark than light; the page around a heading's bar
    may not be), then each column divided by the paper's level there (a shadow's edge across a long line), and the
    contrast stretched over the whole range."""
    import cv2  # noqa: PLC0415

    low, high = np.percentile(crop, (2, 98))
    if high - low < 8:
        return np.full_like(crop, 255)
    rows = crop.shape[0]
    middle = crop[rows // 4 : max(rows // 4 + 1, 3 * rows // 4)]
    light = float((middle > (low + high) / 2).mean())
    pixels = (255 - crop if light < 0.5 else crop).astype(np.float32)
    level = np.percentile(pixels, 90, axis=0).astype(np.float32).reshape(1, -1)
    paper = np.asarray(cv2.blur(level, (max(1, 2 * rows + 1), 1)), np.float32).ravel()
    evened = pixels * (255.0 / np.maximum(paper, 1.0))
    low, high = np.percentile(evened, (2, 98))
    stretched = (evened - low) * (255.0 / max(high - low, 1.0))
    out: NDArray[np.uint8] = np.clip(stretched, 0, 255).astype(np.uint8)
    return out


def _tight(crop: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The crop without what stands along its edges (a cell's rules, the page around a heading's bar: rows or
    columns nearly all ink, and the strokes of the lines above and below, painted white), cut to the band of text
    through its middle (a neighbouring line's glyphs that reach into it, past a blank row, left out) with TIGHT of
    the text's height around it, and framed so that its text fills FILL of its height: the recognizer reads a line
    filled so best, and a narrower one faster."""
    ink = crop < 128
    height, width = ink.shape
    rules = ink.mean(axis=1) > RULE_FILL
    ink[rules] = False
    upright_rules = _thin(ink.mean(axis=0) > RULE_FILL, max(2, height // 6))
    ink[:, upright_rules] = False
    strays = _neighbours(ink)
    ink[strays] = False
    profile = ink.sum(axis=1)
    inked = np.flatnonzero(profile >= 2)
    columns = np.flatnonzero(ink.any(axis=0))
    if not len(inked) or not len(columns):
        return crop
    first, last = _band(profile, height // 2) if profile[height // 2] >= 2 else (inked[0], inked[-1])
    tall = last - first + 1
    room = max(2, round(TIGHT * tall))
    top, bottom = max(0, first - room), min(height, last + 1 + room)
    left, right = max(0, columns[0] - room), min(width, columns[-1] + 1 + room)
    out = crop.copy()
    out[rules] = 255
    out[:, upright_rules] = 255
    out[strays] = 255
    cut = out[top:bottom, left:right]
    frame = max(0, round(tall / FILL) - cut.shape[0])
    return np.pad(cut, ((frame // 2, frame - frame // 2), (0, 0)), constant_values=255)


def _neighbours(ink: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The ink of the lines above and below that reaches into a crop: strokes that cross its top or bottom edge and
    end before its middle rows (a `g`'s tail from the line above, an `f`'s head from the one below); the crop's own
    letters reach into its middle (its own `g` that the crop cuts off below)."""
    import cv2  # noqa: PLC0415

    height = ink.shape[0]
    count, labels, stats, _centres = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    edge = STRAY * height
    strays = [
        label
        for label in range(1, count)
        if (stats[label, 1] == 0 and stats[label, 3] < edge)
        or (stats[label, 1] + stats[label, 3] == height and stats[label, 1] > height - edge)
    ]
    out: NDArray[np.bool_] = np.isin(labels, strays) if strays else np.zeros_like(ink)
    return out


def _thin(full: NDArray[np.bool_], widest: int) -> NDArray[np.bool_]:
    """The runs of `full` columns at most `widest` wide: a cell's rule is thin; a wide dark stretch is none."""
    out = np.zeros_like(full)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], full.astype(np.int8), [0]))))
    for start, end in zip(edges[::2], edges[1::2], strict=True):
        if end - start <= widest:
            out[start:end] = True
    return out


def _band(profile: NDArray[np.intp], middle: int) -> tuple[int, int]:
    """The rows of ink through `middle`, up to the first row of no ink either way (a thin stroke's row, one
    pixel of ink, goes on: a handwritten `3` narrows so where its two bows meet)."""
    first = last = middle
    while first > 0 and profile[first - 1] >= 1:
        first -= 1
    while last < len(profile) - 1 and profile[last + 1] >= 1:
        last += 1
    return first, last
