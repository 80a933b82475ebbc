"""Content negotiation, one way for every route that answers in more than one form (RFC 9110 §12.5).

Each offered form gets the weight of the most specific element of the header that matches it (§12.5.1: a type
with parameters over the type, over `type/*`, over `*/*`; for languages, the tag over its primary subtag, over
`*`), and q=0 refuses it. The form with the highest weight wins; on a tie, the one the route prefers (for a
language, one the header names before one only `*` stands for: `*` states no preference). Without the header every
form is acceptable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckcheck.api.problems import NotAcceptable


@dataclass(frozen=True, slots=True)
class _Element:
    """One element of a quality list: its name split at `/` (a media range) and its parameters, its q, and its
    place in the header."""

    main: str
    sub: str
    params: frozenset[tuple[str, str]]
    q: float
    place: int


def _q(value: str) -> float:
    """A qvalue (§12.4.2): 0 to 1 with up to three decimals; anything else is read as 0, refusing rather than
    guessing what a malformed weight meant."""
    try:
        weight = float(value)
    except ValueError:
        return 0.0
    return weight if 0.0 <= weight <= 1.0 else 0.0


def _elements(header: str) -> list[_Element]:
    elements = []
    for place, text in enumerate(header.split(",")):
        name, *raw = (part.strip() for part in text.split(";"))
        if not name:
            continue
        q, params = 1.0, set()
        for param in raw:
            key, _, value = param.partition("=")
            key, value = key.strip().lower(), value.strip().strip('"')
            if key == "q":
                q = _q(value)
                break  # what follows q is an accept-ext, not a media-type parameter (RFC 7231 §5.3.2)
            params.add((key, value.lower()))
        main, _, sub = name.lower().partition("/")
        elements.append(_Element(main, sub, frozenset(params), q, place))
    return elements


def _media_weight(elements: Sequence[_Element], offered: str) -> float | None:
    """The q of the most specific element matching `offered` (`type/sub;param=value`); None when no element names
    it."""
    name, *raw = (part.strip() for part in offered.split(";"))
    main, _, sub = name.lower().partition("/")
    params = {(k.strip().lower(), v.strip().lower()) for k, _, v in (p.partition("=") for p in raw)}
    best: tuple[int, float] | None = None
    for element in elements:
        if element.main not in ("*", main) or element.sub not in ("*", sub) or not element.params <= params:
            continue
        rank = (element.main != "*") + (element.sub != "*") + len(element.params)
        if best is None or rank > best[0]:
            best = (rank, element.q)
    return None if best is None else best[1]


def _language_weight(elements: Sequence[_Element], offered: str) -> tuple[float, bool, int]:
    """The q of the most specific range matching the language `offered` (`ja`): the tag itself, then a longer tag
    of it (`ja-JP`, as RFC 4647 §3.4's lookup would shorten it), then `*`; whether that range names the language
    (not `*`), and its place in the header."""
    best: tuple[int, float, int] = (-1, 0.0, 0)
    for element in elements:
        tag = element.main
        rank = 2 if tag == offered else 1 if tag.split("-")[0] == offered else 0 if tag == "*" else -1
        if rank > best[0]:
            best = (rank, element.q, element.place)
    return best[1], best[0] > 0, best[2]


def choose_media(accept: str | None, offered: Sequence[str]) -> str | None:
    """The offered media type `accept` weighs highest, the earlier offered on a tie; the first without the header
    (or with an empty one). When it weighs none above 0, the first it does not refuse (§12.5.1 lets a server
    disregard a header that names none of its forms, but q=0 refuses); None when it refuses every one."""
    elements = _elements(accept or "")
    if not elements:
        return offered[0]
    weights = {media: _media_weight(elements, media) for media in offered}
    q, _order, media = max((w or 0.0, -order, m) for order, (m, w) in enumerate(weights.items()))
    if q > 0:
        return media
    return next((m for m, w in weights.items() if w is None), None)


def choose_language(header: str | None, offered: Sequence[str], fallback: str) -> str:
    """The offered language the Accept-Language `header` weighs highest; `fallback`, the route's default, when it
    weighs none of them above 0 (§12.5.4 lets a server answer in a language not asked for, rather than refuse).

    `*` weighs every language the header does not name (RFC 4647 §2.1) and prefers none of them to another: among
    the languages weighed highest, one the header names wins (the one named earlier on a tie: `*, ja` and
    `ja;q=0.5, *;q=0.5` ask for Japanese), and where `*` alone weighs them highest, the route's default does
    (`*`, `*;q=0.5, ja;q=0.1` and `ja;q=0, *` answer in English where English is the default), else the one the
    route offers first. A language named above `*` still wins (`*;q=0.5, ja`), and one named below it loses to the
    languages `*` stands for (`en;q=0.5, *` prefers any language to English, and is answered in Japanese)."""
    elements = _elements(header or "")
    weights = [(*_language_weight(elements, lang), lang) for lang in offered]
    best = max((q for q, _named, _place, _lang in weights), default=0.0)
    if best <= 0:
        return fallback
    top = [(place, lang) for q, named, place, lang in weights if q == best and named]
    if top:
        return min(top)[1]
    wildcard = [lang for q, _named, _place, lang in weights if q == best]
    return fallback if fallback in wildcard else wildcard[0]


def not_acceptable(offered: Sequence[str]) -> NotAcceptable:
    """The 406 of a request whose Accept refuses every form a resource has (§15.5.7), naming them."""
    forms = ", ".join(offered)
    return NotAcceptable.one(
        ["header", "accept"], f"Accept refuses every form this answer has: {forms}.", "not_acceptable"
    )
