"""What each printed line says: a heading, a card with its copies, or words of the sheet, and how sure the reading
is. A line is read as a pasted list's line is (formats/text.py `text_line`), after the spaces Tesseract puts between
Japanese characters are taken out, and its name matched as paper/matching.py says.

A line needs review (and stays out of the deck until staff confirm it) when its name was not matched for sure, or
its count is unclear: not printed, not read as a number, or more than three.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from deckcheck.data import MAX_COPIES, Card, CardIndex
from deckcheck.data.names import loose_key
from deckcheck.formats.text import HEADINGS, text_line
from deckcheck.model import Section
from deckcheck.paper.matching import HIGH_CONFIDENCE, LOW_CONFIDENCE, match
from deckcheck.paper.ocr import TextLine, Word
from deckcheck.paper.second import Second
from deckcheck.paper.words import SHEET_WORDS

# Shapes OCR takes for each other, folded to one for step 3 (after the loose key's own folds).
_DIGITS = "0123456789"
COUNT_NOISE = " ()[]:|枚" + _DIGITS  # what a heading's count may stand in after NFKC (⑨ is 9 by then)
_COUNT_TAIL = 4  # the most characters a heading's count is read as (`(15)`, `15枚`, `9@枚`)
_COUNT_READ = frozenset(COUNT_NOISE + "Oo@")  # what they may all be: a 0 read as a letter, a mark before 枚
_COUNT_MARKS = frozenset(_DIGITS + "枚()")  # of which one at least: a digit, 枚 or a bracket (not a name's last `o`)
_TIMES_READ = "メ※ｘXx"  # what OCR reads a times sign × before a count as
_TIMES_BEFORE = re.compile(r"^(\d{1,2})\s*[xX×ｘ](?=[^\x00-\x7f])")  # a times sign against a Japanese name
_SPECKS = " .,:;'`_-|{}~・。、\"*"  # what OCR makes of specks before or after a heading
_WIDE = ("CJK", "HIRAGANA", "KATAKANA", "FULLWIDTH", "IDEOGRAPHIC", "KATAKANA-HIRAGANA")


@dataclass(frozen=True, slots=True)
class ReadLine:
    """One line of a deck as read from paper, with what decided it."""

    page: int
    box: tuple[int, int, int, int] | None
    text: str
    confidence: float
    section: Section
    count: int | None
    card: Card | None
    # Why it needs review: low_confidence, read_loosely, unknown_card, count_unclear, section_unclear, over_total.
    reasons: tuple[str, ...]
    suggestions: tuple[Card, ...] = ()
    passcode: int | None = None  # the passcode as read (a QR code's, which may be an alternate artwork's)

    @property
    def needs_review(self) -> bool:
        """Whether staff must confirm the line before it counts."""
        return bool(self.reasons)


@dataclass(frozen=True, slots=True)
class Ignored:
    """A line that names no card and is no heading: the sheet's own words, or what stands above the first heading."""

    page: int
    box: tuple[int, int, int, int]
    text: str


def _wide(char: str) -> bool:
    return unicodedata.name(char, "").startswith(_WIDE) or char in "・ー"


def joined(words: Iterable[str]) -> str:
    """The words of a line as one text: no space between two words where either side is Japanese (Tesseract spaces
    out Japanese characters), but always one after a leading count."""
    out = ""
    for word in words:
        if out and not (out.isdigit() or not (_wide(out[-1]) or _wide(word[0]))):
            out += word
        else:
            out = f"{out} {word}" if out else word
    return out


def _sheet_words() -> tuple[str, ...]:
    words = [loose_key(word) for lang in SHEET_WORDS.values() for word in lang.labels()]
    return (*words, loose_key("ydke"), loose_key("deckcheck"))


SHEET_KEYS = _sheet_words()


def _heading_like(text: str) -> Section | None:
    """The section a heading OCR misread opens (`宅ツジスターカード(19)`, `ンスターカード 42枚`, `サイドデッキ⑨)`,
    `サイドデッキO枚`, `エクストラデッキ6@枚`): a line that ends in its count, however misread (digits, brackets, 枚 and
    what OCR makes of them, a 0 read as O; at most _COUNT_TAIL characters, one of them a digit, 枚 or a bracket), before
    which stands a heading's word but for a third of its letters; specks read as marks around it (`{【エクストラデッキ】
    15枚.`) aside."""
    folded = unicodedata.normalize("NFKC", text).strip(_SPECKS)
    tails = [cut for cut in range(1, _COUNT_TAIL + 1) if set(folded[-cut:]) <= _COUNT_READ]
    found = {_heading_of(folded[:-cut]) for cut in tails if _COUNT_MARKS & set(folded[-cut:])}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


