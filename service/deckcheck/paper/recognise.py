"""A run of text read: cut from the page as the detector found it (turned upright, light text on dark made dark on
light, its light evened along it, its contrast stretched, the rules along its edges taken out, cut to its line of
text), then read by the PP-OCR recognizer (paper/models.py), which says how sure it is of each character, what it
took next likeliest for it and where it saw it.

The PP-OCR recognizer's dictionary holds Chinese forms a card's name never has (增 for 増, 肃 for 粛); its output
is held to the characters that card names, counts and list marks are written in, by giving every other character
no probability before the CTC decoding. Its lines are batched by width, each batch padded only to its widest line:
rapidocr's own batching pads every line to 320 pixels, which makes a count's cell cost as much as a name.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from deckcheck.data import CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.formats.text import HEADINGS
from deckcheck.paper import models
from deckcheck.paper.detect import Quad
from deckcheck.paper.furniture import LABELS
from deckcheck.paper.words import SHEET_WORDS

COUNT_SURE = 90.0  # a count's digits read with less sureness are to confirm
LATTICE = 10  # classes besides the blank kept for each step of a run
FLOOR = math.log(1e-5)  # the log likelihood of a class not among them
ALTERNATIVE = 0.02  # a class likelier than this where a character was read is kept as what it may be instead
HEIGHT = 48  # pixels high the recognizer reads a line at
BATCH = 8  # lines the recognizer reads at once
PAD = 0.12  # of a run's height added all round before it is cut out
FILL = 0.7  # of a crop's height its text fills: it reads text set smaller less well, and text set larger more slowly
TIGHT = 0.15  # of the text's height kept around it once the crop is cut to its ink
RULE_FILL = 0.7  # of a crop's row (or column) that is ink, at least, where a rule runs along it
# Counts, list marks, headings' brackets and what chat and screen furniture is written in, beside card names.
MARKS = "0123456789 xX×*・-－ー《》「」『』【】()（）[]枚:：,.'&!?\"“”/#%+@~〜～|■□◆◇●○★☆✨♪※＊©"


@dataclass(frozen=True, slots=True)
class Read:
    """What one engine read in a run: its text, how sure it was of each character (0 to 100), the characters it
    took next likeliest for each (the recognizer's; none for Tesseract's or a text layer's), and which engine."""

    text: str
    sureness: tuple[float, ...]
    engine: str  # ppocr, or text (a PDF's text layer)
    others: tuple[str, ...] = ()
    places: tuple[float, ...] = ()  # where each character stands along the crop read, 0 to 1 (the recognizer's)
    lattice: Lattice | None = field(default=None, compare=False, repr=False)  # the recognizer's, to score a text by

    def likelihood(self, text: str) -> float:
        """How likely the recognizer found `text` for this run (the log of the CTC probability summed over every way
        to align it), -inf where it has no lattice or a character no class of its holds."""
        return -math.inf if self.lattice is None else self.lattice.score(text)

    @property
    def confidence(self) -> float:
        """The least sure character's sureness (100 for an empty reading, which claims nothing)."""
        return min(self.sureness, default=100.0)

    def unsure(self, below: float, part: str | None = None) -> int:
        """How many characters (of `part` of the text, where it stands in it) were read with less than `below`."""
        if part is None or not part:
            return sum(s < below for s in self.sureness)
        start = self.text.find(part)
        if start < 0:
            return sum(s < below for s in self.sureness)
        return sum(s < below for s in self.sureness[start : start + len(part)])

    def variants(self, below: float, most: int) -> list[str]:
        """The text with each character read with less than `below` sureness taken, in turn, as the recognizer's
        next likeliest for it: at most `most` texts, those of one character changed first."""
        unsure = [at for at, sure in enumerate(self.sureness) if sure < below and at < len(self.others)]
        out: list[str] = []
        for at in unsure:
            out += [self.text[:at] + other + self.text[at + 1 :] for other in self.others[at]]
        for one, two in itertools.combinations(unsure, 2):
            out += [
                self.text[:one] + a + self.text[one + 1 : two] + b + self.text[two + 1 :]
                for a in self.others[one]
                for b in self.others[two]
            ]
        return out[:most]


@dataclass(frozen=True, slots=True)
class Lattice:
    """What the recognizer saw at each step of a run: the log likelihood of the CTC blank, and the LATTICE likeliest
    other classes with theirs; a class not among them is taken as FLOOR likely."""

    blank: NDArray[np.float32]  # (steps,)
    classes: NDArray[np.int32]  # (steps, LATTICE)
    logs: NDArray[np.float32]  # (steps, LATTICE)
    index: dict[str, int]  # each character's class

    def score(self, text: str) -> float:
        """The log likelihood of `text` by the CTC forward algorithm over the lattice."""
        labels = [self.index.get(char) for char in text]
        if not labels or None in labels:
            return -math.inf
        steps = len(self.blank)
        states = 2 * len(labels) + 1
        if steps < len(labels):
            return -math.inf
        emit = np.full((steps, states), FLOOR, dtype=np.float64)
        emit[:, 0::2] = self.blank[:, None]
        for at, label in enumerate(labels):
            hit = self.classes == label
            emit[:, 2 * at + 1] = np.where(hit.any(axis=1), np.where(hit, self.logs, -np.inf).max(axis=1), FLOOR)
        skip = np.zeros(states, dtype=bool)  # a state may be reached past the blank before it
        skip[3::2] = [labels[at] != labels[at - 1] for at in range(1, len(labels))]
        alpha = np.full(states, -np.inf)
        alpha[:2] = emit[0, :2]
        for step in range(1, steps):
            moved = np.logaddexp(alpha, np.concatenate(([-np.inf], alpha[:-1])))
            jumped = np.where(skip, np.concatenate(([-np.inf, -np.inf], alpha[:-2])), -np.inf)
            alpha = np.logaddexp(moved, jumped) + emit[step]
        return float(np.logaddexp(alpha[-1], alpha[-2]))


def cut(page: NDArray[np.uint8], quad: Quad) -> NDArray[np.uint8]:
    """The run of text `quad` cut from the grey page, upright, a little room around it, dark text on light."""
    import cv2  # noqa: PLC0415 - OpenCV comes with rapidocr, in the paper extra

    pad = PAD * quad.height
    angle = quad.angle
    along, across = (math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.points
    grown = np.array(
        [
            (x0 - pad * along[0] - pad * across[0], y0 - pad * along[1] - pad * across[1]),
            (x1 + pad * along[0] - pad * across[0], y1 + pad * along[1] - pad * across[1]),
            (x2 + pad * along[0] + pad * across[0], y2 + pad * along[1] + pad * across[1]),
            (x3 - pad * along[0] + pad * across[0], y3 - pad * along[1] + pad * across[1]),
        ],
        dtype=np.float32,
    )
    width = max(2, round(quad.width + 2 * pad))
    height = max(2, round(quad.height + 2 * pad))
    target = np.array([(0, 0), (width, 0), (width, height), (0, height)], dtype=np.float32)
    turn = cv2.getPerspectiveTransform(grown, target)
    upright = cv2.warpPerspective(page, turn, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return _tight(_dark_on_light(np.asarray(upright, np.uint8)))


def _dark_on_light(crop: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The crop dark text on light, its light evened along it: turned over where its text is light on dark (where
    the middle half of its rows, in which the text stands, is more dark than light; the page around a heading's bar
    may not be), then each column divided by the paper's level there (a shadow's edge across a long line), and the
    contrast stretched over the whole range."""
    import cv2  # noqa: PLC0415

    low, high = np.percentile(crop, (2, 98))
    if high - low < 8:
        return np.full_like(crop, 255)
    rows = crop.shape[0]
    middle = crop[rows // 4 : max(rows // 4 + 1, 3 * rows // 4)]
    light = float((middle > (low + high) / 2).mean())
    pixels = (255 - crop if light < 0.5 else crop).astype(np.float32)
    level = np.percentile(pixels, 90, axis=0).astype(np.float32).reshape(1, -1)
    paper = np.asarray(cv2.blur(level, (max(1, 2 * rows + 1), 1)), np.float32).ravel()
    evened = pixels * (255.0 / np.maximum(paper, 1.0))
    low, high = np.percentile(evened, (2, 98))
    stretched = (evened - low) * (255.0 / max(high - low, 1.0))
    out: NDArray[np.uint8] = np.clip(stretched, 0, 255).astype(np.uint8)
    return out


def _tight(crop: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The crop without what stands along its edges (a cell's rules, the page around a heading's bar: rows or
    columns nearly all ink, painted white), cut to the band of text through its middle (a neighbouring line's
    glyphs that reach into it, past a blank row, left out) with TIGHT of the text's height around it, and framed so
    that its text fills FILL of its height: the recognizer reads a line filled so best, and a narrower one faster."""
    ink = crop < 128
    height, width = ink.shape
    rules = ink.mean(axis=1) > RULE_FILL
    ink[rules] = False
    upright_rules = _thin(ink.mean(axis=0) > RULE_FILL, max(2, height // 6))
    ink[:, upright_rules] = False
    profile = ink.sum(axis=1)
    inked = np.flatnonzero(profile >= 2)
    columns = np.flatnonzero(ink.any(axis=0))
    if not len(inked) or not len(columns):
        return crop
    first, last = _band(profile, height // 2) if profile[height // 2] >= 2 else (inked[0], inked[-1])
    tall = last - first + 1
    room = max(2, round(TIGHT * tall))
    top, bottom = max(0, first - room), min(height, last + 1 + room)
    left, right = max(0, columns[0] - room), min(width, columns[-1] + 1 + room)
    out = crop.copy()
    out[rules] = 255
    out[:, upright_rules] = 255
    cut = out[top:bottom, left:right]
    frame = max(0, round(tall / FILL) - cut.shape[0])
    return np.pad(cut, ((frame // 2, frame - frame // 2), (0, 0)), constant_values=255)


def _thin(full: NDArray[np.bool_], widest: int) -> NDArray[np.bool_]:
    """The runs of `full` columns at most `widest` wide: a cell's rule is thin; a wide dark stretch is none."""
    out = np.zeros_like(full)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], full.astype(np.int8), [0]))))
    for start, end in zip(edges[::2], edges[1::2], strict=True):
        if end - start <= widest:
            out[start:end] = True
    return out


def _band(profile: NDArray[np.intp], middle: int) -> tuple[int, int]:
    """The rows of ink through `middle`, up to the first row of no ink either way."""
    first = last = middle
    while first > 0 and profile[first - 1] >= 2:
        first -= 1
    while last < len(profile) - 1 and profile[last + 1] >= 2:
        last += 1
    return first, last


# The words of the pages lists are printed on, beside card names: a form's labels and headings, and the sheet's own.
FORM_WORDS = (*LABELS, *HEADINGS, *(word for lang in SHEET_WORDS.values() for word in lang.labels()))


@dataclass(frozen=True, slots=True)
class _Classes:
    """The recognizer's classes a run may be read in: their places among its outputs (the blank's first), their
    characters, and each character's place among them."""

    outputs: NDArray[np.intp]
    characters: tuple[str, ...]
    index: dict[str, int]


@kept_with(maxsize=1)
def _allowed(cards: CardIndex) -> _Classes:
    """The classes of the characters a card's name, count, list mark or a form's words are written in, and the
    blank: the recognizer's likelihoods are cut to them as soon as it gives them (2,306 of its 18,710 for the
    bundled cards), so that every other class has none and its decoding costs an eighth."""
    chars = set(MARKS).union(*FORM_WORDS)
    for card in cards.by_passcode.values():
        for name in (card.name_ja, card.name_en):
            chars.update(name)
            chars.update(unicodedata.normalize("NFKC", name))
    every = models.characters()
    outputs = np.array([at for at, char in enumerate(every) if at == 0 or char in chars], dtype=np.intp)
    characters = tuple(every[at] for at in outputs.tolist())
    index: dict[str, int] = {}
    for at, char in enumerate(characters):
        if at and char:
            index.setdefault(char, at)
    return _Classes(outputs, characters, index)


def batch(crops: Sequence[NDArray[np.uint8]]) -> NDArray[np.float32]:
    """Grey crops as one input of the recognizer: each HEIGHT high, as wide as its shape makes it, padded to the
    widest (a multiple of 8), its three channels alike and scaled to -1 to 1."""
    import cv2  # noqa: PLC0415

    widths = [_width(crop) for crop in crops]
    widest = max(16, -(-max(widths) // 8) * 8)
    pixels = np.zeros((len(crops), 3, HEIGHT, widest), dtype=np.float32)
    for row, (crop, width) in enumerate(zip(crops, widths, strict=True)):
        line = cv2.resize(crop, (width, HEIGHT), interpolation=cv2.INTER_AREA)
        pixels[row, :, :, :width] = line.astype(np.float32) / 127.5 - 1.0
    return pixels


def _width(crop: NDArray[np.uint8]) -> int:
    return max(1, round(HEIGHT * int(crop.shape[1]) / max(1, int(crop.shape[0]))))


def ppocr(
    crops: Sequence[NDArray[np.uint8]], cards: CardIndex, deadline: float, model: str = models.QUANTIZED
) -> list[Read]:
    """Each crop read by the recognizer `model` (models.QUANTIZED or models.RECOGNIZER), held to the characters of
    `cards`' names, a list's marks and a form's words; past `deadline` (time.monotonic()) the crops left are read as
    nothing. The crops are read in batches of BATCH of about one width."""
    if not crops:
        return []
    session = models.session(model)
    name = session.get_inputs()[0].name
    allowed = _allowed(cards)
    order = sorted(range(len(crops)), key=lambda at: _width(crops[at]))
    out: list[Read] = [Read("", (), "ppocr")] * len(crops)
    for start in range(0, len(order), BATCH):
        if time.monotonic() > deadline:
            break
        chosen = order[start : start + BATCH]
        pixels = batch([crops[at] for at in chosen])
        likely = session.run(None, {name: pixels})[0][:, :, allowed.outputs]
        for row, at in enumerate(chosen):
            stride = pixels.shape[3] / (likely.shape[1] * _width(crops[at]))
            own = likely[row, : max(1, math.ceil(1 / stride))]  # its own steps, not the batch's padding
            read = _decoded(own, allowed.characters, stride)
            out[at] = dataclasses.replace(read, lattice=_lattice(own, allowed.index))
    return out


def _lattice(likely: NDArray[np.float32], index: dict[str, int]) -> Lattice:
    """The run's steps as a lattice: the blank's log likelihood, and the LATTICE likeliest other classes'."""
    others = likely[:, 1:]
    top = np.argpartition(-others, min(LATTICE, others.shape[1] - 1), axis=1)[:, :LATTICE]
    picked = np.take_along_axis(others, top, axis=1)
    with np.errstate(divide="ignore"):
        blank, logs = np.log(likely[:, 0]), np.log(picked)
    return Lattice(blank.astype(np.float32), (top + 1).astype(np.int32), logs.astype(np.float32), index)


def _decoded(likely: NDArray[np.float32], classes: tuple[str, ...], stride: float) -> Read:
    """The CTC reading of one line's class likelihoods: the likeliest class at each step, repeats and blanks
    dropped, each character as sure as its likeliest step, with the two classes next likeliest there and where it
    stands (a step is `stride` of the line's width)."""
    best = likely.argmax(axis=1)
    sure = likely.max(axis=1)
    text, sureness, others = "", [], []
    previous, peak = 0, -1
    for step, label in enumerate(best.tolist()):
        if label not in {0, previous}:
            text += classes[label]
            sureness.append(round(100 * float(sure[step]), 1))
            others.append(step)
            peak = step
        elif label != 0 and sure[step] > sure[peak]:
            sureness[-1] = round(100 * float(sure[step]), 1)
            others[-1] = peak = step
        previous = label
    alternatives = []
    if others:
        rows = likely[others]
        top = np.argpartition(-rows, 3, axis=1)[:, :3]  # the three likeliest classes at each step, in no order
        for row, classes_at in zip(rows, top, strict=True):
            order = sorted(classes_at.tolist(), key=lambda c: -row[c])[1:]
            alternatives.append("".join(classes[c] for c in order if c != 0 and row[c] > ALTERNATIVE))
    lead = len(text) - len(text.lstrip())
    stripped = text.strip()
    end = lead + len(stripped)
    places = tuple(min(1.0, (at + 0.5) * stride) for at in others[lead:end])
    return Read(stripped, tuple(sureness[lead:end]), "ppocr", tuple(alternatives[lead:end]), places)
