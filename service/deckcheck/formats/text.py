"""The plain-text list: one card a line by name or passcode, with a count, under English or Japanese headings.

Besides the English forms (`3 Pot of Greed`, `3x Pot of Greed`, `Pot of Greed x3`) it reads the notations of
Japanese deck lists: names in 《》 (`《強欲な壺》×3`), counts in 枚 (`強欲な壺 3枚`), full-width digits, spaces and
times signs, counts after the name (`クリボー（3）`, `クリボー　３`), bullets (`・クリボー×3`), and headings in
brackets or after a mark (`【メインデッキ】（40枚）`, `〔エクストラデッキ〕`, `［サイドデッキ］`,
`■エクストラデッキ`). Names as players write them (`ブラックマジシャン`, `ぶらっく・まじしゃん`,
`Blue Eyes White Dragon`, `青眼の白竜`) are read as the one card they loosely name (data/names.py); the answers
say so.

Every step is a scan of the line with string methods, never a backtracking pattern, so reading stays linear in
the input however hostile it is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator

from deckcheck.data import MAX_COPIES, CardIndex
from deckcheck.formats.common import (
    Builder,
    DeckFormatError,
    FormatError,
    card_of,
    column,
    is_passcode,
    numbered_lines,
)
from deckcheck.limits import MAX_COUNT
from deckcheck.model import SECTIONS, Deck, Section

HEADINGS: dict[str, Section] = {
    **dict.fromkeys(("main", "main deck", "deck", "monster", "monsters", "spell", "spells", "trap", "traps"), "main"),
    **dict.fromkeys(("monster cards", "spell cards", "trap cards"), "main"),
    **dict.fromkeys(("メイン", "メインデッキ", "デッキ", "モンスター", "魔法", "罠", "魔法・罠", "トラップ"), "main"),
    **dict.fromkeys(("モンスターカード", "魔法カード", "罠カード", "魔法・罠カード", "トラップカード"), "main"),
    **dict.fromkeys(("extra", "extra deck", "エクストラ", "エクストラデッキ", "exデッキ"), "extra"),
    # The extra deck's name before 2008 (and in lists kept from then).
    **dict.fromkeys(("fusion deck", "融合デッキ"), "extra"),
    **dict.fromkeys(("side", "side deck", "サイド", "サイドデッキ"), "side"),
}
# Marks a Japanese list puts before a heading (`■メインデッキ`) or, like a bullet, before a card (`・クリボー×3`).
_MARKS = "■□◆◇●○▪•▼▽▲△★☆◎"
_BULLETS = _MARKS + "・-*"
_BEFORE_HEADING = "#!" + _MARKS
# Brackets around a heading, as folded: 【】 and 〔〕 stay, ［］ and ＜＞ become [] and <>.
_HEADING_BRACKETS = {"【": "】", "〔": "〕", "[": "]", "<": ">"}
# What may follow a heading's title: spaces, colons and a card count, "(40)", "40", "(40枚)".
_NOTE_CHARS = " :()枚0123456789"
_DIGITS = "0123456789"
# Times signs beside a count, as folded: ｘ and ＊ become x and *; × ✕ ✖ stay. A capital X (or Ｘ) is one only where it
# touches the count, since many names end in one: `Pot of Greed X3` is 3 copies, `Deep-Space Cruiser IX 3` is no IX.
_TIMES = ("x", "×", "✕", "✖", "*")


def _fold(line: str) -> str:
    """Full-width digits, letters and spaces to their plain forms; runs of space to one."""
    return " ".join(unicodedata.normalize("NFKC", line).split())


def _is_count_note(text: str) -> bool:
    """Whether `text` says no more than a heading's card count: "", ":", " 40", " (40)", "(40枚)", ": 15"."""
    note = text.strip(" :")
    if not note:
        return True
    if note[0] == "(" and note[-1] == ")":
        note = note[1:-1].strip()
    digits = note.removesuffix("枚").rstrip()
    return digits.isascii() and digits.isdigit()


def _heading(line: str) -> Section | None:
    """The section a heading line opens: `Main Deck (40)`, `#extra`, `Side:`, `【メインデッキ】（40枚）`,
    `【メインデッキ 40枚】`, `〔エクストラデッキ〕`, `［サイドデッキ］`, `＜メインデッキ＞`, `■エクストラデッキ`,
    `■魔法`; None for any other line."""
    title = line.lstrip(_BEFORE_HEADING).strip()
    close = _HEADING_BRACKETS.get(title[:1])
    if close is not None:
        title, closed, after = title[1:].partition(close)
        if not closed or not _is_count_note(after):
            return None
    word = title.rstrip(_NOTE_CHARS)
    if not _is_count_note(title[len(word) :]):
        return None
    return HEADINGS.get(word.strip().casefold())


