"""The pool, its transactions and error mapping, shared by the PostgresStore parts."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Self

import asyncpg

from storage import rows
from storage import validate as v
from storage.interface import DatabaseBusy, DatabaseUnusable, StorageError
from storage.lost import LostWatch
from storage.postgres.opening import classify, open_pool, prepare, redact, unusable

if TYPE_CHECKING:
    from storage.postgres.opening import Conn

Clock = Callable[[], dt.datetime]

_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def to_text(value: str) -> str:
    """Free text as stored: PostgreSQL's text cannot hold NUL, so ``\\`` and NUL are escaped."""
    return value.replace("\\", "\\\\").replace("\x00", "\\0")


def from_text(stored: str) -> str:
    return _ESCAPED.sub(lambda m: "\x00" if m.group(1) == "0" else m.group(1), stored)


def maybe_text(value: str | None) -> str | None:
    return None if value is None else to_text(value)


def maybe_from_text(stored: str | None) -> str | None:
    return None if stored is None else from_text(stored)


def to_moment(moment: dt.datetime) -> dt.datetime:
    """A time as stored: UTC, to the millisecond, exactly as the SQLite store keeps it."""
    utc = moment.astimezone(dt.UTC)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000)


def _same(value: dt.date) -> dt.date:
    return value


def _aware(value: dt.datetime) -> dt.datetime:
    return value.astimezone(dt.UTC)


DECODE = rows.Decoding(moment=_aware, day=_same, text=from_text)
ENCODE = rows.Encoding(moment=to_moment, day=_same, text=to_text)


def database_error(error: BaseException) -> StorageError:
    """The storage error for a driver error met while serving a call."""
    if isinstance(
        error,
        asyncpg.SerializationError
        | asyncpg.DeadlockDetectedError
        | asyncpg.LockNotAvailableError
        | asyncpg.QueryCanceledError
        | asyncpg.TooManyConnectionsError,
    ):
        return DatabaseBusy(f"the database was too busy to answer in time: {error}")
    if isinstance(error, OSError | TimeoutError | asyncpg.PostgresConnectionError | asyncpg.InterfaceError):
        return StorageError(f"lost the connection to the database: {error}")
    return StorageError(f"database error: {error}")


_SCHEMA_GONE = (asyncpg.UndefinedTableError, asyncpg.InvalidSchemaNameError)
_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


class PostgresBase(LostWatch):
    """One PostgreSQL database (or schema) behind an asyncpg pool. Opened by ``PostgresStore.open(url)``."""

    def __init__(self, pool: asyncpg.Pool, where: str, clock: Clock) -> None:
        self._pool: asyncpg.Pool | None = pool
        self._clock = clock
        self._random = random.SystemRandom()
        self._calls = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.path = where

    # -- lifecycle ----------------------------------------------------------------
    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 10.0,
        clock: Clock | None = None,
    ) -> Self:
        """Connect, check and migrate; ``DatabaseUnusable`` / ``DatabaseTooNew`` if it can't be used."""
        where = redact(url)
        try:
            pool = await open_pool(url, min_size=min_size, max_size=max_size, timeout=timeout)
        except _DRIVER_ERRORS as error:
            raise unusable(where, classify(error), _short(error)) from error
        try:
            async with pool.acquire() as conn:
                await prepare(conn, where)
        except DatabaseUnusable:
            await pool.close()
            raise
        except _DRIVER_ERRORS as error:
            pool.terminate()
            raise unusable(where, classify(error), _short(error)) from error
        except BaseException:
            pool.terminate()
            raise
        return cls(pool, where, clock or (lambda: dt.datetime.now(dt.UTC)))

    async def close(self) -> None:
        """Finish the calls already under way, then close every connection (twice is fine)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        await self._idle.wait()
        await pool.close()

    def now(self) -> dt.datetime:
        """The clock, checked (timezone-aware)."""
        return to_moment(v.moment("the clock", self._clock()))

    def _unusable(self, reason: str, detail: str) -> DatabaseUnusable:
        return unusable(self.path, reason, detail)

    # -- transactions -------------------------------------------------------------
    @asynccontextmanager
    async def _transaction(self, *, write: bool = True) -> AsyncIterator[Conn]:
        """One transaction on a pooled connection, committed on leaving; driver errors mapped.

        Writes run at READ COMMITTED, every guarded statement re-checking its
        condition on the row it locks (the version, a claim's age); reads run
        read-only at REPEATABLE READ, so a call's queries see one snapshot.
        """
        pool = self._pool
        if pool is None:
            raise StorageError("the store is closed")
        self._calls += 1
        self._idle.clear()
        try:
            async with pool.acquire() as conn:
                if write:
                    async with conn.transaction():
                        yield conn
                        await self._check_written(conn)  # before the commit: see StoreFront
                else:
                    async with conn.transaction(isolation="repeatable_read", readonly=True):
                        yield conn
        except _SCHEMA_GONE as error:  # DROP SCHEMA, a wiped database: never begin again silently
            raise self._report_lost(unusable(self.path, "schema_lost", _short(error))) from error
        except _DRIVER_ERRORS as error:
            raise database_error(error) from error
        finally:
            self._calls -= 1
            if not self._calls:
                self._idle.set()

    async def _check_written(self, conn: Conn) -> None:
        written = self._record_to_check()
        if written is not None:
            version = await conn.fetchval("SELECT version FROM games WHERE id = $1", written[0])
            self._check_stored(written, None if version is None else int(version))

    # -- maintenance --------------------------------------------------------------
    async def ping(self) -> None:
        async with self._transaction(write=False) as conn:
            await conn.fetchval("SELECT 1")

    async def integrity_check(self) -> list[str]:
        """The rules the schema cannot state: every finished game has its history row and matches it,
        and each action log has as many entries as counted (PostgreSQL checks its own pages itself)."""
        async with self._transaction(write=False) as conn:
            missing = await conn.fetch(
                "SELECT g.id FROM games g LEFT JOIN results r ON r.game_id = g.id "
                "WHERE g.status <> 'active' AND r.game_id IS NULL ORDER BY g.id LIMIT 10"
            )
            differing = await conn.fetch(
                "SELECT g.id FROM games g JOIN results r ON r.game_id = g.id WHERE g.status <> r.status "
                "OR g.score <> r.score OR g.move_count <> r.move_count OR g.owner_id <> r.user_id "
                "ORDER BY g.id LIMIT 10"
            )
            miscounted = await conn.fetch(
                "SELECT id FROM games WHERE action_count <> "
                "CASE WHEN moves = '' THEN 0 ELSE array_length(string_to_array(moves, ' '), 1) END "
                "ORDER BY id LIMIT 10"
            )
        return [
            *(f"game {r[0]} is finished but has no history row" for r in missing),
            *(f"game {r[0]} differs from its history row" for r in differing),
            *(f"game {r[0]} has an action log of another length than its action_count" for r in miscounted),
        ]


def _short(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:300]
