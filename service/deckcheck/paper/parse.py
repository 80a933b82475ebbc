"""What a run of text on a page says, read around the card name it holds: a card with the copies printed beside it,
a heading with the count it may carry, a count standing alone (a badge, a pill, a count's cell), or none of these.

The card name anchors a card's run: of the ways its text can be cut into a count, a name and list marks, the one whose
name names a card is taken, however the count is written (`3 Name`, `3x Name`, `3枚 Name`, `Name ×3`, `Name x3`,
`Name 3x`, `Name 3枚`, `Name (3)`, `「Name」×3`, `《Name》3`, a circled `③`, which NFKC folds to 3, and full-width
digits). What is never a count: a list number before the name (`1.`, `12)`, `No.3`), the dots that lead from a
name to its count (`灰流うらら ....... 3枚`), and brackets and bullets around the name.

A heading names a section or a kind of card in any of the forms players give it: `【EX13】`, `✨EX 13✨`,
`■EXデッキ 14枚`, `Main (40):`, `MAIN DECK - 40`, `メイン 40`, `サイドデッキ（15枚）`, `Monster Cards`.

Every step is a scan or an anchored pattern of bounded length, so a hostile text costs time linear in its length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from deckcheck.data import CardIndex
from deckcheck.data.names import loose_key
from deckcheck.formats.text import HEADINGS
from deckcheck.model import Section
from deckcheck.paper.matching import exact_card, look_key

MOST_COPIES = 99  # a count read past this is no count (a page number, a year)
# Dot leaders: three or more dots of any kind, spaced or not, or an ellipsis.
_LEADERS = re.compile(r"(?:\s?[.．・･·‥…_\-]){3,}\s?|[…‥]+")
_LIST_NUMBER = re.compile(r"^(?:no\.?\s?|#\s?)?(\d{1,3})\s?[.．、)）:]\s?(?=\S)", re.IGNORECASE)
_NUMBERED = re.compile(r"^(?:no\.?\s?|#\s?)(\d{1,3})\s(?=\S)", re.IGNORECASE)
_TIMES = "x×✕✖*"
_BEFORE = re.compile(
    r"^(\d{1,2})\s?(?:[x×✕✖*]|枚)?\s(?=\S)|^(\d{1,2})(?:[x×✕✖*枚]|X(?=\s))\s?(?=\S)|^[x×]\s?(\d{1,2})\s"
    r"|^(\d{1,2})(?=[^\W\d_])"  # against a name's first letter: OCR reads no space there
)
_AFTER = re.compile(
    r"(?:\s?[x×✕✖*]\s?(\d{1,2})|(?<=\S)X(\d{1,2})|\s?(\d{1,2})\s?(?:枚|[x×]|X)"
    r"|\s?[(\[]\s?[x×]?\s?(\d{1,2})\s?枚?\s?[)\]])\s?$"
)
_BARE = re.compile(r"(?<=\S)\s(\d{1,2})$")
_GLUED = re.compile(r"(?<=[^\x00-\x7f])(\d{1,2})$")  # against a Japanese name or its 》: `灰流うらら③`, `《…》3`
_AROUND = {"「": "」", "『": "』", "《": "》", "【": "】", "〈": "〉", "<": ">", "[": "]", "〔": "〕"}
_LEADER_DOTS = ".．・･·"
_BULLETS = "・-*■□◆◇●○▪•▼▽▲△★☆◎♦♢>→➤✓✔"
_LEADERS_BEFORE = re.compile(r"^(?:[.．・･·‥…_\-]\s?)+(?=\d)")  # the end of dot leaders before a count: `..3`
# Dot leaders as the recognizer reads them where they stand apart from the name: dots, or the O, o, ○ and ● it takes
# small dots for (a C or a D among them), three at least, a count after them or none.
_READ_LEADERS = re.compile(r"^(?:[.．・･·‥…_\-oOＯ○●◦°CD]\s*){3,}(?=[.．・\s]*\d{1,2}\s*$|$)")
_COUNT_ONLY = re.compile(r"^[x×✕✖*]?\s?(\d{1,2})\s?(?:[x×✕✖*]|枚|cards?)?$|^[(\[]\s?[x×]?\s?(\d{1,2})\s?枚?[)\]]$")

# Headings: a word of formats/text.py's, or one of these, with marks around it and a count before or after it.
_MORE_HEADINGS: dict[str, Section] = {
    **dict.fromkeys(("ex", "ex deck", "exデッキ", "エクストラデッキ", "extra deck", "extra"), "extra"),
    **dict.fromkeys(("main deck", "メインデッキ", "メイン", "main", "本体"), "main"),
    **dict.fromkeys(("side deck", "サイドデッキ", "サイド", "side"), "side"),
    **dict.fromkeys(("monster card", "spell card", "trap card", "magic", "magic cards"), "main"),
    **dict.fromkeys(("モンスターカード", "魔法カード", "罠カード", "トラップカード", "魔法・罠"), "main"),
}
_KINDS = frozenset(
    loose_key(word)
    for word in ("モンスター", "魔法", "罠", "トラップ", "monster", "monsters", "spell", "spells", "trap", "traps",
                 "magic", "モンスターカード", "魔法カード", "罠カード", "トラップカード", "monster cards",
                 "spell cards", "trap cards", "monster card", "spell card", "trap card", "magic cards", "魔法・罠",
                 "魔法・罠カード")
)  # fmt: skip
# What stands around a heading's words: marks and emoji, and specks read as a dot or a middle dot.
_DECORATION = re.compile(r"^(?:[^\w\u3040-\u30ff\u4e00-\u9fff]|[・･])+|(?:[^\w\u3040-\u30ff\u4e00-\u9fff]|[・･])+$")
_HEADING_COUNT = re.compile(
    r"^(?P<title>.*?(?:[^\W\d_]|[】\])]))[\s:：\-–—=|/]*[(\[【]?\s?(?P<count>\d{1,3})\s?(?:枚|cards?)?\s?[)\]】]?$|"
    r"^[(\[]?(?P<first>\d{1,3})[)\]]?\s?(?P<rest>\D.*)$",
    re.IGNORECASE,
)


def _heading_words() -> dict[str, Section]:
    """Every heading word by its look (paper/matching.py: `罠力ード` is 罠カード), and the section it opens."""
    words = {**HEADINGS, **_MORE_HEADINGS}
    return {look_key(word): section for word, section in words.items() if look_key(word)}


_HEADING_KEYS = _heading_words()
_KIND_KEYS = frozenset(look_key(word) for word in _KINDS)
# Every heading word by its loose key, and its look: a heading misread is held to the words as printed.
_PLAIN_KEYS = {loose_key(word): look_key(word) for word in {**HEADINGS, **_MORE_HEADINGS} if loose_key(word)}
MISREAD = 4  # a heading word of this many letters or more is still one with a quarter of them misread


def _heading_key(title: str, misread: bool) -> str | None:
    """The heading word `title` is by its look, or, where it may be `misread`, but for a quarter of its letters, each
    read as another (OCR misreads a letter; it adds none: `Deck #1` is no Deck), where no other is as near
    (`サノドデッキ` is サイドデッキ, `昆カード` 罠カード)."""
    key = look_key(title)
    if key in _HEADING_KEYS:
        return key
    plain = loose_key(title)
    if len(plain) < MISREAD or not misread:
        return None
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415 - the name search's own library

    near = sorted((Levenshtein.distance(plain, word), word) for word in _PLAIN_KEYS if len(word) == len(plain))
    close = [(d, word) for d, word in near if d <= len(word) // 4]
    if not close or (len(close) > 1 and close[1][0] == close[0][0] and
                     _PLAIN_KEYS[close[1][1]] != _PLAIN_KEYS[close[0][1]]):  # fmt: skip
        return None
    return _PLAIN_KEYS[close[0][1]]


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading: the section it opens, whether it heads one kind of card, and the count it carries."""

    section: Section
    of_kind: bool
    count: int | None
    title: str


