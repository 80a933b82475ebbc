"""Files the commands read whole (a deck file, an lflist.conf, a list source), read as a request body is: within a
bound. A file larger than the bound is refused by its size, before any of it is read; a pipe or other stream,
whose size is not known beforehand, is read one byte past the bound at most. So no file given on a command line
costs more memory than the bound, however large it is."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from deckcheck.errors import InvalidInput, TooLarge


class FileTooLarge(TooLarge):
    """A file past the bound on what may be read of it; the message says how large it is, the bound and what
    sets it."""

    def __init__(self, size: int | None, limit: int, bound: str) -> None:
        held = "more than" if size is None else f"{size:,} bytes, past"
        super().__init__(f"{held} the {limit:,} bytes {bound}")


class NotRegular(InvalidInput):
    """A file read only when it is a regular one (data, never a pipe to wait on) that is not."""


def read_bounded(path: Path, limit: int, bound: str, *, regular_only: bool = False) -> bytes:
    """The bytes of the file at `path`, or FileTooLarge when it holds more than `limit` (`bound` says what sets the
    limit, after "past the N bytes": "DECKCHECK_MAX_BODY_BYTES allows"); OSError when it cannot be read. With
    `regular_only`, NotRegular for a pipe, device or folder, found without waiting for a pipe's writer."""
    flags = os.O_RDONLY | os.O_CLOEXEC | (os.O_NONBLOCK if regular_only else 0)
    with os.fdopen(os.open(path, flags), "rb") as f:
        found = os.fstat(f.fileno())
        if regular_only and not stat.S_ISREG(found.st_mode):
            raise NotRegular(str(path))
        if stat.S_ISREG(found.st_mode) and found.st_size > limit:
            raise FileTooLarge(found.st_size, limit, bound)
        raw = f.read(limit + 1)  # a pipe, or a file that grew since
    if len(raw) > limit:
        raise FileTooLarge(None, limit, bound)
    return raw
