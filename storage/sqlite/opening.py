"""Opening a SQLite database safely: path checks, pragmas, clear errors, migrations.

A file that cannot be used is refused with ``DatabaseUnusable`` (a message
saying what is wrong and what to do) before anything is written to it, so a
supervisor restarting the bot can never make things worse: nothing here
deletes, truncates or recreates a file.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage import migrator, upgrade
from storage.interface import DatabaseUnusable
from storage.migrator import Migration
from storage.migrator import split_statements as split_statements  # its old home, for callers

# PRAGMA application_id of a Boulanger database ("Boul"), so another
# program's SQLite file is recognised and refused rather than migrated.
APPLICATION_ID = 0x426F756C
MEMORY = ":memory:"
# A migration containing this line runs with foreign keys off (see _Target).
FOREIGN_KEYS_OFF = "-- migrator: foreign keys off"

_ADVICE = {
    "corrupt": "it is damaged or is not a SQLite database. It was left untouched: restore it from a "
    "backup or configure another database path",
    "locked": "another process holds a lock on it (is another copy of the bot running?). Stop it and "
    "start again",
    "unreadable": "it cannot be opened: check that the path exists, is a file, and that this user may "
    "read and write it and its directory",
    "readonly": "it is read-only: this user must be able to write the file and its directory (SQLite "
    "writes a -wal and a -shm file next to it)",
    "not_a_file": "it is not a regular file (a directory?). Configure the path of a database file",
    "foreign": "it is a SQLite database of another application. Configure another database path",
    "unusable": "it cannot be used",
    "vanished": "the file was deleted while the bot was using it (nothing since then was saved). "
    "Restore it from a backup; to start again with an empty database instead, start once with --init",
    "replaced": "another file was put in its place while the bot was using it (nothing since then was "
    "saved to either). Check which file is the right one, then start the bot again",
    "missing": "the database that was created here is gone, and a new, empty one is never created "
    "silently in its place. Restore it from a backup (with its -wal file, if any); to start again "
    "with an empty database instead, start once with --init",
    "empty": "the file is empty (0 bytes) although a database was created here: it was truncated or "
    "replaced. Restore it from a backup (with its -wal file, if any); to start again with an empty "
    "database instead, start once with --init",
    "truncated": "the file is shorter than the database it holds says it is: it was truncated or only "
    "partly copied. Restore it from a backup (with its -wal file, if any)",
    "wal_missing": "its -wal file is gone although the bot using it did not stop cleanly: the moves "
    "saved since the last checkpoint were in that file. Put the -wal file back; if you restored the "
    "database from a backup on purpose, delete the marker file named in brackets and start again",
    "wal_removed": "its -wal file was deleted or replaced while the bot was using it (the moves saved "
    "in it are lost at the next stop, and nothing since then was saved). Stop the bot, restore the "
    "database from a backup, then start it again",
    "rows_lost": "it no longer holds what this process wrote to it (a game row is missing or older: "
    "an older copy was put in its place?); nothing since then was saved. Check which copy is the "
    "right one, then start the bot again",
    "stale_wal": "its -wal or -shm file is still there without the database: a new database must not "
    "start from another one's journal. Restore the database, or move those files away",
}


def unusable(path: str, reason: str, detail: str = "") -> DatabaseUnusable:
    suffix = f" ({detail})" if detail else ""
    return DatabaseUnusable(
        f"Cannot use the database {path!r}: {_ADVICE[reason]}{suffix}.", path=path, reason=reason
    )


def classify(error: sqlite3.Error) -> str:
    """The ``DatabaseUnusable.reason`` for a SQLite error met while opening."""
    name = getattr(error, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return "corrupt"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return "locked"
    if name.startswith("SQLITE_READONLY"):
        return "readonly"
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH", "SQLITE_IOERR")):
        return "unreadable"
    return "unusable"


def load_migrations() -> list[Migration]:
    """SQLite's numbered migrations (``storage/migrations/*.sql``)."""
    return migrator.load("sqlite")


def check_path(path: str) -> None:
    """Refuse paths SQLite would fail on obscurely (or silently create in the wrong place)."""
    if path == MEMORY:
        return
    file = Path(path)
    if file.exists() and not file.is_file():
        raise unusable(path, "not_a_file")
    parent = file.resolve().parent
    if not parent.is_dir():
        raise unusable(path, "unreadable", f"the directory {str(parent)!r} does not exist")


