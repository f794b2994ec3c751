"""``PostgresStore``: the ``Store`` on PostgreSQL, and how it opens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from storage.postgres.database import PostgresDatabase
from storage.store import Store


class PostgresStore(Store):
    """``storage.store.Store`` on one PostgreSQL database or schema. Open with ``await PostgresStore.open(url)``."""

    _db: PostgresDatabase

    def __init__(self, database: PostgresDatabase) -> None:
        super().__init__(database)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> PostgresStore:
        """Connect, check and migrate; ``DatabaseUnusable`` / ``DatabaseTooNew`` if it can't be used."""
        database = await PostgresDatabase.connect(
            url, min_size=min_size, max_size=max_size, timeout=timeout, clock=clock
        )
        return cls(database)


__all__ = ["PostgresStore"]
