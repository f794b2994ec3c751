"""A thread-safe memo for sprites: built once under a lock, then only read.

The bot draws boards on its event loop and animated replays in a thread, at the same time.
Cached Pillow images are never drawn on after they are stored (boards paste *from* them),
and every build runs under one re-entrant lock, because FreeType faces must not be used
from two threads at once. A bounded memo evicts the least recently used entry.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import update_wrapper
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

BUILD_LOCK = threading.RLock()


class Memo(Generic[P, T]):
    """``fn`` with its results kept in ``cache`` (a plain dict: tests and benchmarks clear it)."""

    def __init__(self, fn: Callable[P, T], limit: int | None) -> None:
        self._fn = fn
        self._limit = limit
        self.cache: dict[object, T] = {}
        update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> T:
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        store = self.cache
        hit = store.get(key)
        if hit is not None:
            if self._limit is not None and store.pop(key, None) is not None:
                store[key] = hit  # most recently used last: the oldest is evicted first
            return hit
        with BUILD_LOCK:
            hit = store.get(key)
            if hit is None:
                hit = self._fn(*args, **kwargs)
                if self._limit is not None and len(store) >= self._limit:
                    store.pop(next(iter(store)))  # least recently used first
                store[key] = hit
            return hit


def cached(limit: int | None = None) -> Callable[[Callable[P, T]], Memo[P, T]]:
    """Memoize on the positional arguments; ``limit`` bounds caches of open-ended keys (text)."""

    def wrap(fn: Callable[P, T]) -> Memo[P, T]:
        return Memo(fn, limit)

    return wrap
