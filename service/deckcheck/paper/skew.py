"""A photographed page's layout read upright. A page photographed a few degrees off, or fed askew, has its runs of
text found and read where they stand; their places are then turned about the page's middle by the angle its text
runs at (the median of its long runs', rows.angle_of), so that headings stand over their lines, columns start at
one left edge and a form's rules run straight across and down, and the page's ruled tables are looked for on the
picture turned the same way. What the answer says stands where (lines, headings, the lines passed over, cells) is
turned back into the picture's own pixels, each as the upright box that holds it there.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from deckcheck.paper.detect import Quad
from deckcheck.paper.rows import Run, angle_of

SKEW = 0.004  # radians (about a quarter of a degree): a page's text turned less is read as it stands

Box = tuple[int, int, int, int]  # left, top, width, height in the page's pixels


@dataclass(frozen=True, slots=True)
class Turn:
    """How a page is turned upright: by `angle` (the angle its text runs at, clockwise positive) about `centre`."""

    angle: float
    centre: tuple[float, float]

    def _moved(self, x: float, y: float, back: bool = False) -> tuple[float, float]:
        """A point turned upright (or, `back`, from upright into the picture)."""
        turn = -self.angle if back else self.angle
        cos, sin = math.cos(turn), math.sin(turn)
        dx, dy = x - self.centre[0], y - self.centre[1]
        return self.centre[0] + dx * cos + dy * sin, self.centre[1] - dx * sin + dy * cos

    def run(self, run: Run) -> Run:
        """A run where it stands upright, the bar it is set on too."""
        quad = Quad(tuple(self._moved(x, y) for x, y in run.quad.points))
        bar = run.bar
        if bar is not None:
            middle = run.quad.centre[1]
            bar = (round(self._moved(bar[0], middle)[0]), round(self._moved(bar[1], middle)[0]))
        return dataclasses.replace(run, quad=quad, bar=bar)

    def back(self, box: Box) -> Box:
        """An upright box's place in the picture: the upright box there that holds it turned back."""
        left, top, width, height = box
        right, bottom = left + width, top + height
        corners = [self._moved(x, y, back=True) for x, y in _corners(left, top, right, bottom)]
        xs, ys = [x for x, _y in corners], [y for _x, y in corners]
        x0, y0 = math.floor(min(xs)), math.floor(min(ys))
        return x0, y0, math.ceil(max(xs)) - x0, math.ceil(max(ys)) - y0

    def picture(self, grey: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """The grey picture turned upright, as large as it was (its corners filled with the edge's own grey)."""
        import cv2  # noqa: PLC0415 - OpenCV comes with the paper extra

        cos, sin = math.cos(self.angle), math.sin(self.angle)
        cx, cy = self.centre
        forward = np.array([[cos, sin, cx - cx * cos - cy * sin], [-sin, cos, cy + cx * sin - cy * cos]])
        height, width = grey.shape
        turned = cv2.warpAffine(grey, forward, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(turned, np.uint8)


def turn_for(runs: Sequence[Run], size: tuple[int, int]) -> Turn | None:
    """How the page of `size` (width, height) whose runs these are is turned upright, None where its text runs
    within SKEW of level."""
    angle = angle_of(runs)
    if abs(angle) < SKEW:
        return None
    return Turn(angle, (size[0] / 2, size[1] / 2))


def _corners(left: float, top: float, right: float, bottom: float) -> tuple[tuple[float, float], ...]:
    return (left, top), (right, top), (right, bottom), (left, bottom)