def _heading_of(head: str) -> Section | None:
    """The section whose heading `head` is but for a third of its letters, where no other section's heading is as
    near (`メインデッキ` is two letters from `サイドデッキ`, none from itself)."""
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415

    key = loose_key(head.rstrip(COUNT_NOISE))
    if not key:
        return None
    near = [
        (Levenshtein.distance(key, word), section)
        for word, section in _heading_keys().items()
        if abs(len(word) - len(key)) <= len(word) // 3
    ]
    close = [(distance, section) for distance, section in near if distance <= max(1, len(key) // 3)]
    nearest = min((distance for distance, _section in close), default=None)
    sections = {section for distance, section in close if distance == nearest}
    return sections.pop() if len(sections) == 1 else None


def _heading_keys() -> dict[str, Section]:
    return {loose_key(word): section for word, section in HEADINGS.items() if len(loose_key(word)) >= 4}


def _misprinted(text: str, cards: CardIndex) -> tuple[str, tuple[int, str]] | None:
    """A line that names a card once read as it was printed: its opening bracket read as a digit (`8 増殖するG」x1`
    for `「増殖するG」×1`: the closing bracket stands with no opening one), or a times sign against a Japanese name
    (`1 x琰魔竜王`)."""
    folded = unicodedata.normalize("NFKC", text).strip()
    tries = [
        opening + folded[1:].lstrip()
        for opening, closing in (("「", "」"), ("《", "》"), ("『", "』"))
        if closing in folded and opening not in folded and folded[:1].isdigit() and not folded[1:2].isdigit()
    ]
    if times := _TIMES_BEFORE.match(folded):
        tries.append(f"{times[1]} {folded[times.end() :]}")
    for marked in tries:
        again = text_line(marked, cards)
        if isinstance(again, tuple) and match(again[1], cards, 0, 0)[1:3] == ((), ()):  # a card's name, matched
            return marked, again
    return None


def said_of(line: TextLine, cards: CardIndex) -> tuple[str, Section | tuple[int, str] | None]:
    """The line's text and what it says; a count read into the name's first letter (`1D一HERO`) is parted from it
    where the line names no card otherwise; a heading misread (a mark taken for a letter, `圏メインデッキ (40)`, or
    letters for others, `Exrapeck` with no count and naming no card) is still a heading."""
    text = joined(word.text for word in line.words)
    said = text_line(text, cards)
    first = line.words[0].text
    if isinstance(said, tuple) and first[:1].isdigit() and not first[1:2].isdigit() and len(first) > 1:
        parted = joined([first[0], first[1:], *(word.text for word in line.words[1:])])
        again = text_line(parted, cards)
        if isinstance(again, tuple) and cards.find_name(said[1]) is None and match(said[1], cards, 0, 0)[1]:
            return parted, again  # not where the line names a card but for spaces (`1x琰魔竜王レッド・…`)
    if isinstance(said, tuple) and cards.find_name(said[1]) is None and (misprinted := _misprinted(text, cards)):
        return misprinted
    times = text.rstrip().rstrip(_DIGITS).rstrip()
    if isinstance(said, tuple) and times[-1:] in _TIMES_READ and times != text.rstrip():  # `《機械複製術》メ1`
        marked = f"{times[:-1]}×{text.rstrip()[len(times) :].strip()}"
        again = text_line(marked, cards)
        if isinstance(again, tuple) and cards.find_name(said[1]) is None and cards.read_name(again[1]) is not None:
            return marked, again
    if not isinstance(said, str) and len(line.words) > 1 and len(first) == 1:
        rest = text_line(joined(word.text for word in line.words[1:]), cards)
        if isinstance(rest, str):
            return text, rest
    if isinstance(said, tuple) and cards.find_name(said[1]) is None:
        countless = not any(char.isdigit() for char in unicodedata.normalize("NFKC", text))
        unsure = countless and bool(match(said[1], cards, 0, 0)[1])
        return text, _heading_like(text) or (unsure and _heading_of(text)) or said  # `Exrapeck`: Extra Deck
    return text, said


def recounted(line: TextLine, cards: CardIndex, second: Second) -> TextLine:
    """The line with a count the Japanese model misread or lost read again as digits, where the words after it name
    a card: a first word of one or two letters that are no digits (`の迷犬マロン` for `3 迷犬マロン`) read as digits;
    else, on a line that holds no digit or whose words are a card's name whole (`7 Completed`, `Hero's Rule 2`), the
    one glyph shaped as a digit in the room just before the name (a `1` Tesseract dropped, or read as the `ュー` of
    `ューヴォルカニック・ハンマー`: Second.glyph_before), read with high confidence."""
    first, name = line.words[0], line.words
    whole = cards.find_name(joined(word.text for word in line.words)) is not None
    if first.text[:1].isdigit() and not whole:
        return line
    if len(line.words) > 1 and len(first.text) <= 2 and _names_card(line.words[1:], cards):
        number, confidence = second.digits(first)
        if number.isdigit() and len(number) <= 2:
            count = Word(number, first.left, first.top, first.right, first.bottom, confidence)
            return TextLine((count, *line.words[1:]), line.box)
        name = line.words[1:]
    elif not whole and any(char.isdigit() for word in line.words for char in word.text):
        return line
    glyph = second.glyph_before(name[0])
    if glyph is None:
        return line
    number, confidence = second.digits(glyph, pad_right=False)
    if not number.isdigit() or len(number) > 1 or confidence < HIGH_CONFIDENCE:  # a `1` alone reads at 92-95
        return line
    return TextLine((Word(number, glyph.left, glyph.top, glyph.right, glyph.bottom, confidence), *name), line.box)


def _names_card(words: tuple[Word, ...], cards: CardIndex) -> bool:
    said = text_line(joined(word.text for word in words), cards)
    return isinstance(said, tuple) and cards.read_name(said[1]) is not None


def count_word(line: TextLine, count: int) -> Word | None:
    """The word a line's count was read in: one that begins or ends with it (`3`, `×3`, `3枚`), else one that holds
    it inside (`コメント(2)`, `(③)` read again as `(3)`); None where NFKC made the count (`③` is 3)."""
    digits = str(count)
    counted = [w for w in line.words if w.text.startswith(digits) or w.text.endswith(digits)]
    counted = counted or [w for w in line.words if digits in unicodedata.normalize("NFKC", w.text)]
    return counted[0] if counted else None


def card_line(line: TextLine, said: tuple[int, str], text: str, cards: CardIndex) -> tuple[ReadLine, float]:
    """A card line read, and the name search's score for its name (100 for a name matched, not guessed)."""
    count, name = said
    folded = " ".join(unicodedata.normalize("NFKC", text).split())
    printed = name != folded and str(count) in folded.replace(name, "", 1)
    counted = count_word(line, count)
    named = [w for w in line.words if w is not counted] if printed else list(line.words)
    unsure = sum(len(w.text) for w in named if w.confidence < LOW_CONFIDENCE)
    unsure_look = sum(len(w.text) for w in named if w.confidence < HIGH_CONFIDENCE)
    card, reasons, others, score = match(name, cards, unsure, unsure_look)
    sure_count = counted is not None and counted.confidence >= LOW_CONFIDENCE
    clear = printed and 1 <= count <= MAX_COPIES and sure_count
    reasons = (*reasons, *(() if clear else ("count_unclear",)))
    confidence = round(min(w.confidence for w in line.words), 1)
    read = ReadLine(1, line.box, text, confidence, "main", count if printed else None, card, reasons, others)
    return read, score


def second_reading(line: TextLine, first: ReadLine, cards: CardIndex, second: Second) -> ReadLine:
    """An uncertain line read again alone: by the PP-OCR recognizer (paper/ppocr.py), then, where that is not sure
    either, by Tesseract's English model where most of it is Latin letters, else its Japanese one as one line. The
    first sure reading stands; else the first reading, to review."""
    recognised = second.recognised(line.words, cards)
    if recognised:
        again = _sure_reading(TextLine(recognised, line.box), cards)
        if again is not None:
            return again
    latin = sum(char.isascii() and char.isalpha() for char in first.text)
    lang = "eng" if latin > len(first.text.replace(" ", "")) / 2 else "jpn"
    tesseract = second.line(line.words, lang)
    again = _sure_reading(recounted(TextLine(tesseract, line.box), cards, second), cards) if tesseract else None
    return first if again is None else again


def _sure_reading(line: TextLine, cards: CardIndex) -> ReadLine | None:
    """The line read as a card line, where that reading needs no review."""
    text, said = said_of(line, cards)
    if not isinstance(said, tuple):
        return None
    read, _score = card_line(line, said, text, cards)
    return None if read.needs_review else read
