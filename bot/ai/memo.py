"""A bounded memo for the computer players' hot functions.

``functools.lru_cache`` with a size keeps a linked node per entry: hundreds of thousands of
objects the garbage collector must walk on every full collection (pauses of a few hundred
milliseconds in the middle of a decision). Without a size (``functools.cache``) it is a plain
dict of argument tuples to results, looked up in C, which costs the collector almost nothing and
a hit less than a Python wrapper's lookup. To keep it bounded, the misses are counted and the
dict is simply emptied when it fills up.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cache, update_wrapper
from typing import TypeVar, cast

F = TypeVar("F", bound=Callable[..., object])


def memo(maxsize: int) -> Callable[[F], F]:
    """Memoize a function of hashable positional arguments, forgetting all at ``maxsize``."""

    def decorate(fn: F) -> F:
        misses = 0

        def computed(*args: Hashable) -> object:
            # Called only on a miss, before the result is stored: one more entry.
            nonlocal misses
            if misses >= maxsize:
                cached.cache_clear()
                misses = 0
            misses += 1
            return fn(*args)

        cached = cache(computed)
        update_wrapper(cached, fn)
        # The memo answers exactly as ``fn`` does for positional arguments (the only ones its
        # callers pass), so it keeps ``fn``'s signature.
        return cast(F, cached)

    return decorate
