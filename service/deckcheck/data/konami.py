"""Reading Konami's official OCG Forbidden/Limited list CSV, which names cards but carries no passcodes.

A first line of headings (`$,$,カード種別,カード名,カード名,`, or `20210,カード種別,カード名,カード名,`
in older files), then a row a card: status (禁止, 制限, 準制限, or 解除 for a card now unlimited), card kind,
Japanese name, English name in upper case (`，` standing for `, `), change note (`制限⇒禁止`, often empty).
Rows of empty cells part the statuses. Konami serves the file in UTF-8, with or without a BOM, or in CP932
(Shift_JIS). The card kind and the change note are not read: the status and the names say all a list holds.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from deckcheck.data.card import Card
from deckcheck.data.cards import CardIndex
from deckcheck.encoding import NotText, decoded_text
from deckcheck.errors import SourceError

STATUSES: dict[str, int | None] = {"禁止": 0, "制限": 1, "準制限": 2, "解除": None}  # 解除: unlimited now
HEADERS = (("$", "$", "カード種別", "カード名", "カード名", ""), ("20210", "カード種別", "カード名", "カード名", ""))
COLUMNS = ("status", "card kind", "Japanese name", "English name", "change note")
MAX_PROBLEMS = 100  # reading stops there and says so: a file of bad rows costs no more than this to answer
_CLIP = 80  # longer than any card name; a hostile cell may be far longer, and is quoted and searched only this far


def _clip(text: str) -> str:
    return text if len(text) <= _CLIP else text[:_CLIP] + "…"


def _decode(raw: bytes, source: str) -> str:
    """The file's text (`deckcheck.encoding`); SourceError where neither UTF-8 nor CP932 reads it."""
    try:
        return decoded_text(raw)[0]
    except NotText as bad:
        msg = f"line {bad.line}: byte {bad.byte:#04x} is neither UTF-8 nor CP932 (Shift_JIS) text"
        raise SourceError(source, [msg]) from None


def _show(card: Card) -> str:
    return f"{card.passcode} ({card.name_ja} / {card.name_en})" if card.name_ja else f"{card.passcode} ({card.name_en})"


def _resolve(ja: str, en: str, cards: CardIndex) -> Card | str:
    """The one card the row's names name, or what is wrong. Konami writes the comma of an English name full-width
    and with no space after it (`BLASTER，DRAGON RULER OF INFERNOS`): read as `, ` when the name as written fails."""
    by_ja = cards.find_name(ja) if ja else None
    by_en = (cards.find_name(en) or cards.find_name(en.replace("，", ", "))) if en else None
    if by_ja is not None and by_en is not None and by_ja is not by_en:
        return f"the names are of two cards: {_clip(ja)!r} is {_show(by_ja)}, {_clip(en)!r} is {_show(by_en)}"
    card = by_ja or by_en
    if card is not None:
        return card
    names = [name for name in (ja, en) if name]
    if not names:
        return "the row gives no card name"
    closest: dict[int, str] = {}  # the best three of both names' suggestions, best first, one a card
    hits = [hit for name in names for hit in cards.search.search(name[:_CLIP], 3)]
    for hit in sorted(hits, key=lambda hit: -hit.score):
        closest.setdefault(hit.card.passcode, f"{hit.name} ({hit.card.passcode})")
    named = " or ".join(repr(_clip(name)) for name in names)
    return f"no card is named {named}; closest: {', '.join(list(closest.values())[:3]) or 'none'}"


def _row(row: Sequence[str], number: int, cards: CardIndex, seen: dict[int, int], limits: dict[int, int]) -> list[str]:
    """The problems of data row `row` on line `number`; its card goes into `seen` and, unless released, `limits`."""
    if len(row) != len(COLUMNS):
        return [f"line {number}: expected {len(COLUMNS)} columns ({', '.join(COLUMNS)}), got {len(row)}"]
    status, _kind, ja, en, _note = (cell.strip() for cell in row)
    problems: list[str] = []
    if status not in STATUSES:
        problems.append(f"line {number}: unknown status {_clip(status)!r}, expected one of {', '.join(STATUSES)}")
    card = _resolve(ja, en, cards)
    if isinstance(card, str):
        problems.append(f"line {number}: {card}")
    elif card.passcode in seen:
        problems.append(f"line {number}: card {_show(card)} is listed twice, first on line {seen[card.passcode]}")
    else:
        seen[card.passcode] = number
        copies = STATUSES.get(status)
        if copies is not None:
            limits[card.passcode] = copies
    return problems


def read_konami_csv(raw: bytes, cards: CardIndex, source: str = "csv") -> dict[int, int]:
    """canonical passcode -> copies allowed (0, 1, 2) of the list in Konami's CSV `raw`; released (解除) cards must
    name a card too, but are left out, as unlimited.

    A row's card is the one its Japanese and English names name, each matched exactly after normalisation (never by
    similarity): one of them naming it is enough, but names of two different cards are refused. Raise SourceError with
    every problem, each starting `line N: `, up to MAX_PROBLEMS and then where reading stopped.
    """
    reader = csv.reader(io.StringIO(_decode(raw, source), newline=""))
    problems: list[str] = []
    seen: dict[int, int] = {}  # canonical passcode -> the line that named it, for the repeat message
    limits: dict[int, int] = {}
    end = rows = 0  # the physical line the last row ended on (a quoted cell may hold line breaks); data rows read
    try:
        for index, row in enumerate(reader):
            number, end = end + 1, reader.line_num
            if index == 0:
                if tuple(row) not in HEADERS:
                    expected = " or ".join(repr(",".join(header)) for header in HEADERS)
                    problems.append(f"line 1: expected a first line {expected}, got {_clip(','.join(row))!r}")
            elif not any(cell.strip() for cell in row):
                continue
            elif len(problems) >= MAX_PROBLEMS:
                problems.append(f"line {number}: {MAX_PROBLEMS} problems found: reading stopped at this line")
                break
            else:
                rows += 1
                problems += _row(row, number, cards, seen, limits)
    except csv.Error as exc:  # a cell past csv's field size limit: reading cannot go on
        raise SourceError(source, [*problems, f"line {reader.line_num}: {exc}"]) from None
    if not rows:
        problems.append(f"line {end + 1}: the file ends before any card is listed")
    if problems:
        raise SourceError(source, problems)
    return limits
