"""What each printed line says: a heading, a card with its copies, or words of the sheet, and how sure the reading
is. A line is read as a pasted list's line is (formats/text.py `text_line`), after the spaces Tesseract puts between
Japanese characters are taken out, and its name is matched in steps, surest first:

1. exactly, as a pasted list matches it;
2. exactly but for spaces, which print too narrow to read for sure (`E・HEROグラン・ネオス`);
3. by its look: the loose key (data/names.py) with the shapes OCR mistakes for each other taken as one
   (一 and ー, 力 and カ, 口 and ロ, small kana and large) — only where that names one card;
4. loosely, as a pasted list is read (data/names.py);
5. else the name search's best guess, offered with the next best.

A line needs review (and stays out of the deck until staff confirm it) when it was read with low confidence, its
name matched only by steps 4 or 5 (or by 3 without high confidence), no card at all, or its count is unclear: not
printed, not read as a number, or more than three.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from deckcheck.data import MAX_COPIES, Card, CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.data.names import loose_key, normalize_name
from deckcheck.formats.text import HEADINGS, text_line
from deckcheck.model import Section
from deckcheck.paper.ocr import Second, TextLine, Word
from deckcheck.paper.words import SHEET_WORDS

LOW_CONFIDENCE = 55.0  # a line whose weakest word Tesseract is less sure of needs review
HIGH_CONFIDENCE = 80.0  # a name matched by its look (step 3) stands without review only above this
# Shapes OCR takes for each other, folded to one for step 3 (after the loose key's own folds).
_LOOKALIKES = str.maketrans(
    "力口二工夕卜八ァィゥェォャュョッヮヵヶ〇",
    "カロニエタトハアイウエオヤユヨツワカケo",
    "一ー－―‐",
)
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
    reasons: tuple[str, ...]  # why it needs review: low_confidence, read_loosely, unknown_card, count_unclear
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


def _spaceless(name: str) -> str:
    return normalize_name(name).replace(" ", "")


def _look(name: str) -> str:
    return loose_key(name).translate(_LOOKALIKES)


@kept_with(maxsize=3)
def _keys(cards: CardIndex, kind: str) -> dict[str, Card | None]:
    """Every card name by its spaceless form (kind "spaceless") or by its look ("look"); None where two cards share
    the key."""
    key = _spaceless if kind == "spaceless" else _look
    found: dict[str, Card | None] = {}
    for name, card in cards.by_name.items():
        k = key(name)
        if k:
            found[k] = card if found.get(k, card) is card else None
    return found


@kept_with(maxsize=1)
def _spaceless_names(cards: CardIndex) -> tuple[list[str], list[Card]]:
    names = list(cards.by_name.items())
    return [_spaceless(name) for name, _ in names], [card for _, card in names]


def margin(cards: CardIndex, name: str, card: Card) -> int:
    """How many characters `name` would have to be misread in to be another card's name: the edit distance to the
    nearest name of any other card (spaces aside)."""
    from rapidfuzz import process  # noqa: PLC0415 - the name search's own library, loaded by it already
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415

    names, owners = _spaceless_names(cards)
    for _name, distance, index in process.extract(_spaceless(name), names, scorer=Levenshtein.distance, limit=8):
        if owners[index] is not card:
            return int(distance)
    return len(name)


def match(
    name: str, cards: CardIndex, unsure: int, unsure_look: int
) -> tuple[Card | None, tuple[str, ...], tuple[Card, ...], float]:
    """The card a read name names, what about it needs review, other cards it may be, and the name search's score
    for a guess (100 for a name matched by steps 1 to 4). `unsure` is how many of the name's characters were read
    with low confidence, `unsure_look` how many without high confidence: a name matched exactly (or by its look)
    stands only when no other card's name is that few characters away."""
    card = cards.find_name(name) or _keys(cards, "spaceless").get(_spaceless(name))
    if card is not None:
        return card, () if not unsure or margin(cards, name, card) > unsure else ("low_confidence",), (), 100.0
    card = _keys(cards, "look").get(_look(name))
    if card is not None:
        sure = not unsure_look or margin(cards, name, card) > unsure_look + 1
        return card, () if sure else ("read_loosely",), (), 100.0
    loose = cards.find_loose(name)
    if loose is not None:
        return loose[0], ("read_loosely",), (), 100.0
    hits = cards.search.search(name, limit=4)
    if not hits:
        return None, ("unknown_card",), (), 0.0
    return hits[0].card, ("unknown_card",), tuple(hit.card for hit in hits[1:]), hits[0].score


def _sheet_words() -> tuple[str, ...]:
    words = [loose_key(word) for lang in SHEET_WORDS.values() for word in lang.labels()]
    return (*words, loose_key("ydke"), loose_key("deckcheck"))


SHEET_KEYS = _sheet_words()