@dataclass(frozen=True, slots=True)
class CardText:
    """A card's run: the name as printed, the copies printed beside it (None for none), where in the run's text
    (folded) each stands, and the list number before it."""

    name: str
    count: int | None
    name_at: int
    count_at: tuple[int, int] | None
    numbered: int | None


def folded(text: str) -> str:
    """A run's text as it is parsed: NFKC, one space, no space inside a count's digits."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def heading(text: str) -> Heading | None:
    """The heading `text` is, or None."""
    plain = folded(text)
    plain = _DECORATION.sub("", plain).strip() if len(plain) <= 40 else plain
    if not plain or len(plain) > 40:
        return None
    title, count, leading = plain, None, False
    found = _HEADING_COUNT.match(plain)
    if found is not None:
        leading = found["count"] is None
        title = (found["rest"] if leading else found["title"]) or ""
        count = int(found["count"] or found["first"])
    title = _DECORATION.sub("", title).strip(" :：-–—=|/")
    key = _heading_key(title, misread=not leading)  # `3 Extra Bock` is a card's line misread, not Extra Deck
    if key is None or (count is not None and count > 60 + 15 + 15):
        return None
    return Heading(_HEADING_KEYS[key], key in _KIND_KEYS, count, title)


def count_alone(text: str) -> int | None:
    """The count a run that holds nothing else says: `3`, `×3`, `x3`, `3x`, `3枚`, `(3)`, `③`, `..3` (the end of dot
    leaders); None otherwise."""
    plain = folded(text)
    plain = _READ_LEADERS.sub("", plain) if _leader_glyphs(plain) else plain
    found = _COUNT_ONLY.match(_LEADERS_BEFORE.sub("", plain.casefold()).strip())
    if found is None:
        return None
    return int(found[1] or found[2])


def leaders(text: str) -> bool:
    """Whether a run is dot leaders alone, as the recognizer reads them (`OOOO●OO`, `.....`)."""
    plain = folded(text)
    return _leader_glyphs(plain) and _READ_LEADERS.sub("", plain).strip() == ""


def _leader_glyphs(plain: str) -> bool:
    """Whether most of a text's characters before any count are dots or what the recognizer takes dots for."""
    marks = plain.rstrip("0123456789 .").replace(" ", "")
    return len(marks) >= 3 and sum(char in ".．・･·‥…_-oOＯ○●◦°" for char in marks) >= 0.75 * len(marks)


