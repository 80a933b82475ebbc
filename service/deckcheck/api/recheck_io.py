"""The two ends of a recheck: its NDJSON body read as numbered lines while it arrives, and its result lines held
back until the whole body is read, for proxies that stop sending a body once the answer begins (nginx does)."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator

from starlette.types import Message, Receive, Send

from deckcheck.batch import MAX_LINE_BYTES
from deckcheck.errors import TooLarge

_BOM = "\ufeff".encode()
HELD_IN_MEMORY = 8 * 1024 * 1024  # result bytes kept in memory before they go to a temporary file


class Disconnected(Exception):
    """The client went away before sending its whole body."""


class HeldTooLarge(TooLarge):
    """The held results would pass the limit on what one recheck may keep."""


async def ndjson_batches(receive: Receive) -> AsyncIterator[tuple[int, list[bytes | None]]]:
    """The complete NDJSON lines of each body chunk as it arrives, with the number of the first (from 1). A line
    over the limit is dropped while it streams in and stands as None, so it costs no memory and still gets its
    error line."""
    number = 1
    pending = bytearray()
    oversized = False
    more = True
    first = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise Disconnected
        pending += message.get("body", b"")
        more = message.get("more_body", False)
        if first and (len(pending) >= len(_BOM) or not more):
            first = False
            if pending.startswith(_BOM):  # a byte order mark some editors write: not part of line 1
                del pending[: len(_BOM)]
        batch: list[bytes | None] = []
        while (end := pending.find(b"\n")) >= 0:
            batch.append(None if oversized else bytes(pending[:end]))
            del pending[: end + 1]
            oversized = False
        if len(pending) > MAX_LINE_BYTES:
            oversized = True
            pending.clear()
        if batch:
            yield number, batch
            number += len(batch)
    if pending or oversized:
        yield number, [None if oversized else bytes(pending)]


class Held:
    """Result lines kept until the whole body has been read: in memory up to HELD_IN_MEMORY, then in a temporary
    file, up to `limit` bytes in all. Close it when done."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.file = tempfile.SpooledTemporaryFile(max_size=HELD_IN_MEMORY)  # noqa: SIM115 - closed by close()

    def write(self, lines: bytes) -> None:
        """Keep result lines; HeldTooLarge past the limit."""
        self.size += len(lines)
        if self.size > self.limit:
            raise HeldTooLarge
        self.file.write(lines)

    async def send_all(self, send: Send, start: Message, last: bytes) -> None:
        """Begin the answer and send every kept line, then `last`."""
        await send(start)
        self.file.seek(0)
        while block := self.file.read(256 * 1024):
            await send({"type": "http.response.body", "body": block, "more_body": True})
        await send({"type": "http.response.body", "body": last, "more_body": False})

    def close(self) -> None:
        """Free the memory or the temporary file."""
        self.file.close()
