"""Request bodies to engine input: decks from JSON lists or deck formats, and the event context; and the entries of
a deck that no form can write, since they name no official card."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TypeVar

import orjson
from pydantic import ValidationError

from deckcheck.data import (
    Banlist,
    Card,
    CardIndex,
    Data,
    LflistError,
    as_banlist,
    build_limits,
    make_banlist,
    read_lflist,
)
from deckcheck.days import today
from deckcheck.deck_limits import LimitError, copies_limit_errors, deck_limit_errors
from deckcheck.errors import InvalidInput, RequestError
from deckcheck.formats import DeckFormatError, parse, ydke_copies
from deckcheck.model import SECTIONS, Context, Copies, Deck, Entry, Format, Protectors, Section, deck_of
from deckcheck.rules import resolve_entry
from deckcheck.wire.requests import DeckIn, EntryIn, InlineBanlist, LflistBanlist, ValidateRequest

T = TypeVar("T")

# The card language of an entry that gives none, when the request does not say: the format's own.
DEFAULT_LANGUAGES: dict[Format, str] = {"ocg": "ja", "tcg": "en"}

# Why an entry names no official card (`rules.resolve_entry`), in English.
UNKNOWN_CARD = {
    "unknown_passcode": "passcode {passcode} is not an official card",
    "unknown_name": "'{name}' is not the name of an official card",
    "passcode_name_mismatch": "passcode {passcode} and the name '{name}' are different cards",
}
# An entry, where it stands, and its card (or None and why), and the card's name it was read as if read loosely.
Resolution = tuple[Section, int, Entry, Card | None, str | None, str | None]


def _language(tag: str | None) -> str | None:
    return None if tag is None else tag.split("-")[0].lower()


def _entries(entries: list[EntryIn]) -> tuple[Entry, ...]:
    return tuple(Entry(e.passcode, e.name, e.count, _language(e.language)) for e in entries)


def deck_from(body: DeckIn, data: Data, loc: tuple[str, ...] = ("body",)) -> Deck:
    """The deck a body gives, as main/extra/side lists or as one .ydk, ydke:// or text source.

    A source that cannot be read is a request error naming each bad line (or ydke part), never a shorter deck; a
    deck past the bounds of `deckcheck.limits` is a request error naming each bound, whatever its form.
    """
    fmt = body.source_format()
    if fmt == "json":
        deck = Deck(_entries(body.main), _entries(body.extra), _entries(body.side))
    elif fmt == "ydke":
        return deck_of(link_copies(body.source_text(), loc))
    else:
        try:
            deck = parse(fmt, body.source_text(), data.cards)
        except DeckFormatError as exc:
            raise read_errors(exc, fmt, loc) from None
    found = deck_limit_errors(deck)
    if found:
        raise limit_errors(found, deck, loc if fmt == "json" else (*loc, fmt))
    return deck


def link_copies(link: str, loc: tuple[str, ...] = ("body",)) -> Copies:
    """The copies per card of a deck given as a ydke link, held to the bounds: what `deck_from` reads the link as,
    with the same errors, before any entry is made (the fast answer reads the copies: rules/engine.py
    `validate_copies`)."""
    try:
        copies = ydke_copies(link)
    except DeckFormatError as exc:
        raise read_errors(exc, "ydke", loc) from None
    if past := copies_limit_errors(copies):
        raise limit_errors(past, None, (*loc, "ydke"))
    return copies


def limit_errors(found: list[LimitError], deck: Deck | None, loc: tuple[str, ...]) -> RequestError:
    """The request error for a deck past the bounds: each bound located by section (and entry, and the lines a
    text source gave it)."""
    errors = []
    for error in found:
        item: dict[str, object] = {
            "loc": [*loc, error.section] if error.index is None else [*loc, error.section, error.index],
            "msg": error.msg,
            "type": error.type,
        }
        if deck is not None and error.index is not None:
            item = _at_its_line(item, deck.section(error.section)[error.index])
        errors.append(item)
    return RequestError(errors)


def _at_its_line(item: dict[str, object], entry: Entry) -> dict[str, object]:
    """An error about `entry`, with the first line of the source it came from, if it came from lines."""
    return item | {"line": entry.lines[0]} if entry.lines else item


def read_errors(exc: DeckFormatError, fmt: str, loc: tuple[str, ...]) -> RequestError:
    """The request error for a deck source that cannot be read: each bad line or ydke part, located."""
    errors = []
    for error in exc.problems:
        where = [*loc, fmt] if error.part is None else [*loc, fmt, error.part]
        item: dict[str, object] = {"loc": where, "msg": error.msg, "type": error.type}
        if error.line is not None:
            item |= {"line": error.line, "column": error.column}
        errors.append(item)
    return RequestError(errors)


def resolved(deck: Deck, cards: CardIndex) -> list[Resolution]:
    """Every entry with its card, or None and why, and the name a loose read read it as, in section order."""
    return [
        (section, index, entry, *resolve_entry(entry, cards))
        for section in SECTIONS
        for index, entry in enumerate(deck.section(section))
    ]


def unknown_card(entry: Entry, reason: str) -> str:
    """Why `entry` names no official card (a reason `rules.resolve_entry` gives), in English."""
    return UNKNOWN_CARD[reason].format(passcode=entry.passcode, name=entry.name)


def written(deck: Deck, cards: CardIndex, writer: Callable[[], T]) -> T:
    """What `writer` writes of `deck`; a request error naming each entry that names no official card, which no form
    can write, at the first line of the source it came from, if it came from lines."""
    try:
        return writer()
    except DeckFormatError as exc:
        errors = []
        for section, index, entry, _card, reason, _read_as in resolved(deck, cards):
            if reason is not None:
                msg = f"{unknown_card(entry, reason)}; it cannot be written"
                errors.append(_at_its_line({"loc": ["body", section, index], "msg": msg, "type": reason}, entry))
        raise RequestError(errors or [{"loc": ["body"], "msg": str(exc), "type": "unknown_card"}]) from None


def _banlist(body: ValidateRequest, day: dt.date, data: Data) -> Banlist | None:
    where: list[str | int] = ["body", "banlist"]
    if body.banlist is None:
        return data.banlists.in_force(day, body.format)
    if isinstance(body.banlist, str):
        return bundled_list(body.banlist, body.format, data, where)
    return given_list(body.banlist, body.format, data, where)


def bundled_list(list_id: str, fmt: Format, data: Data, where: list[str | int]) -> Banlist:
    """The bundled list `list_id`, which must be of the format `fmt`: a list of the other format is an error, never
    a silent switch of format."""
    found = data.banlists.get(list_id)
    if found is None:
        raise RequestError.one(where, f"No bundled list is called {list_id[:40]}.", "unknown_banlist")
    if found.format.lower() != fmt:
        msg = f"{found.id} is a list of the {found.format} format, and the event's format is {fmt}."
        raise RequestError.one(where, msg, "banlist_format_mismatch")
    return found


def given_list(given: InlineBanlist | LflistBanlist, fmt: Format, data: Data, where: list[str | int]) -> Banlist:
    """A list given in a request, as JSON or as lflist.conf text, for an event of the format `fmt`; an unknown card
    or a card listed twice is an error naming the entry (or the line)."""
    if isinstance(given, LflistBanlist):
        try:
            read = read_lflist(given.lflist, data.cards, given.list)
        except LflistError as exc:
            errors = [
                {"loc": [*where, "lflist"], "msg": p.msg, "type": p.type} | ({} if p.line is None else {"line": p.line})
                for p in exc.problems
            ]
            raise RequestError(errors) from None
        return as_banlist(read, "inline", fmt.upper(), data.cards)
    statuses = {"forbidden": given.forbidden, "limited": given.limited, "semi_limited": given.semi_limited}
    try:
        limits = build_limits(statuses, data.cards)
    except InvalidInput as exc:
        entry, _, problem = str(exc).partition(": ")
        status, _, index = entry.rstrip("]").partition("[")
        raise RequestError.one([*where, status, int(index)], problem, "invalid_banlist_entry") from None
    return make_banlist("inline", given.name, fmt.upper(), dates=(None, None), limits=limits, cards=data.cards)


def context_for(body: ValidateRequest, data: Data) -> Context:
    """The engine context a request describes; unknown list ids and lone duel numbers are request errors."""
    day = body.date or today()
    if body.duel != 1 and body.roster is None:
        msg = "Duels 2 and 3 are checked against a roster; none was given."
        raise RequestError.one(["body", "duel"], msg, "roster_required")
    protectors = None if body.protectors is None else Protectors(**body.protectors.model_dump())
    banlist = _banlist(body, day, data)
    return Context(
        date=day,
        banlist=banlist,
        cards=data.cards,
        protectors=protectors,
        roster=None if body.roster is None else deck_from(body.roster, data, ("body", "roster")),
        duel=body.duel,
        phase=body.phase,
        default_language=_language(body.default_language) or DEFAULT_LANGUAGES[body.format],
        format=body.format,
        notes=date_notes(banlist, day, data) if body.banlist is None else (),
    )


def date_notes(banlist: Banlist | None, day: dt.date, data: Data) -> tuple[str, ...]:
    """The notes of an answer whose list was picked by the event date: that a newer list than the newest held may be
    in force, when the day is past the one a list after it was due by the usual cadence."""
    return ("list_may_be_outdated",) if data.cadence.may_be_outdated(banlist, day) else ()


def named_list(spec: str | None, fmt: Format, data: Data, where: list[str | int]) -> Banlist | None:
    """The list a parameter names for an event of the format `fmt`: a bundled list id, or an inline list as a JSON
    object (lists of cards, or {"lflist": text, "list": name}); None for none.

    Ids are matched against the loaded lists only, never used as paths.
    """
    if spec is None:
        return None
    if spec.lstrip().startswith("{"):
        try:
            value = orjson.loads(spec)
        except orjson.JSONDecodeError as exc:
            raise RequestError.one(where, f"not a list id, nor a JSON object: {exc}", "json_invalid") from None
        lflist = isinstance(value, dict) and "lflist" in value
        try:
            given = (LflistBanlist if lflist else InlineBanlist).model_validate(value)
        except ValidationError as exc:
            errors = [{"loc": [*where, *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
            raise RequestError(errors) from None
        return given_list(given, fmt, data, where)
    return bundled_list(spec, fmt, data, where)
