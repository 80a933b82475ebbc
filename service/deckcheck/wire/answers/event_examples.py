"""The examples of the event routes' requests and answers (docs/organisers/events.md walks the same event)."""

from __future__ import annotations

from deckcheck.wire.answers.examples import SMALL_YDKE, VALIDATE_RESPONSE, Example

__all__ = ["SMALL_YDKE", "VALIDATE_RESPONSE", "Example"]  # the examples they stand on, named from here too

EVENT_ID = "ev-3f9a1c2b7d"
STAFF: Example = {"role": "desk", "label": "desk-1"}
STATUS_COUNTS: Example = {"legal": 118, "needs_review": 2, "illegal": 3}
EVENT: Example = {
    "id": EVENT_ID,
    "name": "Summer regional",
    "date": "2008-06-01",
    "format": "ocg",
    "banlist": None,
    "you": STAFF,
    "players": STATUS_COUNTS,
}
REGISTER_REQUEST: Example = {
    "name": "山田 太郎",
    "card_game_id": "0000123456",
    "deck": {"ydke": SMALL_YDKE},
    "source": "qr",
}
REGISTRATION: Example = {
    "event": EVENT_ID,
    "player": "0042",
    "version": 2,
    "name": "山田 太郎",
    "card_game_id": "0000123456",
    "deck": {"ydke": SMALL_YDKE},
    "source": "qr",
    "status": "illegal",
    "registered_by": "desk-1",
    "registered_at": "2008-06-01T00:41:07Z",
    "verdict": VALIDATE_RESPONSE,
}
PLAYER: Example = {
    "player": "0042",
    "version": 2,
    "name": "山田 太郎",
    "card_game_id": "0000123456",
    "status": "illegal",
    "updated_at": "2008-06-01T00:41:07Z",
}
PLAYER_PAGE: Example = {"players": [PLAYER], "total": 3, "offset": 0, "limit": 50}
DECK_CHECK_REQUEST: Example = {"deck": {"ydke": SMALL_YDKE}, "round": 3}
# What a deck check's answer and its record share.
_CHECKED: Example = {
    "id": 17,
    "player": "0042",
    "round": 3,
    "duel": 1,
    "phase": "between_duels",
    "registration_version": 2,
    "checked_by": "judge-4",
    "checked_at": "2008-06-01T04:12:55Z",
}
DECK_CHECK: Example = {**_CHECKED, "verdict": VALIDATE_RESPONSE}
DECK_CHECK_RECORD: Example = {
    **_CHECKED,
    "deck": {"ydke": "ydke://rvTMAq70zAKu9MwCSnBJAw==!!!"},
    "legal": False,
    "penalty": "duel_forfeiture",
    "codes": ["forbidden_card", "main_deck_too_small", "roster_mismatch"],
}
EVENT_CHANGE: Example = {"banlist": "ocg-2008-03-01"}
PLAYER_CHANGE: Example = {**PLAYER, "before": "legal"}
LIST_CHANGE: Example = {
    "banlist": "ocg-2008-03-01",
    "checked": 123,
    "changed": [PLAYER_CHANGE],
    "newly_illegal": ["0042"],
}
