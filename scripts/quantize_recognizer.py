"""Write the reader's 8-bit recognizer, service/deckcheck/paper/weights/rec-int8.onnx, from the PP-OCRv6 small
recognizer that rapidocr carries in its wheel: `python -m scripts.quantize_recognizer [--decks 1]`.

The model is brought to ONNX opset 17 (the one it ships in, 11, has no per-channel quantized convolution), its shapes
inferred, and quantized statically (ONNX Runtime's QDQ format: weights signed 8-bit per channel, activations unsigned
8-bit), each activation's range calibrated on runs of text as the reader cuts them (paper/crop.py `cut`) from
pages bench/paper_forms.py draws: `--decks` decks in every kind the benchmark shows (never the held-out ones), each in
every degradation, at most CROPS_A_PAGE runs of a page. It reads about 1.8 times as fast as the model it comes from;
docs/benchmarks.md gives the figures. The file and the record of how it was made (rec-int8.json: the source model's
SHA-256, the versions, the pages) are written beside each other; run it again when rapidocr's model changes.

Needs `pip install onnx` beyond the paper extra (the development extra has it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.metadata
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import orjson

from deckcheck.paper import crop, detect, models, recognise
from deckcheck.paper.decoding import read_pages

WEIGHTS = Path(__file__).resolve().parent.parent / "service" / "deckcheck" / "paper" / "weights"
CROPS_A_PAGE = 12  # runs of a page calibrated on, spread over it
OPSET = 17


def crops(decks: int) -> Iterator[tuple[str, np.ndarray]]:
    """The runs of text of the benchmark's pages, as the reader cuts them, with the page each is from."""
    from bench.paper_forms import VISIBLE, pages  # noqa: PLC0415 - the benchmark draws with fonts scripts/bench-deps installs

    for drawn in pages(decks, VISIBLE):
        if drawn.degradation == "text-pdf":
            continue
        for image in read_pages(drawn.page.content, time.monotonic() + 120).images:
            grey = detect.even(np.asarray(image.convert("L")))
            found = detect.find(grey, time.monotonic() + 120)
            for quad in found[:: max(1, len(found) // CROPS_A_PAGE)]:
                yield f"{drawn.page.deck} {drawn.kind} {drawn.degradation}", crop.cut(grey, quad)


def main() -> None:
    """Quantize the recognizer and write it with its record."""
    import onnx  # noqa: PLC0415
    from onnx import version_converter  # noqa: PLC0415
    from onnxruntime.quantization import (  # type: ignore[import-untyped]  # noqa: PLC0415
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import (  # type: ignore[import-untyped]  # noqa: PLC0415
        quant_pre_process,
    )

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=1, help="decks of the benchmark calibrated on (default 1)")
    args = parser.parse_args()
    source = models.folder() / models.RECOGNIZER
    session = models.session(models.RECOGNIZER)
    name = session.get_inputs()[0].name
    cut = list(crops(args.decks))
    print(f"{len(cut)} runs of text from {len({page for page, _crop in cut})} pages", file=sys.stderr)

    class Runs(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.left = iter(cut)

        def get_next(self) -> dict[str, np.ndarray] | None:
            found = next(self.left, None)
            if found is None:
                return None
            return {name: recognise.batch([found[1]])}

    WEIGHTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        upgraded, shaped = Path(folder) / "opset.onnx", Path(folder) / "shaped.onnx"
        onnx.save(version_converter.convert_version(onnx.load(str(source)), OPSET), str(upgraded))
        quant_pre_process(str(upgraded), str(shaped), skip_symbolic_shape=True)
        quantize_static(
            str(shaped),
            str(WEIGHTS / models.QUANTIZED),
            Runs(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
        )
    record = {
        "written": dt.date.today().isoformat(),
        "source": f"rapidocr {importlib.metadata.version('rapidocr')}: models/{models.RECOGNIZER}",
        "source_sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
        "sha256": hashlib.sha256((WEIGHTS / models.QUANTIZED).read_bytes()).hexdigest(),
        "onnx": importlib.metadata.version("onnx"),
        "onnxruntime": importlib.metadata.version("onnxruntime"),
        "opset": OPSET,
        "calibration": {"command": f"python -m scripts.quantize_recognizer --decks {args.decks}", "runs": len(cut)},
    }
    (WEIGHTS / "rec-int8.json").write_bytes(orjson.dumps(record, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"wrote {WEIGHTS / models.QUANTIZED}", file=sys.stderr)


if __name__ == "__main__":
    main()
