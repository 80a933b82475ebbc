"""The card catalogue: every canonical card, its alternate passcodes and its names."""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from deckcheck.data.card import Card
from deckcheck.data.names import normalize_name, plain_name, read_keys
from deckcheck.data.readings import ReadingRow, resolve_readings
from deckcheck.data.search import NameSearch
from deckcheck.errors import DataError
from deckcheck.limits import MAX_NAME_CHARS

KINDS = frozenset({"monster", "spell", "trap"})
EXTRA_DECK_TYPES = frozenset({"fusion", "synchro", "xyz", "link", "none"})
CARD_COLUMNS = (  # the project's compact card file, written by scripts/build_data.py
    "passcode",
    "alias",
    "official",
    "name_ja",
    "name_en",
    "kind",
    "extra_deck_type",
    "pendulum",
    "ocg",
    "tcg",
    "ja_first_print",
    "ja_first_print_exact",
    "tcg_first_print",
    "tcg_first_print_exact",
)
# A card file of an updates folder (data/updates.py) adds two columns: whether the passcode is a provisional
# pre-release one, and whether the row replaces a card of the same passcode in the data beneath.
UPDATE_CARD_COLUMNS = (*CARD_COLUMNS, "provisional", "replaces")
_UPDATE_ONLY = "then provisional,replaces in an updates folder"
CardRow = tuple[dict[str, str], str, str]  # a row of a card file, the file and the entry (line) it came from


@dataclass(frozen=True, slots=True, eq=False)
class CardIndex:
    """Immutable lookups over the whole catalogue (made once; compared and hashed as the one object it is)."""

    by_passcode: Mapping[int, Card] = field(repr=False)
    aliases: Mapping[int, tuple[int, ...]] = field(repr=False)
    by_name: Mapping[str, Card] = field(repr=False)
    search: NameSearch = field(repr=False)
    # 同名カード (TR 1 counts copies by name): canonical cards that share a name, each to all of its name's cards
    # (itself too).
    # Only the few shared names are held; every other card is the one card of its name.
    namesakes: Mapping[int, tuple[int, ...]] = field(repr=False, default_factory=dict)
    # The last day the card printings are known to be complete: a card first printed after it may be missing.
    printings_until: dt.date | None = None
    # What the rules work out from these cards (data/memo.py), kept with them and gone with them.
    memo: dict[Hashable, Any] = field(repr=False, default_factory=dict)

    def __len__(self) -> int:
        return len(self.aliases)

    def find_name(self, name: str) -> Card | None:
        """The card whose Japanese or English name equals `name` after normalisation."""
        return self.by_name.get(normalize_name(name))

    def find_loose(self, name: str) -> tuple[Card, str] | None:
        """The one card a name names loosely (data/names.py `read_keys`, the first group of keys that finds any
        card's name), with its name as printed that matched: None when no card's name has a key of `name`, or names
        of two cards have keys of the first group that finds any. A key with dashes read as word boundaries finds
        only a name whose words end there. Alternate artworks and the cards of a shared name (同名カード) are one card
        here, the one `find_name` gives for that name."""
        if len(name) > MAX_NAME_CHARS:
            return None  # no card's name, and a deck that gives it is refused: not worth folding
        for keys in read_keys(name):
            found: dict[Card, str] = {}
            for key, ends in keys:
                for printed, _card, words in self.search.named(key):
                    if words & ends == ends:
                        found.setdefault(self.by_name[normalize_name(printed)], printed)
            if found:
                return next(iter(found.items())) if len(found) == 1 else None
        return None

    def read_name(self, name: str) -> tuple[Card, str | None] | None:
        """The card `name` names, and beside it its name as printed where `name` differs from that in more than
        width, case and spacing (a dash, a dot: `find_name` folds those) or was read loosely (`find_loose`), else
        None; None when it names no one card."""
        card = self.find_name(name)
        if card is None:
            return self.find_loose(name)
        written = plain_name(name)
        printed = [n for n in (card.name_ja, card.name_en) if n and normalize_name(n) == normalize_name(name)]
        return card, None if any(plain_name(n) == written for n in printed) else printed[0]

    def may_lack_printings(self, day: dt.date) -> bool:
        """Whether a card printed by `day` may be missing: `day` is after the printings are complete."""
        return self.printings_until is not None and day > self.printings_until

    def name_id(self, passcode: int) -> int:
        """The passcode copies of the canonical card `passcode` count under: the lowest of its name's cards."""
        group = self.namesakes.get(passcode)
        return passcode if group is None else group[0]


