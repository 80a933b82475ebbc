"""The PP-OCR models the reader runs: the text detector (DBNet) and the text recognizer (PP-OCRv6 small), as rapidocr
carries them in its wheel, so that nothing is downloaded; and the recognizer quantized to 8 bits
(scripts/quantize_recognizer.py), which the project keeps in paper/weights/ with the record of how it was made. Each
is run on ONNX Runtime, one thread a session, one session of each per thread (a session is slow to start and not to
be shared between two reads at once).

rapidocr's own pipeline is not used: the reader needs the detector's boxes for any page shape and the recognizer's
likelihood of each character, which its pipeline does not give, and it pads every line to 320 pixels, which
triples the cost of a count's cell (docs/benchmarks.md, Reading paper as players send it).
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Any

DETECTOR = "PP-OCRv6_det_small.onnx"
RECOGNIZER = "PP-OCRv6_rec_small.onnx"
QUANTIZED = "rec-int8.onnx"  # RECOGNIZER in 8 bits: the first reading of every run
WEIGHTS = Path(__file__).resolve().parent / "weights"
_sessions = threading.local()


@functools.cache
def folder() -> Path:
    """rapidocr's folder of models (its package loads none of its pipeline until asked)."""
    import rapidocr  # noqa: PLC0415

    return Path(rapidocr.__file__).resolve().parent / "models"


def _path(name: str) -> Path:
    return WEIGHTS / name if name == QUANTIZED else folder() / name


def session(name: str) -> Any:
    """This thread's ONNX Runtime session of the model `name` (DETECTOR, RECOGNIZER or QUANTIZED), on one thread."""
    held = getattr(_sessions, name, None)
    if held is None:
        import onnxruntime  # type: ignore[import-untyped]  # noqa: PLC0415 - only a server that reads paper loads it

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        held = onnxruntime.InferenceSession(str(_path(name)), options, providers=["CPUExecutionProvider"])
        setattr(_sessions, name, held)
    return held


@functools.cache
def characters() -> tuple[str, ...]:
    """The recognizer's characters by class: the CTC blank first, then its dictionary, then a space."""
    meta = session(RECOGNIZER).get_modelmeta().custom_metadata_map
    return ("", *meta["character"].splitlines(), " ")
