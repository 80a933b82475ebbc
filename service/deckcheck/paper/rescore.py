"""A second look at a name the recognizer read unsurely, against the card names it may be, with what the recognizer
itself saw: first its next likeliest characters where it was unsure (`蛇眼の炎憐` read, `燐` its next likeliest:
蛇眼の炎燐), then how likely it found each name the search offers, aligned to its steps (the CTC probability of the
whole run with that name in it, paper/recognise.py `Lattice`).

A name found so stands only where the recognizer's own reading leaves no doubt between it and any other: as likely
within DROP as what it read, LEAD more likely than every other name offered, no more than CLOSE characters from what
it read, and further than that from any other card's name. A handwritten `Gust Fau` is Gust Fan; `Surds o Reveding
Ligh`, which the recognizer finds likelier as Swords of Burning Light than as Swords of Revealing Light, stays to
review.
"""

from __future__ import annotations

import dataclasses

from deckcheck.data import Card, CardIndex
from deckcheck.data.names import normalize_name
from deckcheck.paper import parse
from deckcheck.paper.matching import HIGH_CONFIDENCE, exact_card, margin
from deckcheck.paper.recognise import Read

VARIANTS = 24  # readings of a name with its unsure characters changed, tried at most
DROP = 8.0  # nats less likely than the recognizer's own reading a name may be
LEAD = 15.0  # nats more likely than any other name offered a name must be
CLOSE = 2  # characters a name may differ from what was read, at most


def variant(read: Read, cards: CardIndex) -> tuple[Read, parse.CardText] | None:
    """The run read with its unsure characters taken as the recognizer's next likeliest, where that, and only that,
    names one card exactly: each character changed counts as read with no sureness at all, so the name stands only
    where no other card's name is that near."""
    found: dict[int, tuple[Read, parse.CardText]] = {}
    for text in read.variants(HIGH_CONFIDENCE, VARIANTS):
        said = parse.card_text(text, cards)
        card = None if said is None else exact_card(said.name, cards)
        if said is not None and card is not None:
            sureness = tuple(0.0 if a != b else s for a, b, s in zip(text, read.text, read.sureness, strict=True))
            found.setdefault(card.passcode, (dataclasses.replace(read, text=text, sureness=sureness), said))
    return next(iter(found.values())) if len(found) == 1 else None


def likeliest(read: Read, said: parse.CardText, offered: list[Card], cards: CardIndex) -> Card | None:
    """The one card of `offered` the recognizer's own likelihoods make the run's name beyond doubt, or None."""
    own = read.likelihood(read.text)
    start = read.text.find(said.name)
    if start < 0 or own == float("-inf"):
        return None
    scored = []
    for card in dict.fromkeys(offered):
        names = {name for name in (card.name_ja, card.name_en) if name}
        best = max(
            (read.likelihood(read.text[:start] + name + read.text[start + len(said.name) :]), name) for name in names
        )
        scored.append((best[0], best[1], card))
    if not scored:
        return None
    scored.sort(key=lambda found: -found[0])
    likely, name, card = scored[0]
    if likely < own - DROP or (len(scored) > 1 and likely < scored[1][0] + LEAD):
        return None
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415 - the name search's own library

    apart = Levenshtein.distance(_spaceless(said.name), _spaceless(name))
    return card if apart <= CLOSE and margin(cards, name, card) > apart + 1 else None


def _spaceless(name: str) -> str:
    return normalize_name(name).replace(" ", "")