def _bare(name: str) -> str:
    """`name` without the 《》 a Japanese list puts around a card name."""
    if len(name) > 2 and name[0] == "《" and name[-1] == "》":
        return name[1:-1].strip() or name
    return name


def _count_first(line: str) -> Iterator[tuple[int, str]]:
    """Readings with the count first: `3 Pot of Greed`, `3 x Pot of Greed`, `3x 強欲な壺`, `3x強欲な壺`, `3枚 強欲な壺`,
    `3《強欲な壺》`. A times sign must touch the count or stand alone, so `3 xx-Saber Boggart Knight` keeps its x."""
    rest = line.lstrip(_DIGITS)
    if rest == line:
        return
    count = int(line[: len(line) - len(rest)])
    after = rest.lstrip()
    if after.startswith("枚") and after[1:].strip():
        yield count, after[1:].lstrip()
    if (after.startswith(_TIMES) or rest.startswith("X")) and after[1:2] == " " and after[2:]:
        yield count, after[2:]
    if rest.startswith((*_TIMES, "X")) and rest[1:2] not in ("", " "):
        yield count, rest[1:]
    if rest.startswith(" ") and rest[1:]:
        yield count, rest[1:]
    if rest.startswith("《"):
        yield count, rest


def _count_last(line: str) -> Iterator[tuple[int, str]]:
    """Readings with the count last: `Pot of Greed x3`, `強欲な壺 ×3`, `強欲な壺×3枚`, `強欲な壺 3枚`, `《強欲な壺》3`.

    A number after a name is a count only after a times sign, before 枚 or after 》, so `火炎木人18` is one card. Before
    枚 the name may end in digits too, so the last one or two digits are also read as the count (`Armed Dragon LV33枚`),
    first when the number starts with 0, which no count does (`Deskbot 0053枚`).
    """
    body = line.removesuffix("枚")
    marked = body != line
    body = body.rstrip()
    head = body.rstrip(_DIGITS)
    digits = body[len(head) :]
    if not digits:
        return
    name = head.rstrip()
    if (head.endswith("X") or name.endswith(_TIMES)) and name[:-1].strip():
        yield int(digits), name[:-1].rstrip()
    whole = [(int(digits), name)] if name and (marked or name.endswith("》")) else []
    cuts = [(int(digits[-cut:]), head + digits[:-cut]) for cut in (2, 1) if marked and cut < len(digits)]
    yield from cuts + whole if digits.startswith("0") else whole + cuts


def _count_in_brackets(line: str) -> Iterator[tuple[int, str]]:
    """The reading with a count in brackets after the name: `クリボー（3）`, `Pot of Greed (x3)`, `クリボー(3枚)`."""
    head, opened, inner = line.removesuffix(")").rpartition("(")
    digits = inner.strip().removesuffix("枚").rstrip().lstrip("".join(_TIMES) + "X").lstrip()
    if line.endswith(")") and opened and head.strip() and digits.isascii() and digits.isdigit():
        yield int(digits), head.rstrip()


def _count_after(line: str) -> Iterator[tuple[int, str]]:
    """The reading with a bare count after the name: `Pot of Greed 3`, `クリボー　３` (folded to `クリボー 3`)."""
    head, space, digits = line.rpartition(" ")
    if space and head and digits.isascii() and digits.isdigit():
        yield int(digits), head


def _pick(readings: list[tuple[int, str]], names: Callable[[str], bool]) -> tuple[int, str] | None:
    """The first reading whose card `names` knows, of those a deck may hold first: `Harpie Lady 23枚` is three
    Harpie Lady 2, not 23 Harpie Lady."""
    named = [reading for reading in readings if names(reading[1])]
    playable = [reading for reading in named if reading[0] <= MAX_COPIES]
    return (playable or named)[0] if named else None


