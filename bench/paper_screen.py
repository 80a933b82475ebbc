"""What a phone's screenshot is drawn with, in Pillow: the faces, the colours of a dark and a light theme, and the
furniture every screen has (the status bar, icons, the gesture bar), for bench/paper_app.py and the other screens of
bench/paper_forms.py.

A screen is laid out in points (iOS) or dp (Android) and drawn at 3 px a point: 1170 px wide for an iPhone's 390
points, 1080 px for an Android phone's 360 dp. Text is set in one face (a bold file where it has one, else the
regular one stroked), shrunk to a width where asked; the faces are checked for every character set in them, so that
no name is drawn as empty boxes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont

from bench.paper_forms_draw import JA_FONTS, RGB, DoesNotFit, Font

_FONTS = Path("/usr/share/fonts")
_NOTO = _FONTS / "opentype/noto"
_DEJAVU = _FONTS / "truetype/dejavu"
_LIBERATION = _FONTS / "truetype/liberation"
NOTO_JP = Font("Noto Sans CJK JP", _NOTO / "NotoSansCJK-Regular.ttc", "ja", _NOTO / "NotoSansCJK-Bold.ttc")
SCREEN_FONTS = {
    "ja": (
        NOTO_JP,
        JA_FONTS[0],
        Font("IPAPGothic", _FONTS / "opentype/ipafont-gothic/ipagp.ttf", "ja"),
    ),
    "en": (
        Font(
            "Liberation Sans", _LIBERATION / "LiberationSans-Regular.ttf", "en", _LIBERATION / "LiberationSans-Bold.ttf"
        ),
        Font("DejaVu Sans", _DEJAVU / "DejaVuSans.ttf", "en", _DEJAVU / "DejaVuSans-Bold.ttf"),
        Font("Noto Sans CJK JP (Latin)", NOTO_JP.path, "en", NOTO_JP.bold),
    ),
}
SCALE = 3.0  # px a point (iOS) or a dp (Android)


@dataclass(frozen=True, slots=True)
class Icon:
    """A line icon in units of half its size about its centre: polylines, outlined and filled circles (centre and
    radius) and outlined rounded boxes (corners)."""

    strokes: tuple[tuple[tuple[float, float], ...], ...] = ()
    rings: tuple[tuple[float, float, float], ...] = ()
    dots: tuple[tuple[float, float, float], ...] = ()
    boxes: tuple[tuple[float, float, float, float], ...] = ()


_TEETH = tuple(
    ((0.5 * math.cos(k * math.pi / 4), 0.5 * math.sin(k * math.pi / 4)),
     (0.9 * math.cos(k * math.pi / 4), 0.9 * math.sin(k * math.pi / 4)))
    for k in range(8)
)  # fmt: skip
_MOUTH = tuple((0.45 * math.cos(t / 8 * math.pi), 0.1 + 0.35 * math.sin(t / 8 * math.pi)) for t in range(1, 8))
ICONS = {
    "back": Icon(strokes=(((0.6, 0), (-0.7, 0)), ((-0.1, -0.6), (-0.7, 0), (-0.1, 0.6)))),
    "chevron": Icon(strokes=(((0.3, -0.8), (-0.4, 0), (0.3, 0.8)),)),
    "share": Icon(
        strokes=(
            ((-0.6, -0.1), (-0.6, 1), (0.6, 1), (0.6, -0.1)),
            ((0, 0.3), (0, -1)),
            ((-0.4, -0.6), (0, -1), (0.4, -0.6)),
        )
    ),
    "more": Icon(dots=((0, -0.6, 0.14), (0, 0, 0.14), (0, 0.6, 0.14))),
    "menu": Icon(strokes=(((-0.8, -0.55), (0.8, -0.55)), ((-0.8, 0), (0.8, 0)), ((-0.8, 0.55), (0.8, 0.55)))),
    "home": Icon(strokes=(((-1, -0.05), (0, -0.9), (1, -0.05)), ((-0.7, -0.3), (-0.7, 0.8), (0.7, 0.8), (0.7, -0.3)))),
    "cards": Icon(boxes=((-0.8, -0.6, 0.3, 0.9), (-0.3, -0.95, 0.8, 0.55))),
    "search": Icon(strokes=(((0.3, 0.3), (0.9, 0.9)),), rings=((-0.15, -0.15, 0.6),)),
    "settings": Icon(strokes=_TEETH, rings=((0, 0, 0.55),), dots=((0, 0, 0.18),)),
    "plus": Icon(strokes=(((-0.7, 0), (0.7, 0)), ((0, -0.7), (0, 0.7)))),
    "camera": Icon(boxes=((-1, -0.55, 1, 0.75),), rings=((0, 0.1, 0.35),)),
    "smile": Icon(strokes=(_MOUTH,), rings=((0, 0, 0.9),), dots=((-0.3, -0.2, 0.1), (0.3, -0.2, 0.1))),
}


@dataclass(frozen=True, slots=True)
class Theme:
    """A screen's colours."""

    dark: bool
    background: RGB
    surface: RGB  # a bar's, a card's or a bubble's ground
    text: RGB
    secondary: RGB
    divider: RGB
    accent: RGB
    on_accent: RGB


