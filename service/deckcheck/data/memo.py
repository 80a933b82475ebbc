"""What is worked out from loaded data, kept with the data it came from: a function's results live in the `memo` of
its first argument (a CardIndex, or arrays made from one), so they go when the data go. A process-wide cache such
as functools.lru_cache would keep the data a reload replaced alive for as long as their entries stay in it."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Hashable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Holder(Protocol):
    """Something results can be kept in: a dict of the functions' results."""

    @property
    def memo(self) -> dict[Hashable, Any]: ...


H = TypeVar("H", bound=Holder)


def kept_with(maxsize: int) -> Callable[[Callable[Concatenate[H, P], R]], Callable[Concatenate[H, P], R]]:
    """Keep up to `maxsize` results of the decorated function per first argument, in that argument's `memo` (the
    oldest forgotten first). Threads may both work out the same result: both find the same answer."""

    def decorate(function: Callable[Concatenate[H, P], R]) -> Callable[Concatenate[H, P], R]:
        def kept(holder: H, /, *args: P.args, **kwargs: P.kwargs) -> R:
            results: dict[Hashable, R] = holder.memo.setdefault(kept, {})
            key = (args, tuple(kwargs.items()))
            try:
                return results[key]
            except KeyError:
                pass
            found = function(holder, *args, **kwargs)
            if len(results) >= maxsize:
                with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # another thread got there first
                    del results[next(iter(results))]
            results[key] = found
            return found

        functools.update_wrapper(kept, function)
        return kept

    return decorate


def kept_for(holder: Holder, function: Callable[..., object]) -> list[tuple[Any, ...]]:
    """The arguments after `holder` that results of `function` (decorated by `kept_with`) are kept for in `holder`,
    the oldest first; those given by keyword are left out."""
    kept = list(holder.memo.get(function, ()))  # at once: other threads may add to it meanwhile
    return [args for args, keywords in kept if not keywords]
