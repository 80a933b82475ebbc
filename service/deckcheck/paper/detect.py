"""Where a page's text stands, whatever its layout or colours: the PP-OCR text detector (DBNet, paper/models.py)
finds every run of text as a box (a quadrilateral, turned as the text is), dark text on light paper, light text on
a dark screen, white headings on black bars, text in bubbles, cells and pills alike. It needs no ruled table, no
column and no reading order: what the runs say, and how they stand beside one another, is the reader's to work out
(paper/rows.py).

The page is scaled so that its shorter side is SHORT_SIDE pixels (an A4 page at 300 dpi to about 0.3: its 10 pt
text some 12 pixels high, which the detector finds best at; a phone's screenshot to about 0.7), and a tall page
(a scrolling screenshot) is looked at in overlapping windows of at most WINDOW rows, so that its memory is bounded.
The detector marks each pixel with the likelihood that it is text; the runs are the regions above THRESHOLD whose
mean is at least BOX_SCORE, each taken as the turned rectangle that holds it, grown by UNCLIP (the detector marks
the middle of a glyph's height, not its whole ink). A single narrow glyph (a lone `1` in a count's cell) is often
below the threshold: paper/glyphs.py finds those from the ink.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from deckcheck.errors import PaperTimedOut
from deckcheck.paper import models

SHORT_SIDE = 736  # pixels of the page's shorter side as the detector sees it
MOST_PIXELS = 6_000_000  # of the scaled page at most: a strip of a page is scaled down further
WINDOW = 1536  # rows of the scaled page looked at together (a multiple of 32)
OVERLAP = 128  # rows two windows share, more than a line's height
THRESHOLD = 0.3  # a pixel likelier than this to be text is text
BOX_SCORE = 0.5  # a region's mean likelihood, at least
STRONG = 0.6  # a pixel likelier than this is text even in a region too faint as a whole
UNCLIP = 1.6  # the region grown by its area times this over its perimeter, all round
BAR_CONTRAST, BAR_LIKE = 15, 12  # grey levels a bar differs from the paper by, at least, and its columns from its own
UNDER_PAPER = 0.5  # of the paper's light: ground darker than this is not paper, and is not evened to paper
EVEN_ENOUGH = 24  # grey levels across a page's background below which its light is left as it is
MOST_BOXES = 1500  # regions kept from one window: a page of more is noise


@dataclass(frozen=True, slots=True)
class Quad:
    """A run of text as found: its corners top left, top right, bottom right, bottom left, in the page's pixels."""

    points: tuple[tuple[float, float], ...]

    @property
    def width(self) -> float:
        """Its length along the text."""
        (x0, y0), (x1, y1) = self.points[0], self.points[1]
        return math.hypot(x1 - x0, y1 - y0)

    @property
    def height(self) -> float:
        """Its height across the text."""
        (x0, y0), (x3, y3) = self.points[0], self.points[3]
        return math.hypot(x3 - x0, y3 - y0)

    @property
    def angle(self) -> float:
        """How far the text is turned, in radians (clockwise positive, as the page's y runs down)."""
        (x0, y0), (x1, y1) = self.points[0], self.points[1]
        return math.atan2(y1 - y0, x1 - x0)

    @property
    def centre(self) -> tuple[float, float]:
        """Its middle."""
        return sum(p[0] for p in self.points) / 4, sum(p[1] for p in self.points) / 4

    @property
    def box(self) -> tuple[int, int, int, int]:
        """The upright box that holds it: left, top, width, height."""
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        left, top = math.floor(min(xs)), math.floor(min(ys))
        return left, top, math.ceil(max(xs)) - left, math.ceil(max(ys)) - top


def upright(left: float, top: float, right: float, bottom: float) -> Quad:
    """The quad of an upright box."""
    return Quad(((left, top), (right, top), (right, bottom), (left, bottom)))


