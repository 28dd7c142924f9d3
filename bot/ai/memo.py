"""A bounded memo for the computer players' hot functions.

``functools.lru_cache`` keeps a linked node per entry, hundreds of thousands of objects the
garbage collector must walk on every full collection (pauses of a few hundred milliseconds in
the middle of a decision). A plain dict of tuples to numbers costs the collector almost nothing;
when it fills up it is simply emptied.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import TypeVar, cast

F = TypeVar("F", bound=Callable[..., object])


def memo(maxsize: int) -> Callable[[F], F]:
    """Memoize a function of hashable positional arguments, forgetting all at ``maxsize``."""

    def decorate(fn: F) -> F:
        table: dict[tuple[Hashable, ...], object] = {}

        @wraps(fn)
        def wrapper(*args: Hashable) -> object:
            try:
                return table[args]
            except KeyError:
                pass
            if len(table) >= maxsize:
                table.clear()
            value = table[args] = fn(*args)
            return value

        # The wrapper answers exactly as ``fn`` does for positional arguments (the only ones
        # its callers pass), so it keeps ``fn``'s signature.
        return cast(F, wrapper)

    return decorate
