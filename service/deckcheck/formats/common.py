"""Deck formats: .ydk files, ydke:// links and plain-text lists, parsed into decks and written back.

Parsers never drop a line silently: every line that is not a card, a heading, a comment or blank is an error with
its line number. Entries keep the lines they came from, so a violation can point at the exact line.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from deckcheck.data.cards import Card, CardIndex
from deckcheck.model import SECTIONS, Deck, Entry, Section

MAX_LINES = 2000
MAX_LINE_LENGTH = 500
MAX_COUNT = 99
YDKE_PREFIX = "ydke://"


@dataclass(frozen=True, slots=True)
class FormatError:
    """One line (or part) that cannot be read."""

    msg: str
    type: str
    line: int | None = None
    column: int | None = None
    part: str | None = None


class DeckFormatError(Exception):
    """The input cannot be read as a deck; every problem found is listed."""

    def __init__(self, errors: list[FormatError]) -> None:
        super().__init__("; ".join(e.msg for e in errors))
        self.errors = errors


class _Builder:
    """Collects entries per section, merging consecutive copies of the same card into one entry."""

    def __init__(self) -> None:
        # Per section: [passcode, name, count, lines] rows, made into Entries once at the end.
        self.rows: dict[Section, list[list[Any]]] = {section: [] for section in SECTIONS}

    def add(self, section: Section, passcode: int | None, name: str | None, count: int, line: int | None) -> None:
        rows = self.rows[section]
        last = rows[-1] if rows else None
        if last is not None and passcode is not None and last[0] == passcode and last[1] == name:
            last[2] += count
        else:
            last = [passcode, name, count, []]
            rows.append(last)
        if line is not None:
            last[3].append(line)

    def deck(self) -> Deck:
        def entries(section: Section) -> tuple[Entry, ...]:
            return tuple(Entry(p, n, c, lines=tuple(lines)) for p, n, c, lines in self.rows[section])

        return Deck(entries("main"), entries("extra"), entries("side"))


def _lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines (from 1), refusing inputs with too many or too long lines."""
    lines = text.removeprefix("\ufeff").splitlines()
    errors = (
        [FormatError(f"more than {MAX_LINES} lines", "too_many_lines", MAX_LINES + 1)] if len(lines) > MAX_LINES else []
    )
    errors += [
        FormatError(f"line longer than {MAX_LINE_LENGTH} characters", "line_too_long", number, MAX_LINE_LENGTH + 1)
        for number, line in enumerate(lines[:MAX_LINES], start=1)
        if len(line) > MAX_LINE_LENGTH
    ]
    if errors:
        raise DeckFormatError(errors)
    return list(enumerate(lines, start=1))


def _column(line: str) -> int:
    return len(line) - len(line.lstrip()) + 1


def parse_ydk(text: str) -> Deck:
    """Read a .ydk file: `#main`, `#extra`, `!side` sections of passcodes; other `#` lines are comments."""
    builder = _Builder()
    errors: list[FormatError] = []
    section: Section | None = None
    for number, raw in _lines(text):
        line = raw.strip()
        if not line:
            continue
        heading = line.lower()
        if heading in ("#main", "#extra", "!side"):
            section = "side" if heading == "!side" else "main" if heading == "#main" else "extra"
        elif line.startswith("#"):
            continue
        elif not _is_passcode(line):
            errors.append(FormatError(f"'{line[:40]}' is not a passcode", "not_a_passcode", number, _column(raw)))
        elif section is None:
            errors.append(
                FormatError("a card before any #main, #extra or !side line", "card_outside_section", number, 1)
            )
        else:
            builder.add(section, int(line), None, 1, number)
    if errors:
        raise DeckFormatError(errors)
    return builder.deck()


def write_ydk(deck: Deck, cards: CardIndex) -> str:
    """A .ydk file of the deck; every entry must name an official card."""
    parts = ["#created by deckcheck"]
    for section, heading in zip(SECTIONS, ("#main", "#extra", "!side"), strict=True):
        parts.append(heading)
        parts += [str(passcode) for passcode in _passcodes(deck, section, cards)]
    return "\n".join(parts) + "\n"


Copies = tuple[Counter[int], Counter[int], Counter[int]]


def ydke_copies(link: str) -> Copies:
    """Read a ydke:// link (main!extra!side, each base64 of little-endian uint32 passcodes) into copies per
    passcode for each section, in order of each card's first copy."""
    body = link.strip()
    if not body.startswith(YDKE_PREFIX):
        raise DeckFormatError([FormatError("a ydke link starts with ydke://", "not_ydke", part="link")])
    parts = body[len(YDKE_PREFIX) :].split("!")
    if len(parts) == 4 and parts[3] == "":
        parts = parts[:3]
    if len(parts) != 3:
        message = f"a ydke link has 3 parts, this one {len(parts)}"
        raise DeckFormatError([FormatError(message, "ydke_parts", part="link")])
    sections: list[Counter[int]] = []
    errors: list[FormatError] = []
    for section, part in zip(SECTIONS, parts, strict=True):
        try:
            raw = _b64(part)
        except ValueError as exc:
            errors.append(FormatError(f"{section}: {exc}", "ydke_base64", part=section))
            continue
        if len(raw) % 4:
            message = f"{section}: {len(raw)} bytes is not a whole number of passcodes"
            errors.append(FormatError(message, "ydke_length", part=section))
            continue
        sections.append(Counter(struct.unpack(f"<{len(raw) // 4}I", raw)))
    if errors:
        raise DeckFormatError(errors)
    return sections[0], sections[1], sections[2]


