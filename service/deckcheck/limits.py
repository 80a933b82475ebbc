"""The bounds on one request's work, the same whatever form a deck comes in.

Every deck, from JSON lists, a .ydk file, a ydke:// link, a text list, a Deck Roster Sheet or a recheck line, is
held to these bounds after it is read, so no form can ask for more work than another. They are generous: the
largest legal deck is 60 + 15 + 15 cards. docs/developers/limits.md lists them; `deckcheck.deck_limits` holds a
deck to them. Plain numbers, so the wire models and the client can read them without the engine.
"""

from __future__ import annotations

MAX_PASSCODE = 999_999_999  # the largest passcode a request may give (nine digits, as printed)
MAX_ENTRIES = 500  # distinct entries (cards, for a ydke link) in one section
MAX_COUNT = 99  # copies one JSON entry or text line may give
MAX_CARDS = MAX_ENTRIES * MAX_COUNT  # cards in one section: what 500 entries of 99 copies hold
MAX_NAME_CHARS = 200  # characters of one card name
MAX_ID_CHARS = 200  # characters of a recheck line's id
ID_RANGE = (-(2**63), 2**63 - 1)  # a whole-number id: what JSON writers (and orjson) take as a 64-bit integer
SUGGESTED_NAMES = 20  # distinct unknown names one deck gets suggestions for; the rest are reported without
KEPT_NEWLY_ILLEGAL_IDS = 1000  # ids a recheck summary lists; the result lines carry every one
# The caller's own fields a recheck line carries into its result (`player`, `email`, `table`…): a line's result
# stays small whatever a store holds beside its decks.
MAX_FIELDS = 32  # fields of its own one line may carry
MAX_FIELDS_BYTES = 4096  # those fields, names and values, as compact JSON
