"""The card catalogue: every canonical card, its alternate passcodes and its names (SPEC section 1)."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from deckcheck.data.card import Card
from deckcheck.data.names import normalize_name
from deckcheck.data.search import NameSearch
from deckcheck.errors import DataError

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


@dataclass(frozen=True, slots=True, eq=False)
class CardIndex:
    """Immutable lookups over the whole catalogue (made once; compared and hashed as the one object it is)."""

    by_passcode: Mapping[int, Card] = field(repr=False)
    aliases: Mapping[int, tuple[int, ...]] = field(repr=False)
    by_name: Mapping[str, Card] = field(repr=False)
    search: NameSearch = field(repr=False)
    # 同名カード (SPEC section 1): canonical cards that share a name, each to all of its name's cards (itself too).
    # Only the few shared names are held; every other card is the one card of its name.
    namesakes: Mapping[int, tuple[int, ...]] = field(repr=False, default_factory=dict)

    def __len__(self) -> int:
        return len(self.aliases)

    def find_name(self, name: str) -> Card | None:
        """The card whose Japanese or English name equals `name` after normalisation."""
        return self.by_name.get(normalize_name(name))

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
    if not row["name_en"]:
        raise DataError(file, entry, "no English name")
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
    )


def _passcode(value: str, file: str, entry: str) -> int:
    if not value.isdigit() or not 0 <= int(value) < 10**9:
        raise DataError(file, entry, f"bad passcode {value!r}")
    return int(value)


def _name_index(cards: list[Card], file: str) -> tuple[dict[str, Card], list[tuple[str, str, Card]]]:
    """Normalised names to cards (a name shared by two cards goes to the one with a printed passcode), and every
    (normalised name, name, card) for the search index."""
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


def load_cards(path: Path) -> CardIndex:
    """Read the compact card file, check it and index it; raise DataError naming the row on any problem."""
    file = str(path)
    try:
        with path.open(encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            if tuple(reader.fieldnames or ()) != CARD_COLUMNS:
                raise DataError(file, "header", f"expected columns {','.join(CARD_COLUMNS)}")
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DataError(file, "file", str(exc)) from None
    canonical: dict[int, Card] = {}
    alias_rows: list[tuple[int, int, str]] = []
    for number, row in enumerate(rows, start=2):
        entry = f"line {number}"
        if None in row or any(value is None for value in row.values()):
            raise DataError(file, entry, "wrong number of columns")
        passcode = _passcode(row["passcode"], file, entry)
        alias = _passcode(row["alias"], file, entry)
        if alias:
            alias_rows.append((passcode, alias, entry))
            continue
        if passcode in canonical:
            raise DataError(file, entry, f"passcode {passcode} listed twice")
        canonical[passcode] = _card(row, file, entry)
    by_passcode = dict(canonical)
    aliases: dict[int, list[int]] = {passcode: [] for passcode in canonical}
    for passcode, alias, entry in alias_rows:
        if alias not in canonical:
            raise DataError(file, entry, f"alias {alias} is not a canonical card")
        if passcode in by_passcode:
            raise DataError(file, entry, f"passcode {passcode} listed twice")
        by_passcode[passcode] = canonical[alias]
        aliases[alias].append(passcode)
    by_name, names = _name_index(list(canonical.values()), file)
    return CardIndex(
        by_passcode=MappingProxyType(by_passcode),
        aliases=MappingProxyType({passcode: tuple(sorted(a)) for passcode, a in aliases.items()}),
        by_name=MappingProxyType(by_name),
        search=NameSearch(names),
        namesakes=MappingProxyType(_namesakes(names)),
    )