async def read_header(conn: aiosqlite.Connection, path: str) -> int:
    """The schema version, after refusing another application's database. Writes nothing.

    One read transaction, so all three values come from the same snapshot even
    while another process is creating the schema.
    """
    await conn.execute("BEGIN")
    try:
        application_id = await _number(conn, "PRAGMA application_id")
        version = await _number(conn, "PRAGMA user_version")
        tables = await _number(conn, "SELECT count(*) FROM sqlite_master")
    finally:
        await conn.execute("ROLLBACK")
    if application_id not in (0, APPLICATION_ID) or (application_id == 0 and tables):
        raise unusable(path, "foreign", f"application_id {application_id}, {tables} schema objects")
    return version


async def configure(conn: aiosqlite.Connection, path: str, synchronous: str, busy_timeout: float) -> None:
    """WAL journal and the chosen sync level (see ``storage.sqlite`` for why FULL)."""
    if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
        raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
    mode = await _switch_to_wal(conn, busy_timeout)
    if path != MEMORY and str(mode).lower() != "wal":
        raise unusable(path, "unusable", f"could not switch to WAL journal mode (got {mode!r})")
    await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
    await conn.execute("PRAGMA foreign_keys = ON")


async def _switch_to_wal(conn: aiosqlite.Connection, busy_timeout: float) -> object:
    """``PRAGMA journal_mode = WAL``, retried: the first switch of a new file needs an exclusive lock
    and SQLite answers "locked" at once (without its busy handler) while another process opens it."""
    deadline = time.monotonic() + busy_timeout
    while True:
        try:
            return await _scalar(conn, "PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as error:
            if classify(error) != "locked" or time.monotonic() >= deadline:
                raise
            await asyncio.sleep(0.02)


async def migrate(conn: aiosqlite.Connection, path: str, current: int) -> int:
    """Apply pending migrations, each in its own transaction with its version number."""
    return await migrator.apply(_Target(conn, path), load_migrations(), current, path)


class _Target:
    """``migrator.Target`` on one SQLite connection: BEGIN IMMEDIATE locks, user_version numbers.

    A migration that rebuilds a table others refer to says so (``FOREIGN_KEYS_OFF``): it runs
    with foreign keys off, SQLite's documented procedure, and may not break any that held before.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path

    async def begin(self, migration: Migration) -> int:
        if FOREIGN_KEYS_OFF in migration.sql:
            await self.conn.execute("PRAGMA foreign_keys = OFF")  # only outside a transaction
        await self.conn.execute("BEGIN IMMEDIATE")
        return await _number(self.conn, "PRAGMA user_version")

    async def apply_one(self, migration: Migration) -> None:
        checked = FOREIGN_KEYS_OFF in migration.sql
        before = await self._broken_keys() if checked else set()
        head, tail = migration.parts()
        for statement in split_statements(head):
            await self.conn.execute(statement)
        step = upgrade.step_for(migration.name)
        if step is not None:
            await step(_Sql(self.conn))
        for statement in split_statements(tail):
            await self.conn.execute(statement)
        broken = await self._broken_keys() - before if checked else set()
        if broken:
            raise unusable(
                self.path, "unusable", f"{migration.name} breaks foreign keys: {sorted(broken)[:3]}"
            )
        # Integers from our own file names, never user input.
        await self.conn.execute(f"PRAGMA user_version = {migration.number:d}")
        await self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")

    async def _broken_keys(self) -> set[tuple[object, ...]]:
        async with self.conn.execute("PRAGMA foreign_key_check") as cursor:
            return {tuple(row) for row in await cursor.fetchall()}

    async def commit(self) -> None:
        await self.conn.execute("COMMIT")
        await self.conn.execute("PRAGMA foreign_keys = ON")

    async def rollback(self) -> None:
        await self.conn.execute("ROLLBACK")
        await self.conn.execute("PRAGMA foreign_keys = ON")


class _Sql:
    """``upgrade.Sql`` on the migrating connection (SQLite speaks ``?`` already)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, *params: Any) -> Sequence[Sequence[Any]]:
        async with self.conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, params)

    async def run(self, sql: str) -> None:
        await self.conn.execute(sql)


async def _scalar(conn: aiosqlite.Connection, sql: str) -> object:
    async with conn.execute(sql) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def _number(conn: aiosqlite.Connection, sql: str) -> int:
    """An integer pragma or count (0 when SQLite answers nothing)."""
    value = await _scalar(conn, sql)
    return value if isinstance(value, int) else 0