def list_number(text: str) -> int | None:
    """The number of a list's line that stands alone: `12.`, `12)`, `No.12`, `#12`."""
    found = re.fullmatch(r"(?:no\.?\s?|#\s?)?(\d{1,3})\s?[.．、)）]?", folded(text), re.IGNORECASE)
    marked = found is not None and (not folded(text).isdigit())
    return int(found[1]) if found is not None and marked else None


def card_text(text: str, cards: CardIndex) -> CardText | None:
    """The card `text` names with the copies printed beside it; the readings whose name names a card exactly are
    taken first (the whole run, then a count of at most 3 before one of more, then a name as printed before one
    alike only in its look), then the first that names one loosely, then the first with a count; None for a text
    with no letter."""
    plain = folded(text)
    if not any(char.isalpha() for char in plain):
        return None
    readings = list(_readings(plain))
    exact = [r for r in readings if exact_card(r.name, cards) is not None]
    exact.sort(key=lambda r: cards.find_name(r.name) is None)  # a name as printed before one alike only in its look
    if exact:  # the whole run first (`Harpie Lady 3` is a card): its count, if any, stands apart in the row
        return min(exact, key=lambda r: (r.count is not None and r.count > 3, r.count is None and r is not readings[0]))
    loose = [r for r in readings if cards.find_loose(r.name) is not None]
    if loose:
        return loose[0]
    counted = [r for r in readings if r.count is not None]
    return (counted or readings)[0]


