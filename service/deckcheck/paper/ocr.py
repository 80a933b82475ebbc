"""Tesseract, the second reader: a count the PP-OCR recognizer read without enough sureness is read again by
Tesseract alone, as digits (Debian's tesseract-ocr-eng through tesserocr, its LSTM model held to the ten digits),
and stands where the two engines, which share nothing, read it alike (paper/runs.py). One engine is kept per
thread, since one is slow to start. Without Tesseract's language data such a count stays to confirm.

Also the word a PDF's text layer gives, with where it stands (paper/layer.py, paper/fields.py).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image

TESSDATA = Path(os.environ.get("TESSDATA_PREFIX", "/usr/share/tesseract-ocr/5/tessdata"))
DIGITS_LANGUAGE = "eng"
HEIGHT = 48  # pixels high a crop is read at
_engines = threading.local()


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a PDF's text layer (or a form field's value), its box in the page's pixels, and how sure it is
    (0 to 100)."""

    text: str
    left: int
    top: int
    right: int
    bottom: int
    confidence: float


def available() -> bool:
    """Whether Tesseract's English language data, which it reads digits with, are installed."""
    return (TESSDATA / f"{DIGITS_LANGUAGE}.traineddata").is_file()


def _engine() -> Any:
    """This thread's Tesseract, one line held to digits."""
    api = getattr(_engines, "digits", None)
    if api is None:
        import tesserocr  # noqa: PLC0415 - loads Tesseract itself: only a server that reads paper pays for it

        api = tesserocr.PyTessBaseAPI(
            path=str(TESSDATA), lang=DIGITS_LANGUAGE, psm=tesserocr.PSM.SINGLE_LINE, oem=tesserocr.OEM.LSTM_ONLY
        )
        api.SetVariable("tessedit_char_whitelist", "0123456789")
        _engines.digits = api
    return api


def digits(crop: NDArray[np.uint8]) -> tuple[str, float]:
    """The digits Tesseract reads in a grey crop (dark on light) and its confidence in them, 0 to 100; nothing
    without Tesseract's language data."""
    if not available() or crop.size == 0:
        return "", 0.0
    scale = HEIGHT / max(1, crop.shape[0])
    size = (max(1, round(crop.shape[1] * scale)), HEIGHT)
    framed = Image.new("L", (size[0] + HEIGHT, 2 * HEIGHT), 255)  # Tesseract finds nothing in ink at its edge
    framed.paste(Image.fromarray(crop).resize(size, Image.Resampling.BICUBIC), (HEIGHT // 2, HEIGHT // 2))
    api = _engine()
    api.SetImage(framed)
    text = (api.GetUTF8Text() or "").strip()
    confidence = float(api.MeanTextConf())
    api.Clear()
    return text, confidence
