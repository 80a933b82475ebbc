"""The second reader of a line Tesseract left uncertain: the PP-OCR text recognizer that rapidocr carries in its wheel
(its models and dictionary ship in the package: nothing is downloaded), run on ONNX Runtime on one thread.

On card-name lines it names the card and its count far more often than Tesseract's line reading, Japanese lines in
Mincho above all, and never a wrong card for sure; but it costs more a line, and PP-OCR's own detector costs seconds
and a gigabyte a page (docs/benchmarks.md, Figures the guides quote). So Tesseract stays the page's reader, and this
one reads again only the lines that did not settle.

Its dictionary holds Chinese forms a card's name never has (增 for 増, 肃 for 粛); its output is held to the
characters that card names, counts and list marks are written in, by zeroing every other character's probability at
each step before the CTC decoding.
"""

from __future__ import annotations

import threading
import unicodedata
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from deckcheck.data import CardIndex
from deckcheck.data.memo import kept_with

MARKS = "0123456789 xX×*・-－ー《》「」『』【】()（）[]枚:：,.'&!?\"“”/"  # counts and list marks, beside the names
_engines = threading.local()


def available() -> bool:
    """Whether rapidocr and ONNX Runtime are installed."""
    try:
        import onnxruntime  # type: ignore[import-untyped]  # noqa: F401, PLC0415
        import rapidocr  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


@kept_with(maxsize=1)
def _allowed(cards: CardIndex) -> frozenset[str]:
    """Every character a card's name is written in, as printed and as NFKC folds it, and the marks of a list."""
    chars = set(MARKS)
    for card in cards.by_passcode.values():
        for name in (card.name_ja, card.name_en):
            chars.update(name)
            chars.update(unicodedata.normalize("NFKC", name))
    return frozenset(chars)


class _Held:
    """The recognizer's CTC decoding with every character outside `allowed` given no probability (the blank kept)."""

    def __init__(self, decode: Any, allowed: frozenset[str]) -> None:
        self.decode = decode
        characters = decode.character
        keep = [at == 0 or char in allowed for at, char in enumerate(characters)]
        self.keep: NDArray[np.float32] = np.asarray(keep, dtype=np.float32)

    def __call__(self, preds: Any, *args: Any, **kwargs: Any) -> Any:
        return self.decode(preds * self.keep, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.decode, name)


def _engine(cards: CardIndex) -> Any:
    """This thread's recognizer, held to the characters of `cards`' names (kept per thread: one is slow to start)."""
    engine = getattr(_engines, "rapid", None)
    if engine is None or getattr(_engines, "cards", None) is not cards:
        from rapidocr import RapidOCR  # noqa: PLC0415 - ONNX Runtime and the models load with the first line read

        engine = RapidOCR(
            params={
                "Global.log_level": "warning",
                "Global.use_cls": False,
                "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            }
        )
        engine(np.full((48, 96, 3), 255, dtype=np.uint8), use_det=False, use_cls=False, use_rec=True)  # builds it
        recognizer: Any = engine.text_rec  # built by the read just made
        recognizer.postprocess_op = _Held(recognizer.postprocess_op, _allowed(cards))
        _engines.rapid, _engines.cards = engine, cards
    return engine


def read_line(crop: Image.Image, cards: CardIndex) -> tuple[str, float]:
    """The text of one printed line (a grey crop of it) and the recognizer's confidence in it, 0 to 100."""
    rgb = np.repeat(np.asarray(crop.convert("L"))[:, :, None], 3, axis=2)
    found = _engine(cards)(rgb, use_det=False, use_cls=False, use_rec=True)
    texts: list[Any] = list(found.txts or ())
    scores: list[Any] = list(found.scores or ())
    if not texts:
        return "", 0.0
    return str(texts[0]).strip(), round(100 * float(scores[0]), 1)