def even(page: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A light page with its light evened out: divided by its background (the brightest of its neighbourhood,
    blurred, on a copy a sixteenth of its size, in which text vanishes), so that a shadow across a photo or a lamp's
    falloff reads as the rest of the page; a page already even (a scan, a screen), or a dark one, is left as it is."""
    import cv2  # noqa: PLC0415

    height, width = page.shape
    small = cv2.resize(page, (max(1, width // 16), max(1, height // 16)), interpolation=cv2.INTER_AREA)
    if float(np.median(small)) < 128:
        return page
    background = cv2.GaussianBlur(cv2.dilate(small, np.ones((5, 5), np.uint8)), (0, 0), 4)
    if int(background.max()) - int(background.min()) < EVEN_ENOUGH:
        return page
    light = cv2.resize(background, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.uint16)
    # What the page lies on (a table, a lap) is darker than any shadow across the paper: it stays dark, its grain
    # not stretched into specks a glyph could be taken from.
    floor = max(1, round(UNDER_PAPER * float(np.percentile(background, 90))))
    return np.minimum(page.astype(np.uint16) * 255 // np.maximum(light, floor), 255).astype(np.uint8)


def bar(page: NDArray[np.uint8], quad: Quad) -> tuple[int, int] | None:
    """Where the bar a run of text is set on begins and ends along its row (a heading on a grey or black bar that
    runs over two tables), or None where it stands on the paper: the columns either side whose middle grey, across
    the run's rows, is its own background's, gaps of up to a line's height allowed (a rule across the bar)."""
    left, top, width, high = quad.box
    band = page[max(0, top) : max(1, top + high)]
    if band.size == 0 or width <= 0:
        return None
    levels = np.median(band, axis=0)
    own = float(np.median(levels[max(0, left) : left + width]))
    paper = float(np.percentile(page[:: max(1, page.shape[0] // 200), :: max(1, page.shape[1] // 200)], 90))
    if abs(own - paper) < BAR_CONTRAST:
        return None
    same = np.abs(levels - own) < BAR_LIKE
    start, end = max(0, left), min(len(levels), left + width)
    start, end = _grown(same, start, -1, high), _grown(same, end - 1, 1, high)
    return int(start), int(end + 1)


def _grown(same: NDArray[np.bool_], at: int, step: int, gap: int) -> int:
    """How far from `at` the columns like the bar go on in the direction `step`, past gaps of at most `gap`."""
    last, missed = at, 0
    while 0 <= at + step < len(same) and missed <= gap:
        at += step
        if same[at]:
            last, missed = at, 0
        else:
            missed += 1
    return last


def scale_for(width: int, height: int) -> float:
    """The scale the detector sees a page of `width` × `height` at."""
    scale = SHORT_SIDE / max(1, min(width, height))
    return min(scale, math.sqrt(MOST_PIXELS / max(1, width * height)))


def find(page: NDArray[np.uint8], deadline: float) -> list[Quad]:
    """Every run of text on a grey page, top to bottom; PaperTimedOut once `deadline` (time.monotonic()) passes."""
    import cv2  # noqa: PLC0415 - OpenCV is in the paper extra

    height, width = page.shape
    scale = scale_for(width, height)
    scaled_w, scaled_h = (max(32, round(side * scale / 32) * 32) for side in (width, height))
    shrink = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    small = np.asarray(cv2.resize(page, (scaled_w, scaled_h), interpolation=shrink), np.uint8)
    across, down = width / scaled_w, height / scaled_h
    found: list[Quad] = []
    top = 0
    while True:
        if time.monotonic() > deadline:
            raise PaperTimedOut("read_timeout", "the time to read this page ran out")
        bottom = min(scaled_h, top + WINDOW)
        likely = _likelihood(small[top:bottom])
        keep_from = 0 if top == 0 else OVERLAP // 2  # a run across two windows is kept from the one it is whole in
        keep_to = bottom - top if bottom == scaled_h else bottom - top - OVERLAP // 2
        for points in _regions(likely):
            middle = float(points[:, 1].mean())
            if keep_from <= middle < keep_to:
                found.append(Quad(tuple((float(x) * across, (float(y) + top) * down) for x, y in points)))
        if bottom == scaled_h:
            break
        top = bottom - OVERLAP
    return sorted(found, key=lambda quad: (quad.box[1], quad.box[0]))


def _likelihood(window: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The detector's likelihood of text at each pixel of a grey window."""
    pixels = window.astype(np.float32) / 127.5 - 1.0  # the model's mean and spread: 0.5, 0.5 of 0 to 1
    batch = np.ascontiguousarray(np.repeat(pixels[None, None], 3, axis=1))
    detector = models.session(models.DETECTOR)
    out: NDArray[np.float32] = detector.run(None, {detector.get_inputs()[0].name: batch})[0][0, 0]
    return out


def _regions(likely: NDArray[np.float32], threshold: float = THRESHOLD) -> list[NDArray[np.float64]]:
    """The turned rectangles of the regions of text, grown by UNCLIP, each as its four corners in order. A region
    too faint as a whole (a name joined to the dot leaders after it, which the detector finds faintly) is looked at
    again for the parts of it that are likelier than STRONG: the name, the count at the leaders' end."""
    import cv2  # noqa: PLC0415

    mask = cv2.dilate((likely > threshold).astype(np.uint8), np.ones((2, 2), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    regions = []
    for contour in contours[:MOST_BOXES]:
        (cx, cy), (w, h), turn = cv2.minAreaRect(contour)
        if min(w, h) < 3:
            continue
        corners = _ordered(np.asarray(cv2.boxPoints(((cx, cy), (w, h), turn)), np.float32))
        if _score(likely, corners) < BOX_SCORE:
            if threshold < STRONG:
                x, y, wide, high = cv2.boundingRect(contour)
                inside = np.zeros_like(likely)
                part = np.zeros((high, wide), np.uint8)
                cv2.drawContours(part, [contour - (x, y)], -1, 1, thickness=-1)
                inside[y : y + high, x : x + wide] = likely[y : y + high, x : x + wide] * part
                regions += _regions(inside, STRONG)
            continue
        grow = w * h * UNCLIP / (2 * (w + h))
        grown = _ordered(np.asarray(cv2.boxPoints(((cx, cy), (w + 2 * grow, h + 2 * grow), turn)), np.float32))
        regions.append(grown)
    return regions


def _ordered(points: NDArray[np.float32]) -> NDArray[np.float64]:
    """Four corners as top left, top right, bottom right, bottom left."""
    by_x = points[np.argsort(points[:, 0], kind="stable")].astype(np.float64)
    left, right = by_x[:2], by_x[2:]
    top_left, bottom_left = left[np.argsort(left[:, 1], kind="stable")]
    top_right, bottom_right = right[np.argsort(right[:, 1], kind="stable")]
    return np.array([top_left, top_right, bottom_right, bottom_left])


def _score(likely: NDArray[np.float32], corners: NDArray[np.float64]) -> float:
    """The mean likelihood inside the rectangle."""
    import cv2  # noqa: PLC0415

    height, width = likely.shape
    x0, y0 = (max(0, math.floor(corners[:, k].min())) for k in (0, 1))
    x1, y1 = min(width - 1, math.ceil(corners[:, 0].max())), min(height - 1, math.ceil(corners[:, 1].max()))
    if x1 < x0 or y1 < y0:
        return 0.0
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(corners - (x0, y0)).astype(np.int32)], 1)
    return float(cv2.mean(likely[y0 : y1 + 1, x0 : x1 + 1], mask)[0])
