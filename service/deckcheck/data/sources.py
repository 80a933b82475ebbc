"""The file an import reads (an lflist.conf, a list CSV or JSON, a cards.cdb or card CSV), taken in once: opened
as a regular file only, so that a pipe, a device or a folder is refused at once instead of waited on for ever, and
copied within a bound into a private folder, so that every reader of the import (and its SHA-256) reads the same
bytes, however the file is changed or swapped while the command runs."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from deckcheck.errors import SourceError
from deckcheck.input_files import FileTooLarge, NotRegular, read_bounded

MAX_SOURCE_BYTES = 64 * 1024 * 1024  # larger than any list, card file or cards.cdb a release has held
SOURCE_BOUND = "a list or card source may hold (64 MiB)"


@contextmanager
def taken_in(path: Path) -> Iterator[Path]:
    """A private copy of the regular file at `path`, under the same name, for the block's time; SourceError naming
    the file when it cannot be opened, is not a regular file, or holds more than MAX_SOURCE_BYTES."""
    try:
        raw = read_bounded(path, MAX_SOURCE_BYTES, SOURCE_BOUND, regular_only=True)
    except NotRegular:
        raise SourceError(
            path.name, ["is not a regular file (a pipe, device or folder is never read as data)"]
        ) from None
    except FileTooLarge as exc:
        raise SourceError(path.name, [str(exc)]) from None
    except OSError as exc:
        raise SourceError(path.name, [f"cannot be read: {exc.strerror or exc}"]) from None
    with tempfile.TemporaryDirectory(prefix="deckcheck-source-") as scratch:
        copy = Path(scratch) / path.name
        copy.write_bytes(raw)
        yield copy