ACCENTS: tuple[RGB, ...] = ((10, 132, 255), (98, 0, 238), (0, 150, 136), (230, 81, 0), (214, 48, 49))


def theme(dark: bool, rng: random.Random) -> Theme:
    """A dark theme (light text on a near-black ground, #121212 to #1e1e1e) or a light one (dark text on white or
    light grey), with an accent colour."""
    accent = rng.choice(ACCENTS)
    if dark:
        ground = rng.randint(0x12, 0x1E)
        return Theme(
            True,
            (ground, ground, ground + rng.randint(0, 2)),
            (ground + 14, ground + 14, ground + 16),
            (232, 232, 235),
            (150, 150, 156),
            (ground + 24, ground + 24, ground + 26),
            tuple(min(255, c + 60) for c in accent),  # type: ignore[arg-type]
            (255, 255, 255),
        )
    ground = rng.choice((255, 248, 242))
    return Theme(
        False,
        (ground, ground, ground + (2 if ground < 255 else 0)),
        (255, 255, 255) if ground < 255 else (246, 246, 248),
        (20, 20, 22),
        (110, 110, 116),
        (222, 222, 226),
        accent,
        (255, 255, 255),
    )


@cache
def _cmap(path: Path, index: int) -> frozenset[int]:
    font = TTFont(path, fontNumber=index, lazy=True)
    return frozenset(font.getBestCmap())


def glyphs(font: Font) -> frozenset[int]:
    """The characters `font` has a glyph for."""
    return _cmap(font.path, font.index)


def check_covers(font: Font, texts: Sequence[str]) -> None:
    """DoesNotFit where `font` lacks a character of `texts`."""
    held = glyphs(font)
    missing = {c for text in texts for c in text if not c.isspace() and ord(c) not in held}
    if missing:
        raise DoesNotFit(f"{font.name} lacks {''.join(sorted(missing))!r}")


@cache
def _truetype(path: Path, index: int, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), px, index=index)


