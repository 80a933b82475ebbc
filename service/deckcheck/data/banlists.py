"""Forbidden/Limited lists: loading, checking and picking the one in force (TR 3 枚数制限のあるカード)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from deckcheck.data.cards import CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.errors import DataError, InvalidInput

# List status to the number of copies it allows: 禁止 0, 制限 1, 準制限 2.
STATUS_LIMITS = {"forbidden": 0, "limited": 1, "semi_limited": 2}
MAX_COPIES = 3
FORMATS = ("OCG", "TCG")  # as the list files write them; the API's `format` is the same in lower case


@dataclass(frozen=True, slots=True, eq=False)
class Banlist:
    """One Forbidden/Limited list. Cards it does not name are unlimited, or, in a whitelist (EDOPro's
    `$whitelist`), forbidden. Two lists are the same list only if they are the same object (lists are made once;
    an inline list is its request's own). Make one with `make_banlist`."""

    id: str
    name: str
    format: str  # "OCG" or "TCG", as the list files write it
    effective_from: dt.date | None
    effective_until: dt.date | None
    limits: Mapping[int, int] = field(repr=False)  # canonical passcode -> copies allowed, as the list names them
    by_name: Mapping[int, int] = field(repr=False)  # the same per name (CardIndex.name_id): the strictest of a name
    whitelist: bool = False

    @property
    def unlisted(self) -> int:
        """How many copies of a card the list does not name a deck may hold."""
        return 0 if self.whitelist else MAX_COPIES

    def limit(self, passcode: int) -> int:
        """How many copies of the canonical card `passcode` the list allows, as it names the card."""
        return self.limits.get(passcode, self.unlisted)

    def name_limit(self, name_id: int) -> int:
        """How many copies of the cards of one name (同名カード, keyed by CardIndex.name_id) a deck may hold: a
        status applies to every card of the name."""
        return self.by_name.get(name_id, self.unlisted)


def make_banlist(
    list_id: str,
    name: str,
    fmt: str,
    *,
    dates: tuple[dt.date | None, dt.date | None],
    limits: Mapping[int, int],
    cards: CardIndex,
    whitelist: bool = False,
) -> Banlist:
    """A list with its limits also keyed by name, so that a status reaches every card of the name."""
    by_name: dict[int, int] = {}
    for passcode, limit in limits.items():
        key = cards.name_id(passcode)
        by_name[key] = min(limit, by_name.get(key, limit))
    return Banlist(
        list_id, name, fmt, dates[0], dates[1], MappingProxyType(dict(limits)), MappingProxyType(by_name), whitelist
    )


@dataclass(frozen=True, slots=True, eq=False)
class Banlists:
    """Every bundled list, by format (OCG, then TCG), oldest first."""

    lists: tuple[Banlist, ...] = field(repr=False)
    by_id: Mapping[str, Banlist] = field(repr=False)
    # What is worked out from these lists (data/memo.py), kept with them and gone with them.
    memo: dict[Hashable, Any] = field(repr=False, default_factory=dict)

    def get(self, list_id: str) -> Banlist | None:
        """The bundled list called `list_id`; ids are matched, never used as paths."""
        return self.by_id.get(list_id)

    def of_format(self, fmt: str) -> tuple[Banlist, ...]:
        """The lists of the format `fmt` (ocg or tcg), oldest first."""
        return _of_format(self, fmt)

    def in_force(self, day: dt.date, fmt: str = "ocg") -> Banlist | None:
        """The list of the format `fmt` with effective_from <= day < effective_until, or None before its first."""
        for banlist in reversed(self.of_format(fmt)):
            start = banlist.effective_from
            if (
                start is not None
                and start <= day
                and (banlist.effective_until is None or day < banlist.effective_until)
            ):
                return banlist
        return None


@kept_with(len(FORMATS))
def _of_format(banlists: Banlists, fmt: str) -> tuple[Banlist, ...]:
    """Banlists.of_format, picked out once for every check that asks for the list in force."""
    return tuple(banlist for banlist in banlists.lists if banlist.format.lower() == fmt)


def build_limits(statuses: Mapping[str, Sequence[int | str]], cards: CardIndex) -> dict[int, int]:
    """Map the cards of each status, by passcode or by name, to limits; raise InvalidInput naming the entry that is
    unknown or twice.

    An alternate passcode counts as its canonical card, so listing both is listing the card twice.
    """
    limits: dict[int, int] = {}
    for status, listed in statuses.items():
        for index, given in enumerate(listed):
            if isinstance(given, str):
                card = cards.find_name(given)
                if card is None:
                    raise InvalidInput(f"{status}[{index}]: no card is called {given[:100]!r}")
            else:
                card = cards.by_passcode.get(given)
                if card is None:
                    raise InvalidInput(f"{status}[{index}]: passcode {given} is not a known card")
            if card.passcode in limits:
                raise InvalidInput(f"{status}[{index}]: card {card.passcode} ({card.name_en}) is listed twice")
            limits[card.passcode] = STATUS_LIMITS[status]
    return limits


def _load_one(path: Path, cards: CardIndex) -> tuple[Banlist, bool]:
    """The list a file holds (a ListFile, data/schemas.py), and whether it replaces a list of the same id in the
    data beneath (`replaces`)."""
    from deckcheck.data import schemas  # noqa: PLC0415 - pydantic loads with the first file read, not the engine

    file = str(path)
    try:
        raw = schemas.read_file(path, schemas.MAX_JSON_BYTES)
        listed = schemas.validated(schemas.ListFile, schemas.json_value(raw))
    except schemas.Invalid as exc:
        raise exc.data_error(file) from None
    start, until = listed.effective_from, listed.effective_until
    if until is not None and until <= start:
        raise DataError(file, "effective_until", "must be after effective_from")
    statuses: dict[str, list[int]] = {status: getattr(listed, status) for status in STATUS_LIMITS}
    try:
        limits = build_limits(statuses, cards)
    except InvalidInput as exc:
        entry, _, problem = str(exc).partition(": ")
        raise DataError(file, entry, problem) from None
    for status, entries in statuses.items():
        for index, passcode in enumerate(entries):
            if passcode not in cards.aliases:
                raise DataError(file, f"{status}[{index}]", f"{passcode} is an alternate, not a canonical passcode")
    list_id = f"{listed.format.lower()}-{start.isoformat()}"
    banlist = make_banlist(list_id, listed.name, listed.format, dates=(start, until), limits=limits, cards=cards)
    return banlist, listed.replaces


def banlist_paths(directory: Path) -> list[Path]:
    """The list files under `directory` (one folder per format), in a fixed order."""
    return sorted(directory.glob("*/*.json"))


def load_banlists(directory: Path, cards: CardIndex, updates: Sequence[Path] = ()) -> Banlists:
    """Load every list under `directory`, then those of each updates folder in `updates`; refuse unknown cards,
    repeats and lists whose dates overlap.

    A list of an updates folder joins the others; one with the id of a list beneath replaces it only when it says so
    (`"replaces": true`). A list that runs on with no end, or past the start of a list an updates folder added,
    ends where the next list of its format begins.
    """
    paths = banlist_paths(directory)
    if not paths:
        raise DataError(str(directory), "directory", "holds no banlist files")
    layered: dict[str, tuple[Banlist, Path, int]] = {}
    for layer, folder in enumerate([directory, *updates]):
        _add_layer(layered, layer, folder, paths if layer == 0 else banlist_paths(folder), cards)
    ordered = sorted(layered.values(), key=lambda held: held[0].id)
    lists = [banlist for banlist, _, _ in ordered]
    for index, ((before, _, _), (after, _, later)) in enumerate(itertools.pairwise(ordered)):
        if before.format == after.format:
            lists[index] = _ended(before, after, later)
    return Banlists(lists=tuple(lists), by_id=MappingProxyType({banlist.id: banlist for banlist in lists}))


def _add_layer(
    layered: dict[str, tuple[Banlist, Path, int]], layer: int, folder: Path, found: list[Path], cards: CardIndex
) -> None:
    """Add the lists `found` in `folder` (layer 0 the bundle's, then each updates folder's) to `layered`, refusing
    a second list of one id in a folder and a list that takes another's id without saying it replaces it."""
    from deckcheck.data.schemas import MAX_LISTS  # noqa: PLC0415 - as in _load_one

    if len(found) > MAX_LISTS:
        raise DataError(str(folder), "directory", f"holds {len(found):,} lists, more than the {MAX_LISTS:,} allowed")
    seen: set[str] = set()
    for path in found:
        banlist, replaces = _load_one(path, cards)
        if banlist.id in seen:
            raise DataError(str(path), "effective_from", f"a second list with id {banlist.id}")
        if banlist.id in layered and not replaces:
            below = layered[banlist.id][1]
            raise DataError(str(path), "replaces", f"{banlist.id} is already a list of {below}; replace it explicitly")
        if replaces and banlist.id not in layered:
            raise DataError(str(path), "replaces", f"{banlist.id} replaces no list")
        seen.add(banlist.id)
        layered[banlist.id] = (banlist, path, layer)


def _ended(before: Banlist, after: Banlist, later: int) -> Banlist:
    """`before` ended where `after`, the next list of its format, begins, when it runs on with no end or (`after`
    an updates folder's, `later` its layer) past that start; two lists of the bundle that overlap are refused."""
    start = after.effective_from or dt.date.min
    until = before.effective_until
    if until is None or (later and until > start):
        return dataclasses.replace(before, effective_until=start)
    if until > start:
        raise DataError(
            f"{before.id} / {after.id}",
            "effective_until",
            f"{before.id} runs until {until} but {after.id} starts {after.effective_from}",
        )
    return before


STATUS_NAMES = {0: "forbidden", 1: "limited", 2: "semi_limited", MAX_COPIES: "unlimited"}


def differences(old: Banlist, new: Banlist, cards: CardIndex) -> list[tuple[int, int, int]]:
    """Every card whose status changes from `old` to `new`, as (passcode, old limit, new limit),
    strictest new status first, then by passcode. Beside a whitelist, every card can change, named or not."""
    named = old.limits.keys() | new.limits.keys()
    compared = cards.aliases.keys() if old.whitelist or new.whitelist else named
    changed = {
        (passcode, old.limit(passcode), new.limit(passcode))
        for passcode in compared
        if old.limit(passcode) != new.limit(passcode)
    }
    return sorted(changed, key=lambda change: (change[2], change[0]))
