"""HEAD wherever GET is answered (RFC 9110 §9.3.2): load balancers and uptime checks probe with HEAD. The request is
routed as a GET and answered with the GET's head, Content-Length and ETag included, and no body."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


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
