"""The pages of a photo, a scan or a PDF sent to be read, each as a grey image, every step bounded.

An image is PNG or JPEG, told by its bytes (never by what the client says it is), of at most MAX_PIXELS pixels,
refused from its header before a pixel is decoded, so a decompression bomb costs nothing; a phone's EXIF rotation is
applied. A PDF is rasterised by poppler's pdftoppm, at most MAX_PAGES pages, its longer side PAGE_PIXELS pixels
(about 300 dpi on A4, whatever size the PDF says its page is), in a process of its own limited in memory and CPU
time and ended at the request's deadline.
"""

from __future__ import annotations

import io
import re
import resource
import subprocess
import time
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps

MAX_PIXELS = 50_000_000  # a 48-megapixel phone photo; a 300 dpi A4 scan is 8.7 million
MAX_PAGES = 2  # pages of a PDF read (a registration sheet is one); the answer names how many it has
PAGE_PIXELS = 3508  # the longer side of a PDF page as rasterised: A4 at 300 dpi
PDF_MEMORY = 1024 * 1024 * 1024  # bytes of address space pdftoppm may take
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"
_PDF = b"%PDF-"


class PaperError(Exception):
    """The file cannot be read: `kind` is the error's type (not_an_image, too_many_pixels, unreadable_image,
    unreadable_pdf, read_timeout), `status` the HTTP status it is answered with."""

    def __init__(self, kind: str, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status


@dataclass(frozen=True, slots=True)
class Pages:
    """The pages read from a file, each a grey image, and how many the file has (a PDF may have more than read)."""

    kind: str  # png, jpeg or pdf
    images: tuple[Image.Image, ...]
    total: int


def kind_of(content: bytes) -> str:
    """png, jpeg or pdf, by the file's first bytes; PaperError not_an_image for anything else."""
    if content.startswith(_PNG):
        return "png"
    if content.startswith(_JPEG):
        return "jpeg"
    if content.lstrip(b"\r\n\t ").startswith(_PDF):
        return "pdf"
    raise PaperError("not_an_image", "the file is not a PNG or JPEG image or a PDF", 415)


def read_pages(content: bytes, deadline: float) -> Pages:
    """The pages of `content` as grey images; PaperError when it is no image, too large or unreadable, or when
    reading it would pass `deadline` (time.monotonic())."""
    kind = kind_of(content)
    if kind == "pdf":
        images, total = _pdf_pages(content, deadline)
        return Pages(kind, images, total)
    return Pages(kind, (_image(content),), 1)


def _image(content: bytes) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(content))
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise PaperError(
                    "too_many_pixels", f"the image is {width}×{height} pixels; at most {MAX_PIXELS:,} are read"
                )
            if image.format == "JPEG":
                image.draft("L", image.size)  # a JPEG decodes straight to grey
            image.load()
            return ImageOps.exif_transpose(image).convert("L")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PaperError("too_many_pixels", f"the image has more than {MAX_PIXELS:,} pixels") from None
    except (OSError, ValueError, SyntaxError) as exc:  # what Pillow raises for a broken or truncated file
        raise PaperError("unreadable_image", f"the image cannot be read ({exc})") from None


def _limits() -> None:  # pragma: no cover - runs in the child process
    resource.setrlimit(resource.RLIMIT_AS, (PDF_MEMORY, PDF_MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


def _run(argv: list[str], content: bytes, deadline: float) -> bytes:
    """What `argv` writes with `content` on its standard input, ended at `deadline`."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise PaperError("read_timeout", "the time to read this file ran out", 504)
    try:
        done = subprocess.run(  # a fixed program, the file only on its standard input
            argv, input=content, capture_output=True, timeout=left, preexec_fn=_limits, check=False
        )
    except subprocess.TimeoutExpired:
        raise PaperError("read_timeout", "the time to read this PDF ran out", 504) from None
    except FileNotFoundError:
        raise PaperError("ocr_unavailable", f"{argv[0]} (poppler-utils) is not installed", 503) from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no pages"]
        raise PaperError("unreadable_pdf", f"the PDF cannot be read ({reason[0]})")
    return done.stdout


def _pdf_pages(content: bytes, deadline: float) -> tuple[tuple[Image.Image, ...], int]:
    info = _run(["pdfinfo", "-"], content, deadline).decode("utf-8", "replace")
    found = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
    total = int(found.group(1)) if found else 0
    if total < 1:
        raise PaperError("unreadable_pdf", "the PDF has no pages")
    pages = []
    for number in range(1, min(total, MAX_PAGES) + 1):
        argv = ["pdftoppm", "-f", str(number), "-l", str(number), "-scale-to", str(PAGE_PIXELS), "-gray", "-"]
        pages.append(_netpbm(_run(argv, content, deadline)))
    return tuple(pages), total


def _netpbm(raw: bytes) -> Image.Image:
    """The grey image pdftoppm wrote (PGM)."""
    try:
        image = Image.open(io.BytesIO(raw))
        image.load()
    except (OSError, ValueError) as exc:
        raise PaperError("unreadable_pdf", f"the PDF's page cannot be read ({exc})") from None
    return image.convert("L")
