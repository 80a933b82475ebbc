"""HTTP caching of the read-only resources (RFC 9110 8.8 and 13, RFC 9111), and HEAD wherever GET is answered:
cards, search, lists, diffs and rules change only with the data, so the data version is their validator.

A resource's strong ETag is the data version, followed by the representation it chose where one URL has several
(the message language, lflist text): the same URL, headers and data always give the same bytes. An ETag is only
compared with the one the answer would carry, so a client that sends one it never got is answered in full.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck.data.freshness import Cadence
from deckcheck.days import seconds_left_today


def cadence_tag(cadence: Cadence) -> str:
    """The cadence of new lists as part of an ETag: the months OCG lists begin and the days a TCG list lasts, as
    `ocg1.4.7.10tcg180`. Two cadences that weigh every list alike have one tag."""
    return f"ocg{'.'.join(str(month) for month in sorted(set(cadence.ocg_months)))}tcg{cadence.tcg_days}"


class Caching:
    """The validators and freshness of one app's read-only answers; `cadence`: the data's `cadence_tag`."""

    def __init__(self, version: str, max_age: int, cadence: str) -> None:
        self.version = version
        self.cadence = cadence
        self._max_age = max_age
        self.cache_control = f"public, max-age={max_age}"

    def of_day(self, named: bool) -> str:
        """The freshness of an answer about one day: the others' when the request named the day, else only until
        today (its default, `today()`) ends in Japan."""
        if named:
            return self.cache_control
        return f"public, max-age={min(seconds_left_today(), self._max_age)}"

    def etag(self, *variant: str) -> str:
        """The strong ETag of a representation: the data version, then what the request chose, if anything."""
        return '"' + "-".join((self.version, *variant)) + '"'

    def etag_of_day(self, *variant: str) -> str:
        """The strong ETag of an answer about one day, whose notes say whether a newer list than the newest held may
        be in force by then (list_may_be_outdated): `etag`, then the cadence that says it (DECKCHECK_OCG_LIST_MONTHS,
        DECKCHECK_TCG_LIST_DAYS), which the data version does not cover."""
        return self.etag(*variant, self.cadence)

    def answer(
        self,
        request: Request,
        etag: str,
        vary: Sequence[str] = (),
        *,
        cache_control: str | None = None,
        made: bool = True,
    ) -> Response | None:
        """304 Not Modified when the request's If-None-Match names `etag`, or is `*` and there is a representation
        (RFC 9110 13.1.2: `*` matches any current one, and an error is none); None when the representation must be
        sent. `made`: whether the answer is known to be one; a route that learns it only by making the answer asks
        with False first, and again once it is made."""
        if not _matches(request.headers.get("if-none-match"), etag, star=made):
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


def _matches(if_none_match: str | None, etag: str, *, star: bool) -> bool:
    """Whether If-None-Match names `etag`, by the weak comparison RFC 9110 13.1.2 asks for (W/ is ignored), or is
    `*`, which matches when `star` says there is a representation."""
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return star
    return any(tag.strip().removeprefix("W/") == etag for tag in if_none_match.split(","))


# HEAD wherever GET is answered (RFC 9110 §9.3.2): load balancers and uptime checks probe with HEAD. The request is
# routed as a GET and answered with the GET's head, Content-Length and ETag included, and no body.


class HeadAsGet:
    """Route a HEAD request as the GET of the same target and send its answer without the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headless(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        routed = {**scope, "method": "GET"}
        await self.app(routed, receive, headless)
        if "route" in routed:  # for the access log and metrics, which read the route from the scope
            scope["route"] = routed["route"]
