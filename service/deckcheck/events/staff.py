"""Staff tokens and what each role may do at its event (PR 3.B's deck checks are the judges'). A token is a random
text shown once when it is made; the database keeps only its SHA-256, so a copy of the database lets no one act."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Literal, get_args

from deckcheck.errors import InvalidInput, NotFound

Role = Literal["desk", "judge", "organiser"]
ROLES: tuple[Role, ...] = get_args(Role)
Action = Literal["register", "read", "check", "export", "organise"]
MAY: dict[Role, frozenset[Action]] = {
    "desk": frozenset({"register", "read"}),
    "judge": frozenset({"read", "check"}),
    "organiser": frozenset({"register", "read", "check", "export", "organise"}),
}
"""What each role may do: a desk registers and reads, a judge reads and makes deck checks, an organiser does
everything, exports and changes or deletes the event."""
TOKEN_PREFIX = "dck_"


class Unauthorized(InvalidInput):
    """No token, or one that is not (or no longer) a staff token of any event."""


class Forbidden(InvalidInput):
    """A token of the event whose role may not do what was asked."""


@dataclass(frozen=True, slots=True)
class Staff:
    """Who a token is: the event it belongs to, its role and its label (desk-1, judge-3), which the records name."""

    event: str
    role: Role
    label: str

    def allow(self, event: str, action: Action) -> None:
        """Nothing when this token may do `action` at `event`; else NotFound for another event's token (an event
        is not told to those who do not hold its tokens) or Forbidden for a role that may not."""
        if event != self.event:
            raise NotFound.one(["path", "event"], "No event with this id for this token.", "unknown_event")
        if action not in MAY[self.role]:
            allowed = ", ".join(role for role in ROLES if action in MAY[role])
            msg = f"A {self.role} token may not {action} here; the roles that may: {allowed}."
            raise Forbidden.one(["header", "Authorization"], msg, "role_not_allowed")


def new_token() -> str:
    """A fresh token: 32 random bytes in URL-safe base64 after a prefix that says what it is."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """What the database keeps of a token, and looks it up by."""
    return hashlib.sha256(token.encode()).hexdigest()
