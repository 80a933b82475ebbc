"""The pages of a photo, a scan or a PDF sent to be read, each as a grey image, every step bounded.

An image is PNG or JPEG, told by its bytes (never by what the client says it is), of at most MAX_PIXELS pixels,
refused from its header before a pixel is decoded, so a decompression bomb costs nothing; a phone's EXIF rotation is
applied. Its chunks (a JPEG's marker segments) are walked before Pillow sees it: a file of more than MAX_CHUNKS, or a
JPEG of more than MAX_SCANS scans, is refused at once, and the decoder is fed one scan at a time, never past the
request's deadline, so no file of the allowed size holds a reader past its budget. A PDF is rasterised by poppler's
pdftoppm, at most MAX_PAGES pages, its longer side PAGE_PIXELS pixels (about 300 dpi on A4, whatever size the PDF
says its page is), in a process of its own limited in memory and CPU time and ended at the request's deadline.
"""

from __future__ import annotations

import bisect
import io
import re
import resource
import struct
import subprocess
import time
import warnings
from dataclasses import dataclass
from typing import Any

from PIL import Image

from deckcheck.errors import NotAnImage, PaperTimedOut, PaperUnavailable, PaperUnreadable
from deckcheck.paper import MAX_PAGES, MAX_PIXELS

PAGE_PIXELS = 3508  # the longer side of a PDF page as rasterised: A4 at 300 dpi
PDF_MEMORY = 1024 * 1024 * 1024  # bytes of address space pdftoppm may take
# Scans of a JPEG decoded. libjpeg(-turbo) decodes every scan over the whole image, however few bytes it takes (an
# EOB run codes 32,767 empty blocks in a few bits): 20,000 scans of 92 bytes held a reader 609 s (LJT-01-003 in
# libjpeg-turbo's "Two Issues with the JPEG Standard", whose remedy is a limit on scans; TurboJPEG's
# TJPARAM_SCANLIMIT, which Pillow does not expose, and its own fuzzers use 500, NVIDIA's decoders 256-500). A camera's
# or a phone's progressive JPEG has at most a dozen (libjpeg's standard script 10, 6 in grey; Photoshop 3-5; an
# optimised jpegtran or mozjpeg script some 20); this many of the costliest scan, an AC refinement of a 50-megapixel
# image, fit within a page's time budget (docs/benchmarks.md, Hostile requests), and on a busy machine the deadline
# still ends the decode between two scans.
MAX_SCANS = 100
# PNG chunks or JPEG marker segments walked. Pillow reads each in Python, so a file of nothing but empty ones holds a
# reader for seconds before a pixel is decoded. libpng writes IDAT in 8 KiB chunks (2,560 in 20 MiB), a camera's JPEG
# has a few dozen segments (two a scan, in a progressive one); this many cost a fraction of a second
# (docs/benchmarks.md, Hostile requests).
MAX_CHUNKS = 100_000
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"
_PDF = b"%PDF-"


@dataclass(frozen=True, slots=True)
class Pages:
    """The pages read from a file, each a grey image, and how many the file has (a PDF may have more than read)."""

    kind: str  # png, jpeg or pdf
    images: tuple[Image.Image, ...]
    total: int


def kind_of(content: bytes) -> str:
    """png, jpeg or pdf, by the file's first bytes; NotAnImage for anything else."""
    if content.startswith(_PNG):
        return "png"
    if content.startswith(_JPEG):
        return "jpeg"
    if content.lstrip(b"\r\n\t ").startswith(_PDF):
        return "pdf"
    raise NotAnImage("not_an_image", "the file is not a PNG or JPEG image or a PDF")


def read_pages(content: bytes, deadline: float) -> Pages:
    """The pages of `content` as grey images; a PaperError when it is no image, too large or unreadable, or when
    reading it would pass `deadline` (time.monotonic())."""
    kind = kind_of(content)
    if kind == "pdf":
        images, total = _pdf_pages(content, deadline)
        return Pages(kind, images, total)
    return Pages(kind, (_image(content, kind, deadline),), 1)