def _readings(plain: str) -> Iterator[CardText]:
    """Every way `plain` may be a count, a name and marks: the whole text first, then with a list number taken off
    (or a number before the name where a count is marked after it: an opening bracket misread), leaders taken out,
    a count before the name or after it, and each with the brackets or bullets around the name taken off."""
    numbered = _LIST_NUMBER.match(plain) or _NUMBERED.match(plain)
    starts: list[tuple[int, int | None]] = [(0, None)]
    if numbered is not None:
        starts.append((numbered.end(), int(numbered[1])))
    leading = _BEFORE.match(plain.casefold())
    if leading is not None and _AFTER.search(plain.casefold()) is not None:  # `8 増殖するG」x1`: 「 read as 8
        starts.append((leading.end(), int(next(group for group in leading.groups() if group))))
    for begin, number in starts:
        body, places = _unled(plain, begin)
        if not body:
            continue
        yield from _around(body, places[0], None, None, number)
        casefolded = body.casefold()
        before = _BEFORE.match(casefolded)
        if before is not None:
            count = int(next(group for group in before.groups() if group))
            name_at = places[before.end()] if before.end() < len(places) else places[-1] + 1
            yield from _around(body[before.end() :], name_at, count, _span(places, 0, before.end()), number)
        after = _AFTER.search(body if "X" in body else casefolded)
        if after is not None and after.start() > 0:
            count = int(next(group for group in after.groups() if group))
            yield from _around(body[: after.start()], places[0], count, _span(places, after.start(), len(body)), number)
        bare = _BARE.search(body) or _GLUED.search(body)
        if bare is not None:
            counted = _span(places, bare.start(), len(body))
            yield from _around(body[: bare.start()], places[0], int(bare[1]), counted, number)


def _span(places: list[int], first: int, end: int) -> tuple[int, int]:
    """Where the characters `first` to `end` of a text `_unled` gave stand in the text it was made from."""
    return places[first], places[end - 1] + 1


def _unled(plain: str, begin: int) -> tuple[str, list[int]]:
    """`plain` from `begin` with its dot leaders taken out (a space for each) and trimmed, and where each of its
    characters stands in `plain`: a count after leaders is where it was read."""
    chars: list[str] = []
    places: list[int] = []
    last = begin
    for found in _LEADERS.finditer(plain, begin):
        chars += plain[last : found.start()]
        places += range(last, found.start())
        chars.append(" ")
        places.append(found.start())
        last = found.end()
    chars += plain[last:]
    places += range(last, len(plain))
    while chars and chars[0].isspace():
        del chars[0], places[0]
    while chars and chars[-1].isspace():
        del chars[-1], places[-1]
    return "".join(chars), places


def _around(name: str, at: int, count: int | None, count_at: tuple[int, int] | None, number: int | None
            ) -> Iterator[CardText]:  # fmt: skip
    """The name as it is, then without its brackets (`「Name」`), a bullet before it (`・Name`) or dots after it."""
    name = name.strip()
    if not name:
        return
    yield CardText(name, count, at, count_at, number)
    close = _AROUND.get(name[0])
    if close is not None and name.endswith(close) and len(name) > 2:
        yield CardText(name[1:-1].strip(), count, at + 1, count_at, number)
    elif close is not None and close not in name and len(name) > 1:  # `「Name` whose closing bracket was lost
        yield CardText(name[1:].strip(), count, at + 1, count_at, number)
    elif name[-1:] in _AROUND.values() and not any(o in name for o in _AROUND) and len(name) > 1:
        yield CardText(name[:-1].strip(), count, at, count_at, number)
    if name[0] in _BULLETS and len(name) > 1:
        yield from _around(name[1:], at + 1, count, count_at, number)
    joined = name.rstrip(_LEADER_DOTS)  # the first dot of the leaders read onto the name: `ドラゴン・ ...3枚`
    if joined and joined != name:
        yield from _around(joined, at, count, count_at, number)
