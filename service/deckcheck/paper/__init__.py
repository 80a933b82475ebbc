"""Paper at the desk: a deck registration sheet printed as a PDF (`sheet`), and a printed list read back from a
photo, a scan or a PDF (`read`): its QR code first, which is exact, else its lines by OCR, each uncertain line
marked for staff to confirm. Part of the core: it imports no web framework.

Its modules need the paper extra (`pip install 'deckcheck[paper]'`: Pillow, zxing-cpp, rapidocr with ONNX Runtime and
OpenCV, tesserocr, fpdf2, pypdf). This front door needs none of it: it holds the bounds the API documents and `require`,
which names what is missing, so that a service installed without the extra serves everything else.
"""

from __future__ import annotations

import collections.abc
import functools
import importlib.util

import deckcheck.errors

MAX_PIXELS = 50_000_000  # a 48-megapixel phone photo; a 300 dpi A4 scan is 8.7 million
MAX_PAGES = 2  # pages of a PDF read (a registration sheet is one); the answer names how many it has
# What reading a printed list imports, and what printing a sheet imports, each module by the package that installs it:
# the PP-OCR models that rapidocr carries, run on ONNX Runtime, and OpenCV, which the reader calls itself to cut and
# clean the page and its lines. pypdf reads form fields in a process of its own, and tesserocr is the second reader of
# a count: without them a read is poorer, never refused.
READING = {
    "PIL": "pillow",
    "zxingcpp": "zxing-cpp",
    "rapidocr": "rapidocr",
    "onnxruntime": "onnxruntime",
    "cv2": "opencv-python-headless",
}
PRINTING = {"fpdf": "fpdf2"}
EXTRA = "pip install 'deckcheck[paper]'"


def require(doing: str, needs: collections.abc.Mapping[str, str]) -> None:
    """Return when every module of `needs` is installed; else raise PaperUnavailable saying that `doing` needs the
    paper extra, and which of its packages are missing."""
    missing = [package for module, package in needs.items() if not _installed(module)]
    if missing:
        message = f"{doing} needs the paper extra (missing: {', '.join(missing)}): {EXTRA}"
        raise deckcheck.errors.PaperUnavailable("paper_unavailable", message)


@functools.cache  # what is installed does not change while a process runs; a lookup costs a walk of sys.path
def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False
