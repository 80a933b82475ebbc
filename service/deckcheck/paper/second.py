"""Second readings of parts of a page Tesseract's first reading left uncertain or passed over: a count read again
as digits, a `1` it dropped found among the pixels, a line read again alone, and the lines its layout analysis
passed over (paper/bands.py)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import ImageOps

from deckcheck.data import CardIndex
from deckcheck.paper import ppocr
from deckcheck.paper.bands import INK, runs, unread
from deckcheck.paper.ocr import Prepared, Word, engine, read_words

RECOGNISE_LEFT = 2.5  # heights of a line, left of its first word, read again with it: a count the first reading lost
CROP_BORDER = 30  # white pixels around a part of a page read again
# A count's glyph before a name, in heights of the name's ink: how tall at least and wide at most, how far its middle
# from the name's, and the gap between the two, at least (wider than any gap within a letter) and at most.
GLYPH_HEIGHT, GLYPH_WIDTH, GLYPH_LEVEL, GLYPH_GAP, GLYPH_ROOM = 0.6, 0.7, 0.3, 0.4, 1.6


@dataclass(frozen=True, slots=True)
class Second:
    """A second reading of a part of a prepared page, for a line the first reading left uncertain; once `deadline`
    (time.monotonic()) has passed, none is made and the line stays as the first reading left it, to review."""

    prepared: Prepared
    deadline: float

    def _crop(self, api: Any, ws: tuple[Word, ...], pad: int, pad_right: bool = True) -> tuple[int, int]:
        left, top = max(0, min(w.left for w in ws) - pad), max(0, min(w.top for w in ws) - pad)
        right, bottom = max(w.right for w in ws) + (pad if pad_right else 0), max(w.bottom for w in ws) + pad
        # A white border around the crop: Tesseract finds nothing in a crop whose ink touches its edge.
        api.SetImage(ImageOps.expand(self.prepared.image.crop((left, top, right, bottom)), CROP_BORDER, fill=255))
        return left - CROP_BORDER, top - CROP_BORDER

    def digits(self, word: Word, pad_right: bool = True) -> tuple[str, float]:
        """The word read again as digits alone, and that reading's confidence: a count the Japanese model took for
        a kana or a mark (`の` for 3, `ーー` for 1). Without `pad_right`, nothing right of the box is read (a room
        before a name, whose first letter is no digit)."""
        if time.monotonic() > self.deadline:
            return "", 0.0
        api = engine("digits")
        self._crop(api, (word,), (word.bottom - word.top) // 2, pad_right)
        text = (api.GetUTF8Text() or "").strip()
        confidence = float(api.MeanTextConf())
        api.Clear()
        return text, confidence

    def glyph_before(self, word: Word) -> Word | None:
        """The one glyph that stands where a count would, just before the ink of `word`: a `1` the page's reading
        dropped or took for a letter (a stroke that thin, a space before a name, is taken for a speck). Found among
        the pixels of the row, measured in the height of the word's own ink (Tesseract's boxes of Japanese words
        run tall): its inked columns, in runs apart by more than GLYPH_GAP of that height (the strokes of ハ or リ
        are one run), up to the first run that reaches into the word's box (where the name's ink begins; Tesseract
        may begin its box a letter late). The glyph is the one run before it, alone in the room, no further from it
        than GLYPH_ROOM, and shaped as a digit is: at least GLYPH_HEIGHT tall, at most GLYPH_WIDTH wide, its middle
        within GLYPH_LEVEL of the name's. None where the room holds no such glyph (a bullet is too low; a bracket
        or a letter runs into the name)."""
        box = word.bottom - word.top
        middle, reach = (word.top + word.bottom) // 2, round(0.75 * box)  # short of the lines above and below
        left, top = max(0, word.left - round(2.6 * box)), max(0, middle - reach)
        ink = np.asarray(self.prepared.image.crop((left, top, word.right, middle + reach))) < INK
        own = np.flatnonzero(ink[:, word.left - left :].any(axis=1))
        columns = np.flatnonzero(ink.any(axis=0))
        if not len(own) or not len(columns):
            return None
        size = int(own[-1] - own[0]) + 1
        parts = runs(columns, GLYPH_GAP * size)
        named = next((i for i, (_first, end) in enumerate(parts) if left + end > word.left), None)
        if named != 1:  # no ink before the name's, or more than one glyph
            return None
        glyph, name = (self._extent(ink, part) for part in parts[:2])
        shaped = glyph[3] - glyph[1] >= GLYPH_HEIGHT * size and glyph[2] - glyph[0] <= GLYPH_WIDTH * size
        level = abs((glyph[1] + glyph[3]) - (name[1] + name[3])) / 2 <= GLYPH_LEVEL * size
        if not (shaped and level and name[0] - glyph[2] <= GLYPH_ROOM * size):
            return None
        return Word("", left + glyph[0], top + glyph[1], left + glyph[2], top + glyph[3], 0.0)

    @staticmethod
    def _extent(ink: Any, columns: tuple[int, int]) -> tuple[int, int, int, int]:
        """The box (left, top, right, bottom) of the ink in a run of columns (first, last + 1)."""
        first, end = columns
        rows = np.flatnonzero(ink[:, first:end].any(axis=1))
        return first, int(rows[0]), end, int(rows[-1]) + 1

    def dropped(self, found: list[Word]) -> list[Word]:
        """The words of the lines the page's reading passed over (paper/bands.py), each read again as one line."""
        if not found:
            return []
        height = sorted(word.bottom - word.top for word in found)[len(found) // 2]
        boxes = unread(np.asarray(self.prepared.image), [(w.left, w.top, w.right, w.bottom) for w in found], height)
        return [word for box in boxes for word in self.line((Word("", *box, 0.0),), "jpn")]

    def recognised(self, ws: tuple[Word, ...], cards: CardIndex) -> tuple[Word, ...]:
        """The line's words read again by the PP-OCR recognizer (paper/ppocr.py), each with the line's box and the
        recognizer's confidence; none past the deadline or without the recognizer. Read from a crop a third of the
        line's height larger all round: where the line begins with a count read as one (a form's count cell, which
        may stand far from the name), of the name alone, the count kept; else RECOGNISE_LEFT heights further left
        too, where a count the first reading lost stands."""
        if time.monotonic() > self.deadline or not ppocr.available():
            return ()
        counted = ws[0].text.isdigit() and len(ws) > 1
        name = ws[1:] if counted else ws
        high = max(w.bottom - w.top for w in name)
        pad = high // 3
        left = max(0, min(w.left for w in name) - pad - (0 if counted else round(RECOGNISE_LEFT * high)))
        top = max(0, min(w.top for w in name) - pad)
        right, bottom = max(w.right for w in name) + pad, max(w.bottom for w in name) + pad
        text, confidence = ppocr.read_line(self.prepared.image.crop((left, top, right, bottom)), cards)
        read = tuple(Word(part, left, top, right, bottom, confidence) for part in text.split())
        return (ws[0], *read) if counted and read else read

    def count_agrees(self, word: Word, count: int, cards: CardIndex) -> bool:
        """Whether the PP-OCR recognizer reads the same count in `word` (`3`, `3x`, `×3`) as the first reading: a
        count is the one thing on a line no name's match can check. True without the recognizer or past the
        deadline (nothing to check it by)."""
        if time.monotonic() > self.deadline or not ppocr.available():
            return True
        pad = (word.bottom - word.top) // 3
        box = (max(0, word.left - pad), max(0, word.top - pad), word.right + pad, word.bottom + pad)
        text, _confidence = ppocr.read_line(self.prepared.image.crop(box), cards)
        return "".join(char for char in text if char.isdigit()) == str(count)

    def line(self, ws: tuple[Word, ...], lang: str) -> tuple[Word, ...]:
        """The line's words read again as one line by the model of `lang` (jpn or eng)."""
        if time.monotonic() > self.deadline:
            return ()
        api = engine(lang)
        offset = self._crop(api, ws, max(w.bottom - w.top for w in ws) // 3)
        api.Recognize()
        return tuple(read_words(api, offset))