def _date(value: str, file: str, entry: str) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise DataError(file, entry, f"bad date {value!r}") from None


def _flag(value: str, file: str, entry: str) -> bool:
    if value not in ("0", "1"):
        raise DataError(file, entry, f"flag must be 0 or 1, not {value!r}")
    return value == "1"


def _card(row: dict[str, str], file: str, entry: str) -> Card:
    if row["kind"] not in KINDS:
        raise DataError(file, entry, f"unknown kind {row['kind']!r}")
    if row["extra_deck_type"] not in EXTRA_DECK_TYPES:
        raise DataError(file, entry, f"unknown extra_deck_type {row['extra_deck_type']!r}")
    if not row["name_en"] and not row["name_ja"]:
        raise DataError(file, entry, "no name")
    for key in ("name_en", "name_ja"):
        if len(row[key]) > MAX_NAME_CHARS:
            raise DataError(file, entry, f"{key}: longer than the {MAX_NAME_CHARS} characters a card name may have")
    return Card(
        passcode=int(row["passcode"]),
        name_ja=row["name_ja"],
        name_en=row["name_en"],
        kind=row["kind"],
        extra_deck_type=row["extra_deck_type"],
        pendulum=_flag(row["pendulum"], file, entry),
        official_passcode=_flag(row["official"], file, entry),
        ocg=_flag(row["ocg"], file, entry),
        tcg=_flag(row["tcg"], file, entry),
        ja_first_print=_date(row["ja_first_print"], file, entry),
        ja_first_print_exact=_flag(row["ja_first_print_exact"], file, entry),
        tcg_first_print=_date(row["tcg_first_print"], file, entry),
        tcg_first_print_exact=_flag(row["tcg_first_print_exact"], file, entry),
        provisional=_flag(row.get("provisional", "0"), file, entry),
    )


def _passcode(value: str, file: str, entry: str) -> int:
    if not value.isdigit() or not 0 <= int(value) < 10**9:
        raise DataError(file, entry, f"bad passcode {value!r}")
    return int(value)


def _name_index(cards: list[Card], files: Mapping[int, str]) -> tuple[dict[str, Card], list[tuple[str, str, Card]]]:
    """Normalised names to cards (a name shared by two cards goes to the one with a printed passcode), and every
    (normalised name, name, card) for the search index; `files` names the file each card came from."""
    index: dict[str, Card] = {}
    names: list[tuple[str, str, Card]] = []
    for card in cards:
        for name in (card.name_ja, card.name_en):
            if not name:
                continue
            key = normalize_name(name)
            names.append((key, name, card))
            other = index.get(key)
            if other is None or other is card:
                index[key] = card
            elif other.official_passcode == card.official_passcode:
                file = files[card.passcode]
                raise DataError(file, f"name {name!r}", f"shared by {other.passcode} and {card.passcode}")
            elif card.official_passcode:
                index[key] = card
    return index, names


def _namesakes(names: list[tuple[str, str, Card]]) -> dict[int, tuple[int, ...]]:
    """Cards that share a Japanese or English name, each to the sorted passcodes of its whole group (a name shared
    through another shared name joins the same group)."""
    group_of: dict[int, set[int]] = {}
    first_of: dict[str, int] = {}
    for key, _name, card in names:
        other = first_of.setdefault(key, card.passcode)
        if other == card.passcode:
            continue
        merged = group_of.get(other, {other}) | group_of.get(card.passcode, {card.passcode})
        for passcode in merged:
            group_of[passcode] = merged
    return {passcode: tuple(sorted(group)) for passcode, group in group_of.items()}


