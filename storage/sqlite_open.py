"""Opening a SQLite database safely: path checks, pragmas, clear errors, migrations.

A file that cannot be used is refused with ``DatabaseUnusable`` (a message
saying what is wrong and what to do) before anything is written to it, so a
supervisor restarting the bot can never make things worse: nothing here
deletes, truncates or recreates a file.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from storage.interface import DatabaseTooNew, DatabaseUnusable

# PRAGMA application_id of a Boulanger database ("Boul"), so another
# program's SQLite file is recognised and refused rather than migrated.
APPLICATION_ID = 0x426F756C
MEMORY = ":memory:"

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

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
    "stale_wal": "its -wal or -shm file is still there without the database: a new database must not "
    "start from another one's journal. Restore the database, or move those files away",
}


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


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


def split_statements(sql: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit the open transaction)."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        if not pending and (not line.strip() or line.lstrip().startswith("--")):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement at the end of a migration: {pending.strip()[:80]!r}")
    return statements


def load_migrations() -> list[Migration]:
    """Numbered migrations from ``storage/migrations``, checked to run 1, 2, 3... without gaps."""
    folder = resources.files("storage") / "migrations"
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"storage migrations must be numbered 1, 2, 3... without gaps, found {numbers}")
    return found


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
    """Apply pending migrations, each in its own transaction with its version number.

    Foreign keys are off while migrations run (SQLite's procedure for rebuilding
    a table others refer to) and checked before each migration commits.
    """
    migrations = load_migrations()
    supported = migrations[-1].number if migrations else 0
    if current > supported:
        raise too_new(path, current, supported)
    if any(m.number > current for m in migrations):
        await conn.execute("PRAGMA foreign_keys = OFF")
        try:
            current = await _apply(conn, path, migrations, current, supported)
        finally:
            await conn.execute("PRAGMA foreign_keys = ON")
    return current


async def _apply(
    conn: aiosqlite.Connection, path: str, migrations: list[Migration], current: int, supported: int
) -> int:
    for migration in migrations:
        if migration.number <= current:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            current = await _number(conn, "PRAGMA user_version")
            if current > supported:
                raise too_new(path, current, supported)
            if migration.number > current:
                for statement in migration.statements():
                    await conn.execute(statement)
                async with conn.execute("PRAGMA foreign_key_check") as cursor:
                    broken = list(await cursor.fetchall())
                if broken:
                    raise unusable(path, "unusable", f"{migration.name} breaks foreign keys: {broken[:3]}")
                # Integers from our own file names, never user input.
                await conn.execute(f"PRAGMA user_version = {migration.number:d}")
                await conn.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
                current = migration.number
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
    return current


def too_new(path: str, found: int, supported: int) -> DatabaseTooNew:
    return DatabaseTooNew(
        f"Cannot use the database {path!r}: its schema version is {found}, but this code knows versions "
        f"up to {supported} only. It was written by a newer Boulanger; run that version (the database "
        "is never downgraded).",
        path=path,
        found=found,
        supported=supported,
    )


async def _scalar(conn: aiosqlite.Connection, sql: str) -> object:
    async with conn.execute(sql) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def _number(conn: aiosqlite.Connection, sql: str) -> int:
    """An integer pragma or count (0 when SQLite answers nothing)."""
    value = await _scalar(conn, sql)
    return value if isinstance(value, int) else 0
