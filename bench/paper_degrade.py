"""How the pages of bench/paper_forms.py reach the reader: each drawing as a scanner, a phone, a fax machine or a
messenger passes it on.

A drawing is either a vector PDF (from fpdf2) or a screenshot (a PNG from Pillow). From a PDF, by poppler's pdftoppm:
a 300 dpi and a 150 dpi scan (grey, or in colour for the kinds a scanner is set to colour for); a phone photo (the
300 dpi page on a desk, turned uniformly within ±6°, seen a little off square, lit unevenly, a soft shadow across part
of it, blurred and grainy, a colour JPEG of quality 50–70); a 200 dpi 1-bit fax (turned up to 1°, blurred a little,
grainy, thresholded, with specks, now and then a streak, and the sender's header line at the top); an image PDF (each
page scanned into a PDF with no text layer) and the PDF as typed, text layer and all. From a screenshot: the PNG as
captured, and the PNG as a messenger passes it on (scaled to 720–1080 px wide, a JPEG of quality 60–85). The same
seed gives the same page.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import random
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from bench.paper_corpus import png

PDF_DEGRADATIONS = ("300dpi", "150dpi", "photo", "fax", "image-pdf", "text-pdf")
SCREEN_DEGRADATIONS = ("screen", "screen-jpeg")
FAX_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
DESK = 100  # the grey of the desk a page is photographed on, under the light's warm tint
WARM = (1.0, 0.95, 0.86)  # the light's colour: red, green and blue as parts of the grey


def rasterise(pdf: bytes, dpi: int, page: int = 1, colour: bool = False) -> Image.Image:
    """The `page`th page of `pdf` (from 1) as an image at `dpi`, grey or in colour, by `pdftoppm -r DPI` (PGM or
    PPM, which poppler writes in an eighth of the time it takes to write PNG)."""
    command = ["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", "-"]
    if not colour:
        command.insert(1, "-gray")
    pnm = subprocess.run(command, input=pdf, capture_output=True, check=True, timeout=120).stdout
    return Image.open(io.BytesIO(pnm)).convert("RGB" if colour else "L")


def _perspective(output: Sequence[tuple[float, float]], source: Sequence[tuple[float, float]]) -> list[float]:
    """The 8 coefficients of Pillow's PERSPECTIVE transform that take each point of `output` to `source`."""
    rows, values = [], []
    for (x, y), (u, v) in zip(output, source, strict=True):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        values += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows, dtype=float), np.array(values, dtype=float))]


def _light(size: tuple[int, int], rng: random.Random) -> Image.Image:
    """A field of light to multiply a photo by, 255 for full light, made at an eighth of the size and scaled up:
    an overall level of 85–100%, a gradient from a random side (its far end 15–35% dimmer), a vignette (the corners
    10–20% dimmer) and a soft-edged shadow (a hand's, a phone's) 30–55% deep over 15–40% of the frame from a
    random side."""
    width, height = max(2, size[0] // 8), max(2, size[1] // 8)
    xs = np.linspace(-1.0, 1.0, width, dtype=np.float32)[None, :]
    ys = np.linspace(-1.0, 1.0, height, dtype=np.float32)[:, None]

    def across() -> npt.NDArray[np.floating[Any]]:  # -1 to 1 across the frame from a random side
        turn = rng.uniform(0, 2 * math.pi)
        return (xs * math.cos(turn) + ys * math.sin(turn)) / math.sqrt(2)

    gradient = 1 - rng.uniform(0.15, 0.35) * (0.5 + 0.5 * across())
    vignette = 1 - rng.uniform(0.10, 0.20) * (xs**2 + ys**2) / 2
    edge, soft = rng.uniform(0.12, 0.4), rng.uniform(0.02, 0.08)
    shadow = 1 - rng.uniform(0.30, 0.55) / (1 + np.exp(-(across() - edge) / soft))
    field = np.clip(255 * gradient * vignette * shadow * rng.uniform(0.85, 1.0), 0, 255).astype(np.uint8)
    return Image.fromarray(field, "L").resize(size, Image.Resampling.BILINEAR)


def photo(page: Image.Image, seed: int) -> bytes:
    """The grey or colour `page` as a phone photographs it, a colour JPEG of quality 50–70: on a desk (3–8% of it
    showing round the page), turned uniformly within ±6°, seen a little off square (the ends of one edge drawn
    together by up to 3% of the page's size, and of the edge beside it by up to 2%: the page stays turned as it
    was), lit as `_light` says, blurred by a Gaussian of radius 0.6–1.1 px, grainy, and tinted warm. The same seed
    gives the same photo."""
    rng = random.Random(seed)
    width, height = page.size
    turn = math.radians(rng.uniform(-6.0, 6.0))
    cos, sin = math.cos(turn), math.sin(turn)
    side = max(width, height)
    near = [(0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height))]
    square = [list(corner) for corner in near]
    top_or_bottom, left_or_right = rng.choice(((0, 1), (3, 2))), rng.choice(((0, 3), (1, 2)))
    for (a, b), axis, pull in ((top_or_bottom, 0, rng.uniform(0, 0.03)), (left_or_right, 1, rng.uniform(0, 0.02))):
        inward = (square[b][axis] - square[a][axis]) / 2 * pull * side / (width if axis == 0 else height)
        square[a][axis] += inward
        square[b][axis] -= inward
    corners = [
        ((x - width / 2) * cos - (y - height / 2) * sin, (x - width / 2) * sin + (y - height / 2) * cos)
        for x, y in square
    ]
    margin = rng.uniform(0.03, 0.08) * side
    left, top = min(x for x, _ in corners) - margin, min(y for _, y in corners) - margin
    size = (math.ceil(max(x for x, _ in corners) - left + margin), math.ceil(max(y for _, y in corners) - top + margin))
    seen = [(x - left, y - top) for x, y in corners]
    desk = DESK if page.mode == "L" else (DESK, DESK, DESK)
    shot = page.transform(
        size, Image.Transform.PERSPECTIVE, _perspective(seen, near), Image.Resampling.BICUBIC, fillcolor=desk
    )
    shot = ImageChops.multiply(shot, _light(size, rng).convert(page.mode))
    shot = shot.filter(ImageFilter.GaussianBlur(rng.uniform(0.6, 1.1)))
    grain = np.random.default_rng(seed).normal(0, 3.0, (size[1], size[0])).astype(np.float32)
    pixels = np.asarray(shot, dtype=np.float32)
    pixels = pixels + (grain if page.mode == "L" else grain[:, :, None])
    shot = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), page.mode)
    bands = [shot] * 3 if page.mode == "L" else list(shot.split())
    coloured = Image.merge(
        "RGB", [band.point([round(v * k) for v in range(256)]) for band, k in zip(bands, WARM, strict=True)]
    )
    out = io.BytesIO()
    coloured.save(out, "JPEG", quality=rng.randint(50, 70))
    return out.getvalue()


