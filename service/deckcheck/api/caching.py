"""HTTP caching of the read-only resources (RFC 9110 8.8 and 13, RFC 9111): cards, search, lists, diffs and rules
change only with the data, so the data version is their validator.

A resource's strong ETag is the data version, followed by the representation it chose where one URL has several
(the message language, lflist text): the same URL, headers and data always give the same bytes. An ETag is only
compared with the one the answer would carry, so a client that sends one it never got is answered in full.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path

from fastapi import Request
from fastapi.responses import Response

import deckcheck
from deckcheck import __version__
from deckcheck.data import Data
from deckcheck.rules import SEEDS_RULESET

PACKAGE = Path(deckcheck.__file__).resolve().parent


def data_version(data: Data) -> str:
    """What answers depend on: the data files, the ruleset, the package's version and its code, as 16 hex digits.
    The code counts whole, not only its version number: a change that reorders search hits or rewords a message
    changes answers between two releases of one version, and a cache must not keep the old ones."""
    made_from = f"{data.digest}:{SEEDS_RULESET}:{__version__}:{code_digest(PACKAGE)}"
    return hashlib.sha256(made_from.encode()).hexdigest()[:16]


@functools.cache
def code_digest(package: Path) -> str:
    """SHA-256 of the files of the package at `package` (its modules, rule catalogue and anything else it serves),
    but not of the bundled data, which `Data.digest` covers, nor of compiled caches."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        inside = path.relative_to(package)
        if path.is_file() and inside.parts[0] != "bundled" and "__pycache__" not in inside.parts:
            digest.update(inside.as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


class Caching:
    """The validators and freshness of one app's read-only answers."""

    def __init__(self, version: str, max_age: int) -> None:
        self.version = version
        self.cache_control = f"public, max-age={max_age}"

    def etag(self, *variant: str) -> str:
        """The strong ETag of a representation: the data version, then what the request chose, if anything."""
        return '"' + "-".join((self.version, *variant)) + '"'

    def answer(
        self, request: Request, etag: str, vary: Sequence[str] = (), *, cache_control: str | None = None
    ) -> Response | None:
        """304 Not Modified when the request's If-None-Match names `etag` (or is `*`); None when the representation
        must be sent."""
        if not _matches(request.headers.get("if-none-match"), etag):
            return None
        return self.keep(Response(status_code=304), etag, vary, cache_control=cache_control)

    def keep(
        self, response: Response, etag: str, vary: Sequence[str] = (), *, cache_control: str | None = None
    ) -> Response:
        """`response` with its validator, its freshness (`cache_control`; by default the read-only answers' own)
        and the request headers it was chosen by."""
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] = cache_control or self.cache_control
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
