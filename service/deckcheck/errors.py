"""Errors: broken bundled data, and requests that ask for something impossible."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class DataError(Exception):
    """A data file is broken or inconsistent; start-up must stop and name the file and the entry."""

    def __init__(self, file: str, entry: str, problem: str) -> None:
        super().__init__(f"{file}: {entry}: {problem}")
        self.file = file
        self.entry = entry
        self.problem = problem


class RequestError(Exception):
    """A request that is well-formed JSON but asks for something impossible (an unknown list id, a .ydk line that
    is not a passcode); each error has loc, msg and type, and line and column where they are known."""

    def __init__(self, errors: list[dict[str, Any]], status: int = 422) -> None:
        super().__init__(errors[0]["msg"])
        self.errors = errors
        self.status = status

    @classmethod
    def one(cls, loc: Sequence[str | int], msg: str, type_: str, status: int = 422) -> RequestError:
        """An error about one field."""
        return cls([{"loc": list(loc), "msg": msg, "type": type_}], status)


class SourceError(ValueError):
    """A file offered as new data (a list or a card database) that cannot be imported as it stands; `problems`
    holds every problem found, each naming its line or entry, so an operator can mend them all at once."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems = list(problems)
        shown = "; ".join(self.problems[:20]) + (
            f"; and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        )
        super().__init__(f"{source}: {shown}")


class FolderBusy(Exception):
    """An updates folder that another command is changing, still after the wait for it: who holds it, since when."""

    def __init__(self, folder: str, waited: float, holder: str) -> None:
        super().__init__(f"{folder}: another command is changing it, {holder}; waited {waited:g} s (--lock-wait)")
        self.folder = folder
        self.holder = holder
