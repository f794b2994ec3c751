"""A thread-safe memo for sprites: built once under a lock, then only read.

The bot renders in worker threads (``asyncio.to_thread``). Cached Pillow images
are never drawn on after they are stored (boards paste *from* them), and every
build runs under one re-entrant lock, because FreeType faces must not be used
from two threads at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

BUILD_LOCK = threading.RLock()


def cached(limit: int | None = None) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Memoize on the positional arguments; ``limit`` bounds caches of open-ended keys (text)."""

    def wrap(fn: Callable[P, T]) -> Callable[P, T]:
        store: dict[object, T] = {}

        @wraps(fn)
        def get(*args: P.args, **kwargs: P.kwargs) -> T:
            key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            hit = store.get(key)
            if hit is not None:
                return hit
            with BUILD_LOCK:
                hit = store.get(key)
                if hit is None:
                    hit = fn(*args, **kwargs)
                    if limit is not None and len(store) >= limit:
                        store.pop(next(iter(store)))  # oldest first: insertion order
                    store[key] = hit
                return hit

        get.cache = store  # type: ignore[attr-defined]  # for tests and benchmarks
        return get

    return wrap