def fax(page: Image.Image, seed: int, when: dt.date) -> bytes:
    """The grey 200 dpi `page` as a fax machine prints it, a 1-bit PNG: the sender's header line at the top, turned
    up to 1° as the sheet fed, blurred by a Gaussian of radius 0.4–0.8 px and grainy, cut at a threshold of
    140–175, with 300–900 specks of 1–3 px and, one time in two, a streak of dirt on the scanner's glass down part
    of the page. The same seed gives the same fax."""
    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    sent = page.convert("L").rotate(rng.uniform(-1.0, 1.0), Image.Resampling.BICUBIC, fillcolor=255)
    header = f"{when:%b-%d-%Y} 10:{rng.randint(10, 59)}  FROM : 03 5555 {rng.randint(1000, 9999)}  TO : DECK CHECK"
    ImageDraw.Draw(sent).text(
        (40, 12), f"{header.upper()}        P.001/001", fill=0, font=ImageFont.truetype(str(FAX_FONT), 22)
    )
    grey = np.asarray(sent.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 0.8))), dtype=np.float32)
    ink = grey + noise.normal(0, 12.0, grey.shape) < rng.uniform(140, 175)
    rows, cols = ink.shape
    for _ in range(rng.randint(300, 900)):
        y, x, r = rng.randrange(rows), rng.randrange(cols), rng.randint(0, 1)
        ink[max(0, y - r) : y + r + 1, max(0, x - r) : x + rng.randint(1, 2)] = True
    if rng.random() < 0.5:
        x, start = rng.randrange(cols), rng.randrange(rows // 2)
        ink[start : start + rng.randint(rows // 4, rows // 2), x] = True
    out = io.BytesIO()
    Image.fromarray(~ink).convert("1").save(out, "PNG")
    return out.getvalue()


def image_pdf(pages: Sequence[Image.Image], dpi: int, when: dt.date) -> bytes:
    """The scanned `pages` in a PDF of no text layer, a page each, as a scanner files them on the day `when`."""
    out = io.BytesIO()
    scanned = dt.datetime.combine(when, dt.time(10, 30), dt.UTC).utctimetuple()
    first, *rest = pages
    first.save(
        out, "PDF", resolution=float(dpi), creationDate=scanned, modDate=scanned, save_all=True, append_images=rest
    )
    return out.getvalue()


def screen_jpeg(shot: bytes, seed: int) -> bytes:
    """A screenshot as a messenger passes it on: scaled to 720–1080 px wide (never up), a JPEG of quality 60–85."""
    rng = random.Random(seed)
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    width = min(image.width, rng.choice((720, 750, 828, 960, 1080)))
    if width < image.width:
        image = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=rng.randint(60, 85))
    return out.getvalue()


def degrade(
    drawing: bytes,
    degradations: Sequence[str],
    seed: int,
    when: dt.date,
    *,
    pages: int = 1,
    colour: bool = False,
    image_dpi: int = 300,
) -> Iterator[tuple[str, bytes]]:
    """The `drawing` (a PDF of `pages` pages, or a screenshot's PNG) as each of `degradations` makes it, in their
    order; `seed` decides the photo, the fax and the JPEG, `when` the fax's header and the image PDF's dates. The
    scans and the photo are in colour where `colour`; the image PDF's pages are scanned at `image_dpi`."""
    high: Image.Image | None = None
    for degradation in degradations:
        wants_high = degradation in ("300dpi", "photo") or (degradation == "image-pdf" and image_dpi == 300)
        if wants_high and high is None:
            high = rasterise(drawing, 300, colour=colour)
        if degradation == "300dpi" and high is not None:
            yield degradation, png(high)
        elif degradation == "150dpi":
            yield degradation, png(rasterise(drawing, 150, colour=colour))
        elif degradation == "photo" and high is not None:
            yield degradation, photo(high, seed)
        elif degradation == "fax":
            yield degradation, fax(rasterise(drawing, 200), seed + 1, when)
        elif degradation == "image-pdf":
            scans = [rasterise(drawing, image_dpi, n, colour) for n in range(2, pages + 1)]
            first = high if high is not None and image_dpi == 300 else rasterise(drawing, image_dpi, 1, colour)
            yield degradation, image_pdf([first, *scans], image_dpi, when)
        elif degradation in ("text-pdf", "screen"):
            yield degradation, drawing
        elif degradation == "screen-jpeg":
            yield degradation, screen_jpeg(drawing, seed + 2)
        else:
            raise ValueError(f"no degradation is called {degradation!r}")
