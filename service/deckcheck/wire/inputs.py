"""Request bodies to engine input: decks from JSON lists or deck formats, and the event context."""

from __future__ import annotations

import datetime as dt

from pydantic import ValidationError

from deckcheck.data import Banlist, Data, build_limits
from deckcheck.errors import RequestError
from deckcheck.formats import DeckFormatError, parse
from deckcheck.limits import LimitError, deck_limit_errors
from deckcheck.model import Context, Deck, Entry, Protectors
from deckcheck.wire.requests import DeckIn, EntryIn, InlineBanlist, ValidateRequest

JAPAN = dt.timezone(dt.timedelta(hours=9))


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
    else:
        try:
            deck = parse(fmt, body.source_text(), data.cards)
        except DeckFormatError as exc:
            raise read_errors(exc, fmt, loc) from None
    found = deck_limit_errors(deck)
    if found:
        raise limit_errors(found, deck, loc if fmt == "json" else (*loc, fmt))
    return deck


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
            lines = deck.section(error.section)[error.index].lines
            if lines:
                item["line"] = lines[0]
        errors.append(item)
    return RequestError(errors)


def read_errors(exc: DeckFormatError, fmt: str, loc: tuple[str, ...]) -> RequestError:
    """The request error for a deck source that cannot be read: each bad line or ydke part, located."""
    errors = []
    for error in exc.errors:
        where = [*loc, fmt] if error.part is None else [*loc, fmt, error.part]
        item: dict[str, object] = {"loc": where, "msg": error.msg, "type": error.type}
        if error.line is not None:
            item |= {"line": error.line, "column": error.column}
        errors.append(item)
    return RequestError(errors)


def _banlist(body: ValidateRequest, day: dt.date, data: Data) -> Banlist | None:
    if body.banlist is None:
        return data.banlists.in_force(day)
    if isinstance(body.banlist, str):
        found = data.banlists.get(body.banlist)
        if found is None:
            raise RequestError.one(["body", "banlist"], f"No bundled list is called {body.banlist}.", "unknown_banlist")
        return found
    return inline_banlist(body.banlist, data, ["body", "banlist"])


def inline_banlist(inline: InlineBanlist, data: Data, where: list[str | int]) -> Banlist:
    """A list given in a request; an unknown card or a card listed twice is an error naming the entry."""
    statuses = {"forbidden": inline.forbidden, "limited": inline.limited, "semi_limited": inline.semi_limited}
    try:
        limits = build_limits(statuses, data.cards)
    except ValueError as exc:
        entry, _, problem = str(exc).partition(": ")
        status, _, index = entry.rstrip("]").partition("[")
        raise RequestError.one([*where, status, int(index)], problem, "invalid_banlist_entry") from None
    return Banlist("inline", inline.name, "OCG", None, None, limits)


def context_for(body: ValidateRequest, data: Data) -> Context:
    """The engine context a request describes; unknown list ids and lone duel numbers are request errors."""
    day = body.date or dt.datetime.now(JAPAN).date()
    if body.duel != 1 and body.roster is None:
        msg = "Duels 2 and 3 are checked against a roster; none was given."
        raise RequestError.one(["body", "duel"], msg, "roster_required")
    protectors = None if body.protectors is None else Protectors(**body.protectors.model_dump())
    return Context(
        date=day,
        banlist=_banlist(body, day, data),
        cards=data.cards,
        protectors=protectors,
        roster=None if body.roster is None else deck_from(body.roster, data, ("body", "roster")),
        duel=body.duel,
        phase=body.phase,
        default_language=_language(body.default_language) or "ja",
    )


def named_list(spec: str | None, data: Data, where: list[str | int]) -> Banlist | None:
    """The list a parameter names: a bundled list id, or an inline list as a JSON object; None for none.

    Ids are matched against the loaded lists only, never used as paths.
    """
    if spec is None:
        return None
    if spec.lstrip().startswith("{"):
        try:
            inline = InlineBanlist.model_validate_json(spec)
        except ValidationError as exc:
            errors = [{"loc": [*where, *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
            raise RequestError(errors) from None
        return inline_banlist(inline, data, where)
    found = data.banlists.get(spec)
    if found is None:
        raise RequestError.one(where, f"No bundled list is called {spec[:40]}.", "unknown_banlist")
    return found