def read_card_file(path: Path) -> list[CardRow]:
    """The rows of one card file (the bundled columns, or an updates folder's), each with its file and line: a
    regular file of at most MAX_CARD_FILE_BYTES of UTF-8 text (an operator's CSV may begin with a BOM) with no control
    character, and at most MAX_CARDS rows (data/schemas.py); DataError naming the file and the line, or the header's
    column, at fault."""
    from deckcheck.data import schemas  # noqa: PLC0415 - pydantic loads with the first file read, not the engine

    file = str(path)
    try:
        text = schemas.decoded(schemas.read_file(path, schemas.MAX_CARD_FILE_BYTES), text_file=True)
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = reader.fieldnames or ()
        if tuple(header) not in (CARD_COLUMNS, UPDATE_CARD_COLUMNS):
            wrong = schemas.columns_problem(header, UPDATE_CARD_COLUMNS)
            raise DataError(file, "header", f"expected columns {','.join(CARD_COLUMNS)} ({_UPDATE_ONLY}); {wrong}")
        rows = list(itertools.islice(reader, schemas.MAX_CARDS + 1))
    except schemas.Invalid as exc:
        raise exc.data_error(file) from None
    except csv.Error as exc:
        raise DataError(file, "file", str(exc)) from None
    if len(rows) > schemas.MAX_CARDS:
        raise DataError(
            file, f"line {schemas.MAX_CARDS + 2}", f"a card file may hold at most {schemas.MAX_CARDS:,} cards"
        )
    for number, row in enumerate(rows, start=2):
        if None in row or any(value is None for value in row.values()):
            raise DataError(file, f"line {number}", "wrong number of columns")
    return [(row, file, f"line {number}") for number, row in enumerate(rows, start=2)]


def layered_rows(layers: Sequence[Sequence[CardRow]]) -> list[CardRow]:
    """The rows of card files in layers, bottom first: a layer adds passcodes, and replaces a passcode of the layers
    beneath only on a row that says so (`replaces` 1); a passcode twice in one layer, or more than MAX_CARDS rows in one
    (data/schemas.py), is an error."""
    from deckcheck.data import schemas  # noqa: PLC0415 - pydantic loads with the first file read, not the engine

    kept: dict[int, CardRow] = {}
    for layer in layers:
        if len(layer) > schemas.MAX_CARDS:
            _, file, entry = layer[schemas.MAX_CARDS]
            raise DataError(file, entry, f"a folder's card files may hold at most {schemas.MAX_CARDS:,} cards")
        seen: set[int] = set()
        for row, file, entry in layer:
            passcode = _passcode(row["passcode"], file, entry)
            replaces = _flag(row.get("replaces", "0"), file, entry)
            if passcode in seen:
                raise DataError(file, entry, f"passcode {passcode} listed twice")
            if passcode in kept and not replaces:
                below = kept[passcode][1]
                raise DataError(file, entry, f"passcode {passcode} is already a card of {below}; replace it explicitly")
            if replaces and passcode not in kept:
                raise DataError(file, entry, f"passcode {passcode} replaces no card")
            seen.add(passcode)
            kept[passcode] = (row, file, entry)
    return list(kept.values())


def load_cards(path: Path) -> CardIndex:
    """Read one compact card file, check it and index it; raise DataError naming the row on any problem."""
    return index_cards(read_card_file(path))


def index_cards(
    rows: Sequence[CardRow], printings_until: dt.date | None = None, readings: Sequence[ReadingRow] = ()
) -> CardIndex:
    """Check the rows of card files, and those of readings files (data/readings.py), and index them; raise
    DataError naming the file and row on any problem."""
    canonical: dict[int, Card] = {}
    files: dict[int, str] = {}
    alias_rows: list[tuple[int, int, str, str]] = []
    for row, file, entry in rows:
        passcode = _passcode(row["passcode"], file, entry)
        alias = _passcode(row["alias"], file, entry)
        if alias:
            alias_rows.append((passcode, alias, file, entry))
            continue
        if passcode in canonical:
            raise DataError(file, entry, f"passcode {passcode} listed twice")
        canonical[passcode] = _card(row, file, entry)
        files[passcode] = file
    by_passcode = dict(canonical)
    aliases: dict[int, list[int]] = {passcode: [] for passcode in canonical}
    for passcode, alias, file, entry in alias_rows:
        if alias not in canonical:
            raise DataError(file, entry, f"alias {alias} is not a canonical card")
        if passcode in by_passcode:
            raise DataError(file, entry, f"passcode {passcode} listed twice")
        by_passcode[passcode] = canonical[alias]
        aliases[alias].append(passcode)
    by_name, names = _name_index(list(canonical.values()), files)
    return CardIndex(
        by_passcode=MappingProxyType(by_passcode),
        aliases=MappingProxyType({passcode: tuple(sorted(a)) for passcode, a in aliases.items()}),
        by_name=MappingProxyType(by_name),
        search=NameSearch(names, resolve_readings(readings, by_passcode)),
        namesakes=MappingProxyType(_namesakes(names)),
        printings_until=printings_until,
    )