def _image(content: bytes, kind: str, deadline: float) -> Image.Image:
    stops = _jpeg_scans(content) if kind == "jpeg" else _png_chunks(content)
    fed = _Fed(content, stops, deadline)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.")  # one line per odd EXIF tag
            image = Image.open(fed)
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise PaperUnreadable(
                    "too_many_pixels", f"the image is {width}×{height} pixels; at most {MAX_PIXELS:,} are read"
                )
            if image.format in {"JPEG", "MPO"}:
                image.draft("L", image.size)  # a JPEG decodes straight to grey
            fed.paced = True
            image.load()
            grey = image.convert("L")
            turn = _TURNS.get(_orientation(image.info) or 1)
            return grey if turn is None else grey.transpose(turn)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PaperUnreadable("too_many_pixels", f"the image has more than {MAX_PIXELS:,} pixels") from None
    except (OSError, ValueError, SyntaxError, struct.error) as exc:  # what Pillow raises for a broken file
        raise PaperUnreadable("unreadable_image", f"the image cannot be read ({exc})") from None


class _Fed(io.BytesIO):
    """The file as Pillow reads it, the deadline checked at every read; once `paced`, no read passes the next of
    `stops` (where the JPEG's scans begin), so the decoder, which decodes what it is given, is fed a scan at a time and
    the deadline ends a decode between two scans (a PNG is fed Pillow's 64 KiB at a time)."""

    def __init__(self, content: bytes, stops: list[int], deadline: float) -> None:
        super().__init__(content)
        self.stops = stops
        self.deadline = deadline
        self.paced = False

    def read(self, size: int | None = -1, /) -> bytes:
        if time.monotonic() > self.deadline:
            raise PaperTimedOut("read_timeout", "the time to decode this image ran out")
        here = self.tell()
        after = bisect.bisect_right(self.stops, here)
        if self.paced and after < len(self.stops):
            room = self.stops[after] - here
            size = room if size is None or size < 0 else min(size, room)
        return super().read(size)


