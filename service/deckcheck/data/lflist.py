"""Reading and writing the `lflist.conf` banlist format of ygopro and EDOPro (Project Ignis).

A file holds lists, each started by a `!name` line; `#` lines are comments; an entry is `passcode count` with an
optional comment after it. EDOPro's `$whitelist` line forbids every card its list does not name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from deckcheck.data.banlists import Banlist, make_banlist
from deckcheck.data.cards import CardIndex
from deckcheck.errors import InvalidInput

UNLIMITED = 3  # in a normal list a 3 says what leaving the card out says; in a whitelist it allows three
HEADINGS = {0: "#forbidden", 1: "#limited", 2: "#semi-limited", UNLIMITED: "#unlimited"}
WHITELIST = "$whitelist"
# Digits, whitespace, digits, then the end, whitespace or `--`; like ygopro, ignore the rest. The count may carry
# a sign so that -1 is a bad count, not a bad line. Linear: a failed match backtracks over one run of digits.
_ENTRY = re.compile(r"([0-9]+)\s+(-?[0-9]+)(?:--|\s|$)")
_CLIP = 24  # a hostile line may be megabytes long: messages quote only its start
MAX_NAME_CHARS = 100  # a list's name is repeated in every message about it, as a JSON list's name is
MAX_PROBLEMS = 100  # reading stops there and says so: a file of bad lines costs no more than this to answer
_HELD_SHOWN = 20  # list names a message quotes


@dataclass(frozen=True, slots=True)
class LflistList:
    """One list of an lflist file: canonical passcode to the copies allowed (0, 1, 2; 3 only in a whitelist)."""

    name: str
    limits: Mapping[int, int]
    whitelist: bool = False


@dataclass(frozen=True, slots=True)
class LflistProblem:
    """One problem of a file: its 1-based line (None for the whole file), a message and a stable type."""

    line: int | None
    msg: str
    type: str


class LflistError(InvalidInput):
    """A file that cannot be read; `problems` holds every problem found, whole-file ones first, then by line."""

    def __init__(self, problems: Sequence[LflistProblem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.line is not None, p.line or 0))
        super().__init__("; ".join(p.msg if p.line is None else f"line {p.line}: {p.msg}" for p in self.problems))


def _clip(text: str) -> str:
    return text if len(text) <= _CLIP else text[:_CLIP] + "…"


def _lines(text: str) -> list[str]:
    # Only \n ends a line, as for ygopro's fgets: str.splitlines would also split on \x1c, \u2028 and the like,
    # numbering lines differently from the user's editor. strip() takes the \r of a CRLF.
    return [line.strip() for line in text.removeprefix("\ufeff").split("\n")]


def _headers(lines: Sequence[str]) -> list[tuple[int, str]]:
    return [(number, line[1:].strip()) for number, line in enumerate(lines, start=1) if line.startswith("!")]


def _entry(line: str, number: int) -> tuple[str, str] | LflistProblem:
    """The passcode and count texts of an entry line, or a bad_line problem."""
    match = _ENTRY.match(line)
    if match is None:
        return LflistProblem(number, f"expected `passcode count`, got {_clip(line)!r}", "bad_line")
    return match[1], match[2]


def _choose(headers: Sequence[tuple[int, str]], name: str | None) -> int | LflistProblem:
    """The index in `headers` of the list asked for, or the whole-file problem that prevents choosing one."""
    held = ", ".join(repr(_clip(held_name)) for _, held_name in headers[:_HELD_SHOWN])
    if len(headers) > _HELD_SHOWN:
        held += f" and {len(headers) - _HELD_SHOWN} more"
    if not headers:
        return LflistProblem(None, "the file holds no list: it has no `!name` line", "no_list")
    if name is None and len(headers) > 1:
        return LflistProblem(None, f"the file holds {len(headers)} lists, name one of: {held}", "list_not_named")
    found = [index for index, (_, header_name) in enumerate(headers) if name in (None, header_name)]
    if not found:
        return LflistProblem(None, f"the file holds no list named {name!r}, only: {held}", "unknown_list")
    if len(found) > 1:
        where = ", ".join(str(headers[index][0]) for index in found[:_HELD_SHOWN])
        msg = f"the file holds {len(found)} lists named {_clip(str(name))!r}, on lines {where}"
        return LflistProblem(None, msg + ("…" if len(found) > _HELD_SHOWN else ""), "repeated_list")
    number, chosen = headers[found[0]]
    if not chosen or len(chosen) > MAX_NAME_CHARS:
        msg = f"a list's name must be 1 to {MAX_NAME_CHARS} characters, not {len(chosen)}"
        return LflistProblem(number, msg, "bad_list_name")
    return found[0]


def _full(problems: list[LflistProblem], number: int) -> bool:
    """Whether MAX_PROBLEMS have been found; the first time, say at which line reading stopped."""
    if len(problems) < MAX_PROBLEMS:
        return False
    if problems[-1].type != "too_many_problems":
        msg = f"{MAX_PROBLEMS} problems found: reading stopped at this line"
        problems.append(LflistProblem(number, msg, "too_many_problems"))
    return True


def _preamble(lines: Sequence[str]) -> list[LflistProblem]:
    """Problems of the lines before the first `!name`: anything but comments and blanks belongs to no list."""
    problems: list[LflistProblem] = []
    for number, line in enumerate(lines, start=1):
        if not line or line.startswith("#"):
            continue
        if _full(problems, number):
            break
        entry = _entry(line, number) if line != WHITELIST else None
        if isinstance(entry, LflistProblem):
            problems.append(entry)
        else:
            problems.append(LflistProblem(number, "an entry before the first `!name` line", "entry_outside_list"))
    return problems


def _body(
    lines: Sequence[str], first: int, cards: CardIndex, problems: list[LflistProblem]
) -> tuple[dict[int, int], bool]:
    """The limits of a list's lines (numbered from `first`) and whether it is a whitelist; problems are appended."""
    limits: dict[int, int] = {}
    first_line: dict[int, int] = {}  # canonical passcode -> the line that named it, for the repeat message
    whitelist = False
    for number, line in enumerate(lines, start=first):
        if not line or line.startswith("#"):
            continue
        if _full(problems, number):
            break
        if line == WHITELIST:
            whitelist = True
            continue
        entry = _entry(line, number)
        if isinstance(entry, LflistProblem):
            problems.append(entry)
            continue
        passcode, count = entry
        # Guarded lengths keep int() cheap and inside Python's digit limit; longer numbers are wrong anyway.
        copies = int(count) if len(count) <= 2 else -1
        if copies not in HEADINGS:
            problems.append(LflistProblem(number, f"count {_clip(count)} is not 0, 1, 2 or 3", "bad_count"))
        card = cards.by_passcode.get(int(passcode)) if len(passcode) <= 10 else None
        if card is None:
            problems.append(LflistProblem(number, f"passcode {_clip(passcode)} is not a known card", "unknown_card"))
        elif card.passcode in first_line:
            msg = f"card {card.passcode} ({card.name_en}) is listed twice, first on line {first_line[card.passcode]}"
            problems.append(LflistProblem(number, msg, "repeated_card"))
        else:
            first_line[card.passcode] = number
            limits[card.passcode] = copies
    return limits, whitelist


