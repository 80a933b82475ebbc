"""The card a name read from paper names, matched in steps, surest first:

1. exactly, as a pasted list matches it;
2. exactly but for spaces, which print too narrow to read for sure (`E・HEROグラン・ネオス`);
3. by its look: the loose key (data/names.py) with the shapes OCR mistakes for each other taken as one
   (一 and ー, 力 and カ, 口 and ロ, small kana and large) — only where that names one card;
4. loosely, as a pasted list is read (data/names.py);
5. else the name search's best guess, offered with the next best.

A name matched by steps 1 or 2 stands where it was read with confidence, or where no other card's name is within as
many characters as were read unsurely (its margin); by step 3 likewise, with a margin of one more; steps 4 and 5
always need review.
"""

from __future__ import annotations

from deckcheck.data import Card, CardIndex
from deckcheck.data.memo import kept_with
from deckcheck.data.names import loose_key, normalize_name

LOW_CONFIDENCE = 55.0  # a word Tesseract is less sure of is read unsurely
HIGH_CONFIDENCE = 80.0  # a name matched by its look (step 3) stands without a margin only above this
# Shapes OCR takes for each other, folded to one for step 3 (after the loose key's own folds): エ, 工 and a
# full-width Ｉ with serifs are one.
_LOOKALIKES = str.maketrans(
    "力口二工夕卜八ァィゥェォャュョッヮヵヶ〇エ",
    "カロニiタトハアイウiオヤユヨツワカケoi",
    "一ー－―‐",
)


def _spaceless(name: str) -> str:
    return normalize_name(name).replace(" ", "")


def look_key(name: str) -> str:
    """A name's loose key with the shapes OCR takes for each other folded to one."""
    return loose_key(name).translate(_LOOKALIKES)


@kept_with(maxsize=3)
def _keys(cards: CardIndex, kind: str) -> dict[str, Card | None]:
    """Every card name by its spaceless form (kind "spaceless") or by its look ("look"); None where two cards share
    the key."""
    key = _spaceless if kind == "spaceless" else look_key
    found: dict[str, Card | None] = {}
    for name, card in cards.by_name.items():
        k = key(name)
        if k:
            found[k] = card if found.get(k, card) is card else None
    return found


@kept_with(maxsize=1)
def _spaceless_names(cards: CardIndex) -> tuple[list[str], list[Card]]:
    names = list(cards.by_name.items())
    return [_spaceless(name) for name, _ in names], [card for _, card in names]


def margin(cards: CardIndex, name: str, card: Card) -> int:
    """How many characters `name` would have to be misread in to be another card's name: the edit distance to the
    nearest name of any other card (spaces aside)."""
    from rapidfuzz import process  # noqa: PLC0415 - the name search's own library, loaded by it already
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415

    names, owners = _spaceless_names(cards)
    for _name, distance, index in process.extract(_spaceless(name), names, scorer=Levenshtein.distance, limit=8):
        if owners[index] is not card:
            return int(distance)
    return len(name)


def exact_card(name: str, cards: CardIndex) -> Card | None:
    """The one card `name` names by steps 1 to 3: exactly, but for spaces, or by its look; None for none."""
    return (
        cards.find_name(name)
        or _keys(cards, "spaceless").get(_spaceless(name))
        or _keys(cards, "look").get(look_key(name))
    )


def match(
    name: str, cards: CardIndex, unsure: int, unsure_look: int
) -> tuple[Card | None, tuple[str, ...], tuple[Card, ...], float]:
    """The card a read name names, what about it needs review, other cards it may be, and the name search's score
    for a guess (100 for a name matched by steps 1 to 4). `unsure` is how many of the name's characters were read
    with low confidence, `unsure_look` how many without high confidence: a name matched exactly (or by its look)
    stands only when no other card's name is that few characters away."""
    card = cards.find_name(name) or _keys(cards, "spaceless").get(_spaceless(name))
    if card is not None:
        return card, () if not unsure or margin(cards, name, card) > unsure else ("low_confidence",), (), 100.0
    card = _keys(cards, "look").get(look_key(name))
    if card is not None:
        sure = not unsure_look or margin(cards, name, card) > unsure_look + 1
        return card, () if sure else ("read_loosely",), (), 100.0
    loose = cards.find_loose(name)
    if loose is not None:
        return loose[0], ("read_loosely",), (), 100.0
    hits = cards.search.search(name, limit=4)
    if not hits:
        return None, ("unknown_card",), (), 0.0
    return hits[0].card, ("unknown_card",), tuple(hit.card for hit in hits[1:]), hits[0].score
