"""The errors deckcheck raises on purpose: one base, `Error`, a few kinds beneath it that say what went wrong in the
caller's terms, and the errors that more than one module raises. An error of one module lives beside it and
derives from one kind here.

The core knows no HTTP status: the API answers each kind with the status its table gives (api/problems.py), a
command prints the message and exits 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Self


class Error(Exception):
    """Every error deckcheck raises on purpose; each derives from one kind below. `errors` says what went wrong
    where, as data, when the error knows: each {loc, msg, type}, with line and column where a source gave them."""

    def __init__(self, message: str = "", errors: Iterable[dict[str, Any]] = ()) -> None:
        super().__init__(message)
        self.errors = list(errors)

    @classmethod
    def one(cls, loc: Sequence[str | int], msg: str, type_: str) -> Self:
        """An error about one field: `loc` where it is, `type_` its stable identifier."""
        return cls(msg, [{"loc": list(loc), "msg": msg, "type": type_}])


# The kinds. Keep them few: a caller acts on the kind, and reads the rest in the message and `errors`.


class InvalidInput(Error):
    """The input (a request, a file, a setting, a command line) is malformed or asks for something impossible."""


class NotFound(Error):
    """The input names something that is not there: a list, a card, a file."""


class TooLarge(Error):
    """A bound on what is read or held is passed."""


class Unavailable(Error):
    """Something the work needs cannot serve it now or here: busy, overloaded, shut down, or not installed."""


class TimedOut(Error):
    """The time the work was given ran out."""


class BrokenData(Error):
    """The data deckcheck judges by are broken or inconsistent: the fault is the install's, not the caller's."""


KINDS: tuple[type[Error], ...] = (InvalidInput, NotFound, TooLarge, Unavailable, TimedOut, BrokenData)


class DataError(BrokenData):
    """A data file is broken or inconsistent; start-up must stop and name the file and the entry."""

    def __init__(self, file: str, entry: str, problem: str) -> None:
        super().__init__(f"{file}: {entry}: {problem}")
        self.file = file
        self.entry = entry
        self.problem = problem


class RequestError(InvalidInput):
    """A request that is well-formed JSON but asks for something impossible (an unknown list id, a .ydk line that
    is not a passcode); each error has loc, msg and type, and line and column where they are known."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(errors[0]["msg"], errors)

    @classmethod
    def one(cls, loc: Sequence[str | int], msg: str, type_: str) -> Self:
        """An error about one field."""
        return cls([{"loc": list(loc), "msg": msg, "type": type_}])


class SourceError(InvalidInput):
    """A file offered as new data (a list or a card database) that cannot be imported as it stands; `problems`
    holds every problem found, each naming its line or entry, so an operator can mend them all at once."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems = list(problems)
        shown = "; ".join(self.problems[:20]) + (
            f"; and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        )
        super().__init__(f"{source}: {shown}")


class FolderBusy(Unavailable):
    """An updates folder that another command is changing, still after the wait for it: who holds it, since when."""

    def __init__(self, folder: str, waited: float, holder: str) -> None:
        super().__init__(f"{folder}: another command is changing it, {holder}; waited {waited:g} s (--lock-wait)")
        self.folder = folder
        self.holder = holder


# Paper (deckcheck.paper): defined here, not beside the readers, so that a service without the paper extra, which
# cannot import those, still names and answers them.


class PaperError(Error):
    """A file sent to be read as paper that is not read: `kind` is the stable type of the error (not_an_image,
    too_many_pixels, too_many_scans, too_many_chunks, too_many_lines, unreadable_image, unreadable_pdf, read_timeout,
    ocr_unavailable, paper_unavailable), and `errors` the one error located at the body that carried the file.
    Raised only as one of the classes below, each of one kind."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message, [{"loc": ["body"], "msg": message, "type": kind}])
        self.kind = kind


class PaperUnreadable(PaperError, InvalidInput):
    """The file is no image or PDF that can be read, or is past a bound on what is read of one."""


class NotAnImage(PaperUnreadable):
    """The file's first bytes are those of no PNG, JPEG or PDF."""


class PaperTimedOut(PaperError, TimedOut):
    """Reading the file took longer than its time budget."""


class PaperUnavailable(PaperError, Unavailable):
    """What reading or printing paper needs is not installed: the paper extra, Tesseract's data, poppler."""