def read_lflist(text: str, cards: CardIndex, name: str | None = None) -> LflistList:
    """The list called `name` in `text` (its only list when `name` is None), every passcode made canonical.

    Raise LflistError holding every problem, up to MAX_PROBLEMS and then where reading stopped. Only the chosen
    list's lines and those before the first `!name` are checked: the lines of the other lists are not read at all,
    so a broken list never blocks a good one.
    """
    lines = _lines(text)
    headers = _headers(lines)
    problems = _preamble(lines[: headers[0][0] - 1] if headers else lines)
    chosen = _choose(headers, name)
    if isinstance(chosen, LflistProblem):
        raise LflistError([*problems, chosen])
    start = headers[chosen][0]  # the header's 1-based number is the 0-based index of the list's first line
    end = headers[chosen + 1][0] - 1 if chosen + 1 < len(headers) else len(lines)
    limits, whitelist = _body(lines[start:end], start + 1, cards, problems)
    if problems:
        raise LflistError(problems)
    # EDOPro honours `$whitelist` anywhere in its list, so the 3s can be weighed only once the list is read.
    kept = {passcode: copies for passcode, copies in limits.items() if whitelist or copies < UNLIMITED}
    return LflistList(name=headers[chosen][1], limits=MappingProxyType(kept), whitelist=whitelist)


def _canonical(lflist: LflistList, cards: CardIndex) -> list[tuple[int, int]]:
    """The list's entries as (canonical passcode, count), sorted; InvalidInput for what cannot be written."""
    name = lflist.name
    if not name or name != name.strip() or any(char in name for char in "\r\n]"):
        # `!name` lines are read stripped, and a line break or `]` would break the file or its header line.
        raise InvalidInput(f"list name {name!r} cannot be written: empty, padded, or holding a line break or `]`")
    entries: dict[int, int] = {}
    for passcode, count in lflist.limits.items():
        card = cards.by_passcode.get(passcode)
        if card is None:
            raise InvalidInput(f"{name}: passcode {passcode} is not a known card")
        if card.passcode in entries:
            raise InvalidInput(f"{name}: card {card.passcode} ({card.name_en}) is listed twice")
        if count not in HEADINGS:
            raise InvalidInput(f"{name}: count {count} of card {passcode} is not 0, 1, 2 or 3")
        entries[card.passcode] = count
    return sorted(entries.items())


def write_lflist(lists: Sequence[LflistList], cards: CardIndex) -> str:
    """The lists as one lflist file, the same text for the same lists: under each status heading its entries by
    canonical passcode, with English names. A 3 in a normal list is left out, as it means unlimited.

    Raise InvalidInput for a name that cannot be written or is used twice, an unknown card, a card given twice (an
    alternate passcode is its canonical card) or a count outside 0–3.
    """
    names = [lflist.name for lflist in lists]
    repeated = [name for name, uses in Counter(names).items() if uses > 1]
    if repeated:
        raise InvalidInput(f"two lists named {repeated[0]!r} cannot be written: the reader refuses a repeated name")
    entries = [_canonical(lflist, cards) for lflist in lists]
    out = ["#" + "".join(f"[{name}]" for name in names)]
    for lflist, canonical in zip(lists, entries, strict=True):
        out.append(f"!{lflist.name}")
        if lflist.whitelist:
            out.append(WHITELIST)
        for status, heading in HEADINGS.items():
            if status < UNLIMITED or lflist.whitelist:
                out.append(heading)
                out.extend(
                    f"{passcode} {count} --{cards.by_passcode[passcode].name_en}"
                    for passcode, count in canonical
                    if count == status
                )
    return "\n".join(out) + "\n"


def as_banlist(lflist: LflistList, list_id: str, fmt: str, cards: CardIndex) -> Banlist:
    """A list read from a file as a loaded list, with no dates (a file gives none) and with its whitelist."""
    return make_banlist(
        list_id, lflist.name, fmt, dates=(None, None), limits=lflist.limits, cards=cards, whitelist=lflist.whitelist
    )


def banlists_as_lflist(banlists: Sequence[Banlist], cards: CardIndex) -> str:
    """Loaded lists as one lflist file, each under its name."""
    return write_lflist([LflistList(b.name, b.limits, b.whitelist) for b in banlists], cards)