def _text_entry(line: str, cards: CardIndex) -> tuple[int, str]:
    """(count, card) for a text line; the card is a name or a passcode.

    A whole line that names a card wins, so names that hold numbers, brackets or times signs read as one copy
    (`7 Colored Fish`, `ふわんだりぃず×とっかん`). Otherwise the first reading that names a card wins, so a name that
    ends in x keeps it (`Andro Sphinx 3枚`), and of two such readings one of at most three copies. Readings name a
    card exactly before any does loosely (data/names.py): first those of a count before the name or marked after it
    (`×3`, `3枚`), then a count in brackets (`（3）`), then the same loosely, the whole line last; last of all a bare
    number after the name (`Pot of Greed 3`), exactly then loosely, read only when the whole line names no card even
    loosely, as `Jinzo 7` loosely names Jinzo #7 and `Harpie Lady 3` is a card. A line that starts with a bullet and
    names no card exactly as it is is read without it. When no reading names a card, the first with a count before
    the name, marked or in brackets stands (else the whole line), and the deck reports its name.
    """
    if cards.find_name(line) is not None or is_passcode(line):
        return 1, line

    def exact(card: str) -> bool:
        return cards.find_name(card) is not None or (is_passcode(card) and int(card) in cards.by_passcode)

    whole = (1, _bare(line))
    readings = [(count, _bare(card)) for count, card in (*_count_first(line), *_count_last(line))]
    # The exact readings as ever, written out: a call here would slow every line of every list.
    named = [reading for reading in (whole, *readings) if exact(reading[1])]
    if named:
        return ([reading for reading in named if reading[0] <= MAX_COPIES] or named)[0]
    if line[0] in _BULLETS and (rest := line.lstrip(_BULLETS + " ")):
        return _text_entry(rest, cards)  # a bullet before the card: `・クリボー×3`, `- Pot of Greed`, `●強欲な壺`

    def loose(card: str) -> bool:
        return cards.find_loose(card) is not None

    bracketed = [(count, _bare(card)) for count, card in _count_in_brackets(line)]
    after = [(count, _bare(card)) for count, card in _count_after(line)]
    # Loosely, a count before the name or marked after it comes before the whole line, whose key drops the marks:
    # `ハーピィレディ×3` is three Harpie Lady, though its key is that of ハーピィ・レディ３.
    found = _pick(bracketed, exact) or _pick([*readings, *bracketed, whole], loose)
    found = found or _pick(after, exact) or _pick(after, loose)
    return found or (readings + bracketed or [whole])[0]


def text_line(raw: str, cards: CardIndex) -> Section | tuple[int, str] | None:
    """What one line of a list says: the section a heading opens, (count, card) for a card line (the card a name or
    a passcode, as `_text_entry` reads it), None for a blank line or a comment. Read printed lists line by line too
    (paper/lines.py)."""
    line = _fold(raw)
    if not line:
        return None
    heading = _heading(line)
    if heading is not None:
        return heading
    if line.startswith(("//", "#")):
        return None
    return _text_entry(line, cards)


def parse_text(text: str, cards: CardIndex) -> Deck:
    """Read a plain list: one card a line, headings in English or Japanese, blank lines and `#` or `//` comments.

    A card line is a name or a passcode with an optional count: `3 Pot of Greed`, `3x 強欲な壺`, `Pot of Greed x3`,
    `46986414`, and the Japanese `《強欲な壺》×3`, `3 《強欲な壺》`, `強欲な壺 3枚`, `強欲な壺×3枚`, `強欲な壺　×３`
    (no count is one copy), and after the name `クリボー（3）`, `Pot of Greed 3` (`_text_entry` says when). A card line
    may start with a bullet: `・クリボー×3`, `- Pot of Greed`. A heading may be bracketed or marked and carry a count:
    `Main Deck (40)`, `【メインデッキ】（40枚）`, `【メインデッキ 40枚】`, `〔EXデッキ〕`, `［サイドデッキ］`,
    `＜メインデッキ＞`, `■エクストラデッキ`, `■モンスター`. Cards before any heading are main. A name is kept as
    the line gives it, folded to plain width and without its 《》, and may name its card loosely (data/names.py), as
    the rules then read it; a count outside 1 to 99 is a `bad_count` error at its line."""
    builder = Builder()
    errors: list[FormatError] = []
    section: Section = "main"
    for number, raw in numbered_lines(text):
        read = text_line(raw, cards)
        if isinstance(read, str):
            section = read
            continue
        if read is None:
            continue
        count, card = read
        if not 1 <= count <= MAX_COUNT:
            msg = f"a count must be from 1 to {MAX_COUNT}, not {count}"
            errors.append(FormatError(msg, "bad_count", number, column(raw)))
            continue
        passcode, name = (int(card), None) if is_passcode(card) else (None, card)
        builder.add(section, passcode, name, count, number)
    if errors:
        raise DeckFormatError(errors)
    return builder.deck()


def write_text(deck: Deck, cards: CardIndex, lang: str = "en") -> str:
    """A plain list with headings, one `count name` line per entry, names in `lang` (ja or en).

    Nothing is lost: an alternate artwork (a passcode that is not the card's own) and a card whose name would be
    read as another card (a name two cards share, or one that reads as a passcode: "7", "７") are written by passcode.
    """
    headings = (
        ("メインデッキ", "エクストラデッキ", "サイドデッキ")
        if lang == "ja"
        else ("Main Deck", "Extra Deck", "Side Deck")
    )
    out: list[str] = []
    for section, heading in zip(SECTIONS, headings, strict=True):
        out.append(heading)
        for entry in deck.section(section):
            card = card_of(entry, cards)
            name = card.name(lang)
            alternate = entry.passcode is not None and entry.passcode != card.passcode
            readable = cards.find_name(name) is card and not is_passcode(_fold(name))
            label = str(entry.passcode) if alternate else name if readable else str(card.passcode)
            out.append(f"{entry.count} {label}")
        out.append("")
    return "\n".join(out)
