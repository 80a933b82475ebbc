"""NamedTuples made straight from their values, for the tuples a recheck makes for every line."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T", bound=tuple[Any, ...])


def maker(kind: type[T]) -> Callable[[tuple[Any, ...]], T]:
    """A function making a `kind` of a tuple of its values, in their order: `tuple.__new__` itself, where a
    NamedTuple's own constructor is a Python function, about twice as slow (docs/benchmarks.md, Rechecks)."""
    made: Callable[[tuple[Any, ...]], T] = partial(tuple.__new__, kind)
    return made
