"""A bounded memo for the computer players' hot functions.

``functools.lru_cache`` keeps a linked node per entry, hundreds of thousands of objects the
garbage collector must walk on every full collection (pauses of a few hundred milliseconds in
the middle of a decision). A plain dict of tuples to numbers costs the collector almost nothing;
when it fills up it is simply emptied.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

T = TypeVar("T")


def memo(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Memoize a function of hashable positional arguments, forgetting all at ``maxsize``."""

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        table: dict = {}

        @wraps(fn)
        def wrapper(*args):
            try:
                return table[args]
            except KeyError:
                pass
            if len(table) >= maxsize:
                table.clear()
            value = table[args] = fn(*args)
            return value

        wrapper.cache_clear = table.clear  # type: ignore[attr-defined]
        return wrapper

    return decorate