def _heading_like(text: str) -> Section | None:
    """The section a heading OCR misread opens (`宅ツジスターカード(19)`, `ンスターカード(42)`): a line that ends in a
    count in brackets, before which stands a heading's word but for a third of its letters."""
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415

    folded = " ".join(unicodedata.normalize("NFKC", text).split())
    head, opened, note = folded.rstrip().removesuffix(")").rpartition("(")
    if not opened or not note.removesuffix("枚").strip().isdigit():
        return None
    key = loose_key(head)
    near = [
        (Levenshtein.distance(key, word), section)
        for word, section in _heading_keys().items()
        if abs(len(word) - len(key)) <= len(word) // 3
    ]
    close = [(distance, section) for distance, section in near if distance <= max(1, len(key) // 3)]
    return min(close)[1] if close and len({section for _d, section in close}) == 1 else None


def _heading_keys() -> dict[str, Section]:
    return {loose_key(word): section for word, section in HEADINGS.items() if len(loose_key(word)) >= 4}


def _said(line: TextLine, cards: CardIndex) -> tuple[str, Section | tuple[int, str] | None]:
    """The line's text and what it says; a count read into the name's first letter (`1D一HERO`) is parted from it
    where the line names no card otherwise; a heading misread (a mark taken for a letter, `圏メインデッキ (40)`, or
    letters for others) is still a heading."""
    text = joined(word.text for word in line.words)
    said = text_line(text, cards)
    first = line.words[0].text
    if isinstance(said, tuple) and first[:1].isdigit() and not first[1:2].isdigit() and len(first) > 1:
        parted = joined([first[0], first[1:], *(word.text for word in line.words[1:])])
        again = text_line(parted, cards)
        if isinstance(again, tuple) and cards.find_name(said[1]) is None:
            return parted, again
    if not isinstance(said, str) and len(line.words) > 1 and len(first) == 1:
        rest = text_line(joined(word.text for word in line.words[1:]), cards)
        if isinstance(rest, str):
            return text, rest
    if isinstance(said, tuple) and cards.find_name(said[1]) is None:
        return text, _heading_like(text) or said
    return text, said


def _recounted(line: TextLine, cards: CardIndex, second: Second) -> TextLine:
    """The line with a count the Japanese model misread (`の迷犬マロン` for `3 迷犬マロン`) read again as digits:
    where its first word is one or two letters that are no digits and the words after it name a card."""
    first = line.words[0]
    if len(line.words) < 2 or len(first.text) > 2 or first.text.isdigit():
        return line
    rest = text_line(joined(word.text for word in line.words[1:]), cards)
    if not isinstance(rest, tuple) or cards.read_name(rest[1]) is None:
        return line
    number, confidence = second.digits(first)
    if not number.isdigit() or len(number) > 2:
        return line
    count = Word(number, first.left, first.top, first.right, first.bottom, confidence)
    return TextLine((count, *line.words[1:]), line.box)


def _card_line(line: TextLine, said: tuple[int, str], text: str, cards: CardIndex) -> tuple[ReadLine, float]:
    """A card line read, and the name search's score for its name (100 for a name matched, not guessed)."""
    count, name = said
    folded = " ".join(unicodedata.normalize("NFKC", text).split())
    printed = name != folded and str(count) in folded.replace(name, "", 1)
    counted = [w for w in line.words if w.text.startswith(str(count)) or w.text.endswith(str(count))]
    named = [w for w in line.words if w not in counted[:1]] if printed else list(line.words)
    unsure = sum(len(w.text) for w in named if w.confidence < LOW_CONFIDENCE)
    unsure_look = sum(len(w.text) for w in named if w.confidence < HIGH_CONFIDENCE)
    card, reasons, others, score = match(name, cards, unsure, unsure_look)
    clear = printed and 1 <= count <= MAX_COPIES and counted[0].confidence >= LOW_CONFIDENCE
    reasons = (*reasons, *(() if clear else ("count_unclear",)))
    confidence = round(min(w.confidence for w in line.words), 1)
    read = ReadLine(1, line.box, text, confidence, "main", count if printed else None, card, reasons, others)
    return read, score


def _second_reading(line: TextLine, first: ReadLine, cards: CardIndex, second: Second) -> ReadLine:
    """An uncertain line read again alone, by the English model where most of it is Latin letters, else by the
    Japanese one as one line; the second reading stands where it is sure, the first otherwise."""
    latin = sum(char.isascii() and char.isalpha() for char in first.text)
    lang = "eng" if latin > len(first.text.replace(" ", "")) / 2 else "jpn"
    again = second.line(line.words, lang)
    if not again:
        return first
    again_line = TextLine(again, line.box)
    text, said = _said(_recounted(again_line, cards, second), cards)
    if not isinstance(said, tuple):
        return first
    read, _score = _card_line(_recounted(again_line, cards, second), said, text, cards)
    return read if not read.needs_review else first


@dataclass(frozen=True, slots=True)
class PageRead:
    """What a page says: its card lines, the lines that name none, its headings, and the section it ends in."""

    lines: list[ReadLine]
    ignored: list[Ignored]
    headings: list[tuple[tuple[int, int, int, int], str, int]]  # box, text, card lines read before it on the page
    section: Section | None


def read_lines(lines: list[TextLine], page: int, cards: CardIndex, section: Section | None, second: Second) -> PageRead:
    """The page's lines read; `section` is the section the page begins in (None before any heading), and the one it
    ends in is the next page's to begin in. Lines above the page's highest heading are its header, whatever the
    order they are read in (a sheet's fields beside its title). An uncertain card line is read a second time."""
    said_lines = []
    for line in lines:
        recounted = _recounted(line, cards, second)
        said_lines.append((recounted, *_said(recounted, cards)))
    header = min((line.box[1] for line, _text, said in said_lines if isinstance(said, str)), default=0)
    read: list[ReadLine] = []
    ignored: list[Ignored] = []
    headings: list[tuple[tuple[int, int, int, int], str, int]] = []
    for line, text, said in said_lines:
        if isinstance(said, str):
            section = said
            headings.append((line.box, text, len(read)))
            continue
        key = loose_key(text)
        if said is None or not key or key.isdigit() or key.startswith(SHEET_KEYS):
            ignored.append(Ignored(page, line.box, text))
            continue
        card_line, score = _card_line(line, said, text, cards)
        if (section is None or line.box[1] < header) and score < 100:  # the header: title, fields, player's name
            ignored.append(Ignored(page, line.box, text))
            continue
        if card_line.needs_review:
            card_line = _second_reading(line, card_line, cards, second)
        read.append(dataclasses.replace(card_line, page=page, section=section or "main"))
    return PageRead(read, ignored, headings, section)
