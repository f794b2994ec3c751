"""The connection, its transactions and group commit, shared by the SqliteStore parts."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import random
import sqlite3
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Self, TypeVar, cast

import aiosqlite

from storage import validate as v
from storage.interface import DatabaseUnusable, StorageError
from storage.lost import LostWatch
from storage.migrator import too_new
from storage.sqlite.inthread import Conn, drive
from storage.sqlite.opening import (
    MEMORY,
    check_path,
    classify,
    configure,
    load_migrations,
    migrate,
    read_header,
    unusable,
)
from storage.sqlite.rows import operational_error, utc_now

Clock = Callable[[], dt.datetime]
T = TypeVar("T")
# (the caller's future, its result, or the error to raise instead)
Outcome = tuple["asyncio.Future[Any]", Any, "BaseException | None"]


class SqliteBase(LostWatch):
    """One SQLite file behind one aiosqlite connection. Opened by ``SqliteStore.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        self._clock = clock
        self._random = random.SystemRandom()
        self._pending: list[tuple[Any, asyncio.Future[Any]]] = []
        self._drainer: asyncio.Task[None] | None = None
        self.path = path
        # The file this connection has open (device, inode), to notice it being unlinked or replaced;
        # its -wal's; the largest size seen (it never shrinks: no VACUUM).
        self._identity = _identity(path)
        self._wal = _identity_if_there(path + "-wal") if self._identity is not None else None
        self._size = 0
        self._lost: DatabaseUnusable | None = None
        self._lost_told = False
        # Called once, with the error, when the file is found gone (the bot stops on it).
        self.on_lost: Callable[[DatabaseUnusable], None] | None = None

    # -- lifecycle ----------------------------------------------------------------
    @classmethod
    async def connect(
        cls,
        path: str,
        *,
        synchronous: str = "FULL",
        busy_timeout: float = 5.0,
        check: bool = True,
        clock: Clock = utc_now,
    ) -> Self:
        """Open, check and migrate; ``DatabaseUnusable`` / ``DatabaseTooNew`` if the file can't be used.

        ``check`` runs SQLite's ``quick_check`` so a damaged file is reported at
        start-up rather than in the middle of a game.
        """
        path = str(path)
        check_path(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
        except sqlite3.Error as error:
            raise unusable(path, classify(error), str(error)) from error
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000):d}")
            version = await read_header(conn, path)
            supported = len(load_migrations())
            if version > supported:
                raise too_new(path, version, supported)
            if check and version:
                await _quick_check(conn, path)
            await configure(conn, path, synchronous, busy_timeout)
            await migrate(conn, path, version)
        except DatabaseUnusable:
            await conn.close()
            raise
        except sqlite3.Error as error:
            await conn.close()
            raise unusable(path, classify(error), str(error)) from error
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, clock)

    async def close(self) -> None:
        """Finish the writes already submitted, then close the connection (twice is fine)."""
        while self._drainer is not None and not self._drainer.done():
            await asyncio.wait([self._drainer])
        if self._conn is not None:
            async with self._lock:
                conn, self._conn = self._conn, None
                if conn is not None:
                    await conn.close()

    def check_file(self) -> None:
        """Raise ``DatabaseUnusable`` if the files on disk are no longer the ones this connection uses.

        Checked before every commit (two ``os.stat``), so a write is never acknowledged once it
        would go to a file nobody will open again: the database unlinked ("vanished") or another
        file put in its place ("replaced"), the file shortened or a smaller, older copy written
        over it ("truncated": without VACUUM a database file never shrinks), or its ``-wal``
        deleted or replaced ("wal_removed": SQLite would go on writing to an unlinked file, lost
        at the next stop). Only ``stat``: opening and closing the database file in this process
        would drop SQLite's POSIX locks on it. Once lost, always lost.
        """
        try:
            self._look_at_file()
        finally:
            self._tell_lost()

    def _look_at_file(self) -> None:
        """``check_file`` without telling ``on_lost`` (on the connection's thread: the callback
        belongs to the event loop, ``_tell_lost`` calls it there)."""
        if self._lost is None and self._identity is not None:
            problem = self._file_problem()
            if problem is not None:
                self._lost = unusable(self.path, *problem)
        if self._lost is not None:
            raise unusable(self.path, self._lost.reason)

    def _tell_lost(self) -> None:
        if self._lost is not None and not self._lost_told:
            self._lost_told = True
            if self.on_lost is not None:
                self.on_lost(self._lost)

    def _file_problem(self) -> tuple[str, str] | None:
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return "vanished", ""
        if (found.st_dev, found.st_ino) != self._identity:
            return "replaced", ""
        if found.st_size < self._size:
            return "truncated", f"{found.st_size} bytes, {self._size} before"
        self._size = found.st_size
        wal = _identity_if_there(self.path + "-wal")
        if self._wal is None:
            self._wal = wal  # SQLite creates it on the first read
        elif wal != self._wal:
            return "wal_removed", "deleted" if wal is None else "another file in its place"
        return None

    def now(self) -> dt.datetime:
        """The clock, checked (timezone-aware)."""
        return v.moment("the clock", self._clock())

    def _unusable(self, reason: str, detail: str) -> DatabaseUnusable:
        return unusable(self.path, reason, detail)

    # -- transactions -------------------------------------------------------------
    async def _write(self, op: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """Run ``op`` in a write transaction and return its result once that is durably committed.

        Group commit: writes that arrive while a commit is in progress are run
        together in the next transaction, each inside its own savepoint (a
        refused write - a version conflict, say - undoes only itself; a write
        alone in its transaction needs none), and
        share one COMMIT and so one fsync. Nobody's call returns before the
        transaction holding their write is committed.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            async with self._lock:
                outcomes = await self._run_batch(batch)
            for future, value, error in outcomes:
                if future.done():
                    continue  # the caller was cancelled; its write still stands
                if error is None:
                    future.set_result(value)
                else:
                    future.set_exception(error)

    async def _run_batch(self, batch: list[tuple[Any, asyncio.Future[Any]]]) -> list[Outcome]:
        """One transaction for the whole batch, in one hand-off to the connection's thread
        (``inthread``); on a database error nobody in it is committed."""
        conn = self._conn
        if conn is None:
            return [(f, None, StorageError("the store is closed")) for _, f in batch]
        try:
            return await self._on_thread(conn, lambda raw: self._batch_on_thread(raw, batch))
        finally:
            self._tell_lost()  # the file found gone on the connection's thread

    @staticmethod
    async def _on_thread(conn: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(sqlite3 connection)`` on aiosqlite's thread for that connection, in one hand-off
        (aiosqlite's own ``_execute``: it has no public call for it; aiosqlite is pinned < 0.23)."""
        raw: sqlite3.Connection = conn._conn
        result: T = await cast(Any, conn)._execute(fn, raw)
        return result

    def _batch_on_thread(
        self, raw: sqlite3.Connection, batch: list[tuple[Any, asyncio.Future[Any]]]
    ) -> list[Outcome]:
        """The batch's transaction, run on the connection's thread (``_run_batch``)."""
        conn = Conn(raw)
        outcomes: list[Outcome] = []
        # A write alone in its transaction needs no savepoint: refused, the whole transaction
        # is rolled back (nothing else is in it).
        alone = len(batch) == 1
        try:
            raw.execute("BEGIN IMMEDIATE")
            for op, future in batch:
                if not alone:
                    raw.execute("SAVEPOINT write")
                try:
                    value = drive(op(conn))
                except Exception as refused:
                    if isinstance(refused, sqlite3.Error) and not raw.in_transaction:
                        raise  # SQLite ended the whole transaction (I/O error, disk full...)
                    raw.execute("ROLLBACK" if alone else "ROLLBACK TO write")
                    if isinstance(refused, sqlite3.Error):
                        refused = operational_error(refused)
                    if alone:
                        return [(future, None, refused)]
                    outcomes.append((future, None, refused))
                else:
                    outcomes.append((future, value, None))
                if not alone:
                    raw.execute("RELEASE write")
            drive(self._check_written(conn))  # nor once the database lost what this store wrote
            self._look_at_file()  # nor once the file is gone
            raw.execute("COMMIT")
        except Exception as error:
            with contextlib.suppress(sqlite3.Error):
                raw.execute("ROLLBACK")
            failure = operational_error(error) if isinstance(error, sqlite3.Error) else error
            return [(f, None, failure) for _, f in batch]
        return outcomes

    async def _read(self, op: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """``op`` in one read transaction, in one hand-off to the connection's thread."""
        async with self._lock:
            conn = self._conn
            if conn is None:
                raise StorageError("the store is closed")
            try:
                return await self._on_thread(conn, lambda raw: _read_on_thread(raw, op))
            except sqlite3.Error as error:
                raise operational_error(error) from error

    async def _check_written(self, conn: Conn) -> None:
        written = self._record_to_check()
        if written is not None:
            row = await self._one(conn, "SELECT version FROM games WHERE id = ?", (written[0],))
            self._check_stored(written, None if row is None else int(row[0]))

    @staticmethod
    async def _all(conn: Conn, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await conn.execute_fetchall(sql, params))

    async def _one(self, conn: Conn, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._all(conn, sql, params)
        return rows[0] if rows else None

    # -- maintenance --------------------------------------------------------------
    async def ping(self) -> None:
        await self._read(lambda conn: self._all(conn, "SELECT 1"))

    async def integrity_check(self) -> list[str]:
        rows = await self._read(lambda conn: self._all(conn, "PRAGMA integrity_check"))
        problems = [str(r[0]) for r in rows]
        return [] if problems == ["ok"] else problems


def _read_on_thread(raw: sqlite3.Connection, op: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
    raw.execute("BEGIN")
    try:
        result = drive(op(Conn(raw)))
        raw.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            raw.execute("ROLLBACK")
        raise
    return result


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``; None for an in-memory database."""
    if path == MEMORY:
        return None
    found = os.stat(path)
    return found.st_dev, found.st_ino


def _identity_if_there(path: str) -> tuple[int, int] | None:
    try:
        return _identity(path)
    except FileNotFoundError:
        return None


async def _quick_check(conn: aiosqlite.Connection, path: str) -> None:
    async with conn.execute("PRAGMA quick_check") as cursor:
        rows = [str(r[0]) for r in await cursor.fetchall()]
    if rows != ["ok"]:
        raise unusable(path, "corrupt", "; ".join(rows[:3]))
