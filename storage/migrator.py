"""Schema migrations for every backend, from one place: numbered SQL files per dialect.

    storage/migrations/0001_init.sql ...             SQLite
    storage/migrations/postgres/0001_init.sql ...    PostgreSQL

Each dialect's files are numbered 1, 2, 3... without gaps and applied in
order, each in its own transaction together with the new version number, by
``apply`` below; a backend only says how to lock, read and record the
version (SQLite: ``BEGIN IMMEDIATE`` and ``PRAGMA user_version``;
PostgreSQL: an advisory lock and the ``boulanger_schema`` table). A database
newer than the code is refused, never downgraded. The numbering is per
dialect (a change may need a migration on one backend only, as SQLite's
table rebuild in its 0005 did).

Why not Alembic: it would bring SQLAlchemy and its own version table,
environment script and revision graph to a project that writes plain SQL
through two thin drivers, and its autogenerate compares ORM models we do not
have. What is needed here - ordered scripts, one transaction each, a version
number, refusing a newer schema, concurrent starters not both migrating - is
the fifty lines below, and the migrations stay plain SQL files a reviewer or
a DBA can read and run by hand.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from typing import Protocol

from storage.interface import DatabaseTooNew

# A line in a migration with a Python step (``storage.upgrade``): the step runs there.
STEP_HERE = "-- migrator: python step here"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
FOLDERS = {"sqlite": ("migrations",), "postgres": ("migrations", "postgres")}


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The script as single statements (SQLite runs one statement per call)."""
        return split_statements(self.sql)

    def parts(self) -> tuple[str, str]:
        """The script before and after its Python step's place (``STEP_HERE``; by default the
        end): a step that rewrites many rows may run before the indexes that would slow it."""
        before, _, after = self.sql.partition(STEP_HERE)
        return before, after


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


def load(dialect: str) -> list[Migration]:
    """One dialect's numbered migrations, checked to run 1, 2, 3... without gaps."""
    folder = resources.files("storage")
    for part in FOLDERS[dialect]:
        folder = folder / part
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match and entry.is_file():
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} migrations must be numbered 1, 2, 3... without gaps, found {numbers}")
    return found


def too_new(where: str, found: int, supported: int) -> DatabaseTooNew:
    """The refusal of a database whose schema is newer than this code (never downgraded)."""
    return DatabaseTooNew(
        f"Cannot use the database {where!r}: its schema version is {found}, but this code knows versions "
        f"up to {supported} only. It was written by a newer Boulanger; run that version (the database "
        "is never downgraded).",
        path=where,
        found=found,
        supported=supported,
    )


class Target(Protocol):
    """One database being migrated: a transaction holding the migration lock at a time."""

    async def begin(self, migration: Migration) -> int:
        """Start a transaction for ``migration`` that keeps other migrators out; the schema version now."""
        ...

    async def apply_one(self, migration: Migration) -> None:
        """Apply the migration's SQL and record its number as the version, inside the transaction."""
        ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...


async def apply(target: Target, migrations: list[Migration], current: int, where: str) -> int:
    """Apply the migrations above ``current``, each in its own transaction; the version reached.

    The version is read again under the lock, since another process may have
    migrated meanwhile; a schema newer than the code is refused with
    ``DatabaseTooNew`` naming ``where``.
    """
    supported = migrations[-1].number if migrations else 0
    if current > supported:
        raise too_new(where, current, supported)
    for migration in migrations:
        if migration.number <= current:
            continue
        current = await target.begin(migration)
        try:
            if current > supported:
                raise too_new(where, current, supported)
            if migration.number > current:
                await target.apply_one(migration)
                current = migration.number
            await target.commit()
        except BaseException:
            await target.rollback()
            raise
    return current
