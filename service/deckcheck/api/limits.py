"""The request body limit, enforced before a route reads the body."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck.api.problems import problem


class BodyLimit:
    """Refuse request bodies larger than `limit` bytes with 413, before the app reads them. Streaming routes
    (`streaming_paths`) read their bodies line by line and limit each line instead."""

    def __init__(self, app: ASGIApp, limit: int, streaming_paths: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.limit = limit
        self.streaming_paths = streaming_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.streaming_paths:
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"The request body is larger than {self.limit} bytes."
        error = {"loc": ["body"], "msg": detail, "type": "body_too_large"}
        await problem(413, detail, [error], "body-too-large")(scope, receive, send)