def deck_of(copies: Copies) -> Deck:
    """The deck whose sections hold these copies: one entry per card (ydke links have no lines to keep)."""
    return Deck(*(tuple(Entry(code, None, count) for code, count in section.items()) for section in copies))


def parse_ydke(link: str) -> Deck:
    """Read a ydke:// link: main!extra!side, each base64 of little-endian uint32 passcodes."""
    return deck_of(ydke_copies(link))


def _b64(part: str) -> bytes:
    """Standard or url-safe base64, padding optional."""
    if part.endswith("=") or len(part) % 4 == 0:
        try:
            return binascii.a2b_base64(part, strict_mode=True)  # the common case, at C speed
        except binascii.Error:
            pass
    if not re.fullmatch(r"[A-Za-z0-9+/\-_]*={0,2}", part):
        raise ValueError("not base64")
    padded = part.rstrip("=")
    padded += "=" * (-len(padded) % 4)
    try:
        return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"not base64 ({exc})") from None


def write_ydke(deck: Deck, cards: CardIndex) -> str:
    """A ydke:// link of the deck; every entry must name an official card."""
    parts = []
    for section in SECTIONS:
        passcodes = _passcodes(deck, section, cards)
        parts.append(base64.b64encode(struct.pack(f"<{len(passcodes)}I", *passcodes)).decode("ascii"))
    return YDKE_PREFIX + "!".join(parts) + "!"


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


def _is_passcode(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 9


def _text_entry(line: str, cards: CardIndex) -> tuple[int, str]:
    """(count, card) for a text line; the card is a name or a passcode. A whole line that names a card wins,
    so names that start with a number ("7 Colored Fish") read as one copy."""
    if cards.find_name(line) is not None or _is_passcode(line):
        return 1, line
    match = _COUNT_FIRST.match(line) or _COUNT_LAST.match(line)
    if match is None:
        return 1, line
    count, card = (match.group(1), match.group(2)) if match.re is _COUNT_FIRST else (match.group(2), match.group(1))
    return int(count), card


def parse_text(text: str, cards: CardIndex) -> Deck:
    """Read a plain list: one card a line (`3 Pot of Greed`, `3x 強欲な壺`, `Pot of Greed x3`, a passcode),
    headings in English or Japanese, blank lines and `#` or `//` comments. Cards before any heading are main."""
    builder = _Builder()
    errors: list[FormatError] = []
    section: Section = "main"
    for number, raw in _lines(text):
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
            errors.append(FormatError(msg, "bad_count", number, _column(raw)))
            continue
        passcode, name = (int(card), None) if _is_passcode(card) else (None, card)
        builder.add(section, passcode, name, count, number)
    if errors:
        raise DeckFormatError(errors)
    return builder.deck()


def write_text(deck: Deck, cards: CardIndex, lang: str = "en") -> str:
    """A plain list with headings, one `count name` line per entry, names in `lang` (ja or en).

    Nothing is lost: an alternate artwork (a passcode that is not the card's own) and a card whose name would be
    read as another card (a name two cards share) are written by passcode.
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
            card = _card(entry, cards)
            name = card.name(lang)
            alternate = entry.passcode is not None and entry.passcode != card.passcode
            label = str(entry.passcode) if alternate else name if cards.find_name(name) is card else str(card.passcode)
            out.append(f"{entry.count} {label}")
        out.append("")
    return "\n".join(out)


def _card(entry: Entry, cards: CardIndex) -> Card:
    card = cards.by_passcode.get(entry.passcode) if entry.passcode is not None else None
    if card is None and entry.passcode is None and entry.name is not None:
        card = cards.find_name(entry.name)
    if card is None:
        raise DeckFormatError([FormatError(f"{entry.name or entry.passcode} is not an official card", "unknown_card")])
    return card


def _passcodes(deck: Deck, section: Section, cards: CardIndex) -> list[int]:
    out: list[int] = []
    for entry in deck.section(section):
        passcode = entry.passcode if entry.passcode is not None else _card(entry, cards).passcode
        out += [passcode] * entry.count
    return out


def parse(fmt: str, source: str, cards: CardIndex) -> Deck:
    """Parse `source` written in `fmt` (ydk, ydke or text)."""
    if fmt == "ydk":
        return parse_ydk(source)
    if fmt == "ydke":
        return parse_ydke(source)
    return parse_text(source, cards)


def write(fmt: str, deck: Deck, cards: CardIndex, lang: str = "en") -> str:
    """Write `deck` as `fmt` (ydk, ydke or text with names in `lang`)."""
    if fmt == "ydk":
        return write_ydk(deck, cards)
    if fmt == "ydke":
        return write_ydke(deck, cards)
    return write_text(deck, cards, lang)
