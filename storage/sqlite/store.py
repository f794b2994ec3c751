"""``SqliteStore``: the ``Store`` on one SQLite file, how it opens, and its lost-file watch."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from storage.interface import DatabaseUnusable
from storage.sqlite.database import SqliteDatabase
from storage.sqlite.rows import utc_now
from storage.store import Store


class SqliteStore(Store):
    """``storage.store.Store`` on one SQLite file. Open with ``await SqliteStore.open(path)``."""

    _db: SqliteDatabase

    def __init__(self, database: SqliteDatabase) -> None:
        super().__init__(database)

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        synchronous: str = "FULL",
        busy_timeout: float = 5.0,
        check: bool = True,
        clock: Callable[[], dt.datetime] = utc_now,
    ) -> SqliteStore:
        """Open, check and migrate; ``DatabaseUnusable`` / ``DatabaseTooNew`` if the file can't be used.

        ``check`` runs SQLite's ``quick_check`` so a damaged file is reported at
        start-up rather than in the middle of a game.
        """
        database = await SqliteDatabase.connect(
            path, synchronous=synchronous, busy_timeout=busy_timeout, check=check, clock=clock
        )
        return cls(database)

    @property
    def on_lost(self) -> Callable[[DatabaseUnusable], None] | None:
        """Called once, with the error, when the database is found lost (``tell_when_lost``)."""
        return self._db.on_lost

    @on_lost.setter
    def on_lost(self, call: Callable[[DatabaseUnusable], None] | None) -> None:
        self._db.on_lost = call

    def check_file(self) -> None:
        """Raise ``DatabaseUnusable`` if the files on disk are no longer the ones in use (``SqliteBase``)."""
        self._db.check_file()


__all__ = ["SqliteStore"]