# A marker that begins a segment with a length, or the JPEG's end (EOI): 0xFF and any code but a stuffed 0x00, a fill
# 0xFF, TEM, a restart marker or SOI, which stand alone. libjpeg finds markers so: skipping any bytes before one, and
# in a scan's entropy-coded data, where every 0xFF of the data is followed by a stuffed 0x00, at the first that ends it.
_MARKER = re.compile(rb"\xff[^\x00\x01\xd0-\xd8\xff]")
_SOS, _EOI = 0xDA, 0xD9
# The frames of an arithmetic-coded JPEG (SOF9-11, 13-15): libjpeg's arithmetic decoder cannot stop for more data, so
# Pillow decodes one only when it comes whole in its first 64 KiB read, and never a scan at a time. No phone, camera
# or scanner writes one, and no browser shows one.
_ARITHMETIC = frozenset({0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def _jpeg_scans(content: bytes) -> list[int]:
    """Where each scan of the JPEG begins (its SOS marker), its segments walked as libjpeg reads them up to its EOI
    (what an MPO or a phone's motion photo appends after it is never decoded); PaperUnreadable past MAX_SCANS scans or
    MAX_CHUNKS segments."""
    scans: list[int] = []
    at = 2
    for _segment in range(MAX_CHUNKS):
        found = _MARKER.search(content, at)
        if found is None or content[found.start() + 1] == _EOI:
            return scans
        start = found.start()
        if content[start + 1] in _ARITHMETIC:
            raise PaperUnreadable(
                "unreadable_image", "the JPEG is arithmetic-coded, which is not read: send a PNG or an ordinary JPEG"
            )
        if content[start + 1] == _SOS:
            scans.append(start)
            if len(scans) > MAX_SCANS:
                raise PaperUnreadable(
                    "too_many_scans", f"the JPEG has more than {MAX_SCANS} scans; a photo has a dozen"
                )
        at = start + 2 + max(2, int.from_bytes(content[start + 2 : start + 4], "big"))
    raise PaperUnreadable("too_many_chunks", f"the JPEG has more than {MAX_CHUNKS:,} marker segments")


def _png_chunks(content: bytes) -> list[int]:
    """No stops: a PNG's chunks are only counted, up to its IEND; PaperUnreadable past MAX_CHUNKS."""
    at = len(_PNG)
    for _chunk in range(MAX_CHUNKS):
        if at + 8 > len(content) or content[at + 4 : at + 8] == b"IEND":
            return []
        at += 12 + int.from_bytes(content[at : at + 4], "big")
    raise PaperUnreadable("too_many_chunks", f"the PNG has more than {MAX_CHUNKS:,} chunks")


_ORIENTATION = 0x0112  # EXIF's Orientation tag: a SHORT, 1 upright, 2-8 how the picture is to be turned
_TURNS = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


def _orientation(info: dict[str | tuple[int, int], Any]) -> int | None:
    """How the image is to be turned, as Pillow's getexif reads it: the Orientation of its EXIF block (a JPEG's APP1, a
    PNG's eXIf chunk or ImageMagick's raw profile), else its XMP's tiff:Orientation. Read here rather than by
    ImageOps.exif_transpose, which reads the whole first IFD (a warning for every odd tag) and rewrites it, raising
    struct.error or TypeError where a tag has a type other than its own (an ImageWidth of UNDEFINED bytes)."""
    exif, raw = info.get("exif"), info.get("Raw profile type exif")
    if not isinstance(exif, bytes) and isinstance(raw, str):
        try:
            exif = bytes.fromhex("".join(raw.split("\n")[3:]))
        except ValueError:
            exif = None
    found = _exif_orientation(exif) if isinstance(exif, bytes) else None
    if found is not None:
        return found
    xmp = info.get("XML:com.adobe.xmp") or info.get("xmp")
    marked = re.search(
        r"tiff:Orientation(=\"|>)([0-9])", xmp.decode("utf-8", "replace") if isinstance(xmp, bytes) else str(xmp or "")
    )
    return int(marked[2]) if marked else None


def _exif_orientation(exif: bytes) -> int | None:
    """The Orientation in an EXIF block's first IFD, 0 where it is no single SHORT, None where there is none."""
    tiff = exif.removeprefix(b"Exif\x00\x00")
    order = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if order is None or len(tiff) < 8:
        return None
    (first,) = struct.unpack_from(f"{order}I", tiff, 4)
    if first + 2 > len(tiff):
        return None
    (count,) = struct.unpack_from(f"{order}H", tiff, first)
    for entry in range(min(count, (len(tiff) - first - 2) // 12)):
        tag, kind, number, value = struct.unpack_from(f"{order}HHIH", tiff, first + 2 + 12 * entry)
        if tag == _ORIENTATION:
            return value if kind == 3 and number == 1 else 0
    return None


def _limits() -> None:  # pragma: no cover - runs in the child process
    resource.setrlimit(resource.RLIMIT_AS, (PDF_MEMORY, PDF_MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


def run(argv: list[str], content: bytes, deadline: float) -> bytes:
    """What `argv` writes with `content` on its standard input, ended at `deadline`."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise PaperTimedOut("read_timeout", "the time to read this file ran out")
    try:
        done = subprocess.run(  # a fixed program, the file only on its standard input
            argv, input=content, capture_output=True, timeout=left, preexec_fn=_limits, check=False
        )
    except subprocess.TimeoutExpired:
        raise PaperTimedOut("read_timeout", "the time to read this PDF ran out") from None
    except FileNotFoundError:
        raise PaperUnavailable("ocr_unavailable", f"{argv[0]} (poppler-utils) is not installed") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no pages"]
        raise PaperUnreadable("unreadable_pdf", f"the PDF cannot be read ({reason[0]})")
    return done.stdout


def _pdf_pages(content: bytes, deadline: float) -> tuple[tuple[Image.Image, ...], int]:
    info = run(["pdfinfo", "-"], content, deadline).decode("utf-8", "replace")
    found = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
    total = int(found.group(1)) if found else 0
    if total < 1:
        raise PaperUnreadable("unreadable_pdf", "the PDF has no pages")
    pages = []
    for number in range(1, min(total, MAX_PAGES) + 1):
        argv = ["pdftoppm", "-f", str(number), "-l", str(number), "-scale-to", str(PAGE_PIXELS), "-gray", "-"]
        pages.append(_netpbm(run(argv, content, deadline)))
    return tuple(pages), total


def _netpbm(raw: bytes) -> Image.Image:
    """The grey image pdftoppm wrote (PGM)."""
    try:
        image = Image.open(io.BytesIO(raw))
        image.load()
    except (OSError, ValueError) as exc:
        raise PaperUnreadable("unreadable_pdf", f"the PDF's page cannot be read ({exc})") from None
    return image.convert("L")
