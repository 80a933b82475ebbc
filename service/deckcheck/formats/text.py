"""The plain-text list: one card a line by name or passcode, with a count, under English or Japanese headings.

Besides the English forms (`3 Pot of Greed`, `3x Pot of Greed`, `Pot of Greed x3`) it reads the notations of
Japanese deck lists: names in 《》 (`《強欲な壺》×3`), counts in 枚 (`強欲な壺 3枚`), full-width digits, spaces and
times signs, and headings in brackets (`【メインデッキ】（40枚）`, `〔エクストラデッキ〕`, `［サイドデッキ］`).

Every step is a scan of the line with string methods, never a backtracking pattern, so reading stays linear in
the input however hostile it is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

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

_HEADINGS: dict[str, Section] = {
    **dict.fromkeys(("main", "main deck", "deck", "monster", "monsters", "spell", "spells", "trap", "traps"), "main"),
    **dict.fromkeys(("メイン", "メインデッキ", "デッキ", "モンスター", "魔法", "罠"), "main"),
    **dict.fromkeys(("モンスターカード", "魔法カード", "罠カード"), "main"),
    **dict.fromkeys(("extra", "extra deck", "エクストラ", "エクストラデッキ", "exデッキ"), "extra"),
    **dict.fromkeys(("side", "side deck", "サイド", "サイドデッキ"), "side"),
}
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
    `【メインデッキ 40枚】`, `〔エクストラデッキ〕`, `［サイドデッキ］`, `＜メインデッキ＞`; None for any other line."""
    title = line.lstrip("#!").strip()
    close = _HEADING_BRACKETS.get(title[:1])
    if close is not None:
        title, closed, after = title[1:].partition(close)
        if not closed or not _is_count_note(after):
            return None
    word = title.rstrip(_NOTE_CHARS)
    if not _is_count_note(title[len(word) :]):
        return None
    return _HEADINGS.get(word.strip().casefold())


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


def _text_entry(line: str, cards: CardIndex) -> tuple[int, str]:
    """(count, card) for a text line; the card is a name or a passcode.

    A whole line that names a card wins, so names that hold numbers, brackets or times signs read as one copy
    (`7 Colored Fish`, `ふわんだりぃず×とっかん`). Otherwise the first reading that names a card wins, so a name that
    ends in x keeps it (`Andro Sphinx 3枚`), and of two such readings one of at most three copies; when none names a
    card, the first reading stands and the deck reports its name.
    """
    if cards.find_name(line) is not None or is_passcode(line):
        return 1, line

    def known(reading: tuple[int, str]) -> bool:
        card = reading[1]
        return cards.find_name(card) is not None or (is_passcode(card) and int(card) in cards.by_passcode)

    whole = (1, _bare(line))
    readings = [(count, _bare(card)) for count, card in (*_count_first(line), *_count_last(line))]
    named = [reading for reading in (whole, *readings) if known(reading)]
    # Of two readings that both name a card, one that a deck may hold wins: `Harpie Lady 23枚` is three Harpie Lady 2.
    playable = [reading for reading in named if reading[0] <= MAX_COPIES]
    return (playable or named or readings or [whole])[0]


def parse_text(text: str, cards: CardIndex) -> Deck:
    """Read a plain list: one card a line, headings in English or Japanese, blank lines and `#` or `//` comments.

    A card line is a name or a passcode with an optional count: `3 Pot of Greed`, `3x 強欲な壺`, `Pot of Greed x3`,
    `46986414`, and the Japanese `《強欲な壺》×3`, `3 《強欲な壺》`, `強欲な壺 3枚`, `強欲な壺×3枚`, `強欲な壺　×３`
    (no count is one copy). A heading may be bracketed and carry a count: `Main Deck (40)`, `【メインデッキ】（40枚）`,
    `【メインデッキ 40枚】`, `〔EXデッキ〕`, `［サイドデッキ］`, `＜メインデッキ＞`. Cards before any heading are main.
    A name is kept as the line gives it, folded to plain width and without its 《》; a count outside 1 to 99 is a
    `bad_count` error at its line."""
    builder = Builder()
    errors: list[FormatError] = []
    section: Section = "main"
    for number, raw in numbered_lines(text):
        line = _fold(raw)
        heading = _heading(line) if line else None
        if heading is not None:
            section = heading
            continue
        if not line or line.startswith(("//", "#")):
            continue
        count, card = _text_entry(line, cards)
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