class Screen:
    """A screenshot being drawn, `width` px wide and `height` tall, laid out in points of SCALE px, set in `font`."""

    def __init__(self, width: int, height: float, font: Font, colours: Theme) -> None:
        self.width = width / SCALE  # in points
        self.image = Image.new("RGB", (width, round(height * SCALE)), colours.background)
        self.draw = ImageDraw.Draw(self.image)
        self.font = font
        self.theme = colours

    def face(self, size: float, bold: bool = False, font: Font | None = None) -> ImageFont.FreeTypeFont:
        """The face (the screen's, or `font`) at `size` points, bold from a bold file where it has one."""
        font = font or self.font
        path = font.bold if bold and font.bold is not None else font.path
        return _truetype(path, font.index, round(size * SCALE))

    def measure(self, text: str, size: float, bold: bool = False, font: Font | None = None) -> float:
        """How wide `text` sets, in points."""
        return float(self.face(size, bold, font).getlength(text)) / SCALE

    def text(
        self,
        at: tuple[float, float],
        text: str,
        size: float,
        fill: RGB,
        *,
        bold: bool = False,
        anchor: str = "lm",
        width: float | None = None,
        font: Font | None = None,
    ) -> float:
        """Set `text` at `at` (points; by Pillow's `anchor`, left and middle by default) in the screen's face or
        `font`, shrunk to `width` where given; how wide it set."""
        wide = self.measure(text, size, bold, font)
        if width is not None and wide > width:
            size *= width / wide
            wide = width
        stroke = round(size * SCALE * 0.035) if bold and (font or self.font).bold is None else 0
        x, y = at
        self.draw.text(
            (x * SCALE, y * SCALE),
            text,
            fill=fill,
            font=self.face(size, bold, font),
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=fill,
        )
        return wide

    def box(
        self,
        xy: tuple[float, float, float, float],
        fill: RGB | None,
        *,
        radius: float = 0,
        outline: RGB | None = None,
        line: float = 1,
    ) -> None:
        """A rectangle from (x0, y0) to (x1, y1) in points, its corners rounded by `radius` points."""
        x0, y0, x1, y1 = (v * SCALE for v in xy)
        width = max(1, round(line * SCALE)) if outline is not None else 0
        self.draw.rounded_rectangle((x0, y0, x1, y1), radius * SCALE, fill=fill, outline=outline, width=width)

    def rule(self, points: Sequence[tuple[float, float]], fill: RGB, line: float = 1) -> None:
        """A line through `points`, `line` points thick."""
        self.draw.line([(x * SCALE, y * SCALE) for x, y in points], fill=fill, width=max(1, round(line * SCALE)))

    def dot(self, at: tuple[float, float], radius: float, fill: RGB | None, outline: RGB | None = None) -> None:
        """A circle of `radius` points about `at`, filled or outlined."""
        x, y = at
        box = ((x - radius) * SCALE, (y - radius) * SCALE, (x + radius) * SCALE, (y + radius) * SCALE)
        self.draw.ellipse(box, fill=fill, outline=outline, width=0 if outline is None else max(1, round(SCALE * 1.5)))

    def icon(self, name: str, at: tuple[float, float], size: float, fill: RGB) -> None:
        """A line icon of ICONS, `size` points across, centred on `at`."""
        x, y = at
        h = size / 2
        weight = max(1.2, size / 12)
        drawing = ICONS[name]
        for stroke in drawing.strokes:
            self.rule([(x + u * h, y + v * h) for u, v in stroke], fill, weight)
        for u, v, r in drawing.rings:
            self.dot((x + u * h, y + v * h), r * h, None, fill)
        for u, v, r in drawing.dots:
            self.dot((x + u * h, y + v * h), r * h, fill)
        for u0, v0, u1, v1 in drawing.boxes:
            self.box((x + u0 * h, y + v0 * h, x + u1 * h, y + v1 * h), None, radius=2, outline=fill, line=weight)

    def status_bar(self, ios: bool, clock: str, battery: int, ground: RGB | None = None) -> float:
        """The phone's status bar along the top, on `ground` (the screen's background where None): the time on the
        left, the signal, the wifi and the battery on the right (with its level in per cent on Android, and in
        per cent beside it on an iPhone every other time); where it ends, in points."""
        height = 47.0 if ios else 28.0
        ink = self.theme.text
        if ground is not None:
            self.box((0, 0, self.width, height), ground)
        mid = height * (0.58 if ios else 0.5)
        self.text((32 if ios else 16, mid), clock, 16 if ios else 13, ink, bold=ios, anchor="lm")
        right = self.width - (28 if ios else 14)
        # The battery: a rounded outline, filled to its level, its nub on the right.
        bw, bh = (25.0, 12.0) if ios else (11.0, 18.0)
        if ios:
            self.box((right - bw, mid - bh / 2, right, mid + bh / 2), None, radius=3.5, outline=ink, line=1)
            self.box(
                (right - bw + 2, mid - bh / 2 + 2, right - bw + 2 + (bw - 4) * battery / 100, mid + bh / 2 - 2),
                ink,
                radius=2,
            )
            self.box((right + 1, mid - 2, right + 2.5, mid + 2), ink, radius=1)
            at = right - bw - 6
            if battery % 2:
                at -= self.text((at, mid), f"{battery}%", 12, ink, anchor="rm") + 4
        else:
            self.box((right - bw, mid - bh / 2 + 1, right, mid + bh / 2), None, radius=2, outline=ink, line=1)
            self.box((right - bw + 2, mid + bh / 2 - 2 - (bh - 4) * battery / 100, right - 2, mid + bh / 2 - 2), ink)
            self.box((right - bw / 2 - 2, mid - bh / 2 - 1, right - bw / 2 + 2, mid - bh / 2 + 1), ink)
            at = right - bw - 4
            at -= self.text((at, mid), f"{battery}%", 12, ink, anchor="rm") + 6
        # The wifi: three arcs over a dot.
        for k, r in enumerate((3.0, 6.5, 10.0)):
            cx, cy = at - 10, mid + 5
            if k == 0:
                self.dot((cx, cy - 1), 2.2, ink)
                continue
            self.draw.arc(
                ((cx - r) * SCALE, (cy - r - 1) * SCALE, (cx + r) * SCALE, (cy + r - 1) * SCALE),
                225,
                315,
                fill=ink,
                width=round(2 * SCALE),
            )
        at -= 26
        # The signal: four bars, rising.
        for k in range(4):
            left = at - 17 + k * 4.5
            self.box((left, mid + 5 - 3 - k * 2.3, left + 3, mid + 5), ink if k < 3 else self.theme.secondary, radius=1)
        return height

    def gesture_bar(self, ios: bool, bottom: float) -> None:
        """The home indicator (iOS) or the gesture handle (Android) above `bottom`."""
        width = 134.0 if ios else 108.0
        y = bottom - (8.0 if ios else 6.0)
        centre = self.width / 2
        self.box((centre - width / 2, y - 5, centre + width / 2, y), self.theme.text, radius=2.5)
