"""The plain-text list: one card a line by name or passcode, with a count, under English or Japanese headings."""

from __future__ import annotations

import re
import unicodedata

from deckcheck.data import CardIndex
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
    **dict.fromkeys(("extra", "extra deck", "エクストラ", "エクストラデッキ"), "extra"),
    **dict.fromkeys(("side", "side deck", "サイド", "サイドデッキ"), "side"),
}
# A heading may carry a card count: "Main Deck (40)", "メインデッキ（40枚）", "Side: 15".
_HEADING_TAIL = re.compile(r"[\s:]*(\(\s*\d+\s*枚?\s*\)|\d+\s*枚?)?[\s:]*$")
# "3 Pot of Greed", "3x 強欲な壺", "3x強欲な壺", "3 x Pot of Greed"; an x must touch the count or stand alone.
_COUNT_FIRST = re.compile(r"^(\d+)(?:\s*[x×*]\s+|[x×*]|\s+)(\S.*)$")
# "Pot of Greed x3", "強欲な壺 ×3".
_COUNT_LAST = re.compile(r"^(.*?\S)\s*[x×*]\s*(\d+)$")


def _fold(line: str) -> str:
    """Full-width digits, letters and spaces to their plain forms; runs of space to one."""
    return " ".join(unicodedata.normalize("NFKC", line).split())


def _heading(line: str) -> Section | None:
    title = _HEADING_TAIL.sub("", line.lstrip("#!").strip()).casefold()
    return _HEADINGS.get(title)


def _text_entry(line: str, cards: CardIndex) -> tuple[int, str]:
    """(count, card) for a text line; the card is a name or a passcode. A whole line that names a card wins,
    so names that start with a number ("7 Colored Fish") read as one copy."""
    if cards.find_name(line) is not None or is_passcode(line):
        return 1, line
    match = _COUNT_FIRST.match(line) or _COUNT_LAST.match(line)
    if match is None:
        return 1, line
    count, card = (match.group(1), match.group(2)) if match.re is _COUNT_FIRST else (match.group(2), match.group(1))
    return int(count), card


def parse_text(text: str, cards: CardIndex) -> Deck:
    """Read a plain list: one card a line (`3 Pot of Greed`, `3x 強欲な壺`, `Pot of Greed x3`, a passcode),
    headings in English or Japanese, blank lines and `#` or `//` comments. Cards before any heading are main."""
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
