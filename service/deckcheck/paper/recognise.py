"""A run of text read, as paper/crop.py cuts it from the page, by the PP-OCR recognizer (paper/models.py), which
says how sure it is of each character, what it took next likeliest for it and where it saw it.

The PP-OCR recognizer's dictionary holds Chinese forms a card's name never has (增 for 増, 肃 for 粛); its output
is held to the characters that card names, counts and list marks are written in, by giving every other character
no probability before the CTC decoding. Its lines are batched by the width they are padded to, on a ladder of
widths, so that a line reads the same whatever it is read with: rapidocr's own batching pads every line to 320
pixels, which makes a count's cell cost as much as a name, and its readings change with their neighbours.
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
from deckcheck.paper.furniture import LABELS
from deckcheck.paper.words import SHEET_WORDS

COUNT_SURE = 90.0  # a count's digits read with less sureness are to confirm
LATTICE = 10  # classes besides the blank kept for each step of a run
FLOOR = math.log(1e-5)  # the log likelihood of a class not among them
ALTERNATIVE = 0.02  # a class likelier than this where a character was read is kept as what it may be instead
HEIGHT = 48  # pixels high the recognizer reads a line at
BATCH = 8  # lines the recognizer reads at once
BUCKET = 1.15  # each width lines are padded to is this much wider than the one before
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

    def rivalled(self, start: int, end: int) -> bool:
        """Whether a digit from `start` to `end` was read with another digit next likeliest for it (a handwritten
        `3` the recognizer took, less likely, for a `2`)."""
        return any(
            self.text[at].isdigit() and any(char.isdigit() for char in self.others[at])
            for at in range(start, min(end, len(self.text), len(self.others)))
        )

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
    widest one's rung of the ladder of widths (_bucket), its three channels alike and scaled to -1 to 1."""
    import cv2  # noqa: PLC0415

    widths = [_width(crop) for crop in crops]
    widest = max(_bucket(width) for width in widths)
    pixels = np.zeros((len(crops), 3, HEIGHT, widest), dtype=np.float32)
    for row, (crop, width) in enumerate(zip(crops, widths, strict=True)):
        line = cv2.resize(crop, (width, HEIGHT), interpolation=cv2.INTER_AREA)
        pixels[row, :, :, :width] = line.astype(np.float32) / 127.5 - 1.0
    return pixels


def _width(crop: NDArray[np.uint8]) -> int:
    return max(1, round(HEIGHT * int(crop.shape[1]) / max(1, int(crop.shape[0]))))


def _bucket(width: int) -> int:
    """The width a line `width` pixels wide is padded to: the first of a ladder of widths (16, then each a BUCKET
    wider, a multiple of 8) it fits in. A line is read padded the same whatever it is read with: the recognizer's
    reading of it changes with its padding."""
    rung = 16
    while rung < width:
        rung = -(-round(rung * BUCKET) // 8) * 8
    return rung


def ppocr(
    crops: Sequence[NDArray[np.uint8]], cards: CardIndex, deadline: float, model: str = models.QUANTIZED
) -> list[Read]:
    """Each crop read by the recognizer `model` (models.QUANTIZED or models.RECOGNIZER), held to the characters of
    `cards`' names, a list's marks and a form's words; past `deadline` (time.monotonic()) the crops left are read as
    nothing. The crops are read in batches of BATCH of one padded width (_bucket)."""
    if not crops:
        return []
    session = models.session(model)
    name = session.get_inputs()[0].name
    allowed = _allowed(cards)
    buckets: dict[int, list[int]] = {}
    for at in range(len(crops)):
        buckets.setdefault(_bucket(_width(crops[at])), []).append(at)
    batches = [
        same[start : start + BATCH] for _rung, same in sorted(buckets.items()) for start in range(0, len(same), BATCH)
    ]
    out: list[Read] = [Read("", (), "ppocr")] * len(crops)
    for chosen in batches:
        if time.monotonic() > deadline:
            break
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
