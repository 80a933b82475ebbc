"""HTTP caching of the read-only resources (RFC 9110 8.8 and 13, RFC 9111): cards, search, lists, diffs and rules
change only with the data, so the data version is their validator.

A resource's strong ETag is the data version, followed by the representation it chose where one URL has several
(the message language, lflist text): the same URL, headers and data always give the same bytes. An ETag is only
compared with the one the answer would carry, so a client that sends one it never got is answered in full.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from fastapi import Request
from fastapi.responses import Response

from deckcheck import __version__
from deckcheck.data import Data
from deckcheck.rules import SEEDS_RULESET


def data_version(data: Data) -> str:
    """What answers depend on: the data files, the ruleset and the code's version, as 16 hex digits."""
    return hashlib.sha256(f"{data.digest}:{SEEDS_RULESET}:{__version__}".encode()).hexdigest()[:16]


class Caching:
    """The validators and freshness of one app's read-only answers."""

    def __init__(self, version: str, max_age: int) -> None:
        self.version = version
        self.cache_control = f"public, max-age={max_age}"

    def etag(self, *variant: str) -> str:
        """The strong ETag of a representation: the data version, then what the request chose, if anything."""
        return '"' + "-".join((self.version, *variant)) + '"'

    def answer(self, request: Request, etag: str, vary: Sequence[str] = ()) -> Response | None:
        """304 Not Modified when the request's If-None-Match names `etag` (or is `*`); None when the representation
        must be sent."""
        if not _matches(request.headers.get("if-none-match"), etag):
            return None
        return self.keep(Response(status_code=304), etag, vary)

    def keep(self, response: Response, etag: str, vary: Sequence[str] = ()) -> Response:
        """`response` with its validator, its freshness and the request headers it was chosen by."""
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] = self.cache_control
        if vary:
            response.headers["Vary"] = ", ".join(vary)
        return response


def _matches(if_none_match: str | None, etag: str) -> bool:
    """Whether If-None-Match names `etag`, by the weak comparison RFC 9110 13.1.2 asks for: W/ is ignored."""
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return True
    return any(tag.strip().removeprefix("W/") == etag for tag in if_none_match.split(","))
