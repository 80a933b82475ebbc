"""Errors raised while loading the bundled data."""

from __future__ import annotations


class DataError(Exception):
    """A data file is broken or inconsistent; start-up must stop and name the file and the entry."""

    def __init__(self, file: str, entry: str, problem: str) -> None:
        super().__init__(f"{file}: {entry}: {problem}")
        self.file = file
        self.entry = entry
        self.problem = problem
