"""Connecting to PostgreSQL safely: the URL, the pool, clear refusals, migrations.

Like ``storage.sqlite.opening``, a database that cannot be used is refused with
``DatabaseUnusable`` (a message saying what is wrong and what to do) before
anything is written to it: a server that does not answer, a refused login,
a read-only standby, a schema holding another application's tables, or a
schema written by newer code (``DatabaseTooNew``). Nothing here drops or
rewrites a table.

The URL is libpq's (``postgresql://user:password@host:port/database``);
query parameters asyncpg does not know become session settings, so
``?search_path=boulanger`` keeps the tables in a schema of their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import asyncpg

from storage import migrator, upgrade
from storage.interface import DatabaseUnusable
from storage.migrator import Migration, split_statements

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    # What the pool hands out (annotations only: the runtime class is not subscriptable).
    Conn: TypeAlias = PoolConnectionProxy[asyncpg.Record]

SCHEMES = ("postgresql://", "postgres://")
# Key of the advisory lock migrators take (with the schema's hash): "Boul", as SQLite's application_id.
LOCK_KEY = 0x426F756C
VERSION_TABLE = "boulanger_schema"
# Session settings unless the URL sets them: a lock held this long means "busy", as SQLite's busy timeout.
DEFAULT_SETTINGS = {"lock_timeout": "5s", "application_name": "boulanger"}

_ADVICE = {
    "schema_lost": "its tables are gone while the bot was using it (DROP SCHEMA, a wiped database?); "
    "nothing since then was saved. Restore it from a backup, then start the bot again",
    "rows_lost": "it no longer holds what this process wrote to it (a game row is missing or older: "
    "an older dump restored?); nothing since then was saved. Check which copy is the right one, "
    "then start the bot again",
    "unreachable": "the server does not answer: check the host and port in the URL and that PostgreSQL "
    "is running",
    "refused": "the server refused the login: check the user, password and database name in the URL",
    "readonly": "the server only accepts reads (a standby?): point the URL at the primary server",
    "foreign": "its schema already holds tables of another application. Use another database, or a "
    "schema of its own (?search_path=boulanger, created first with CREATE SCHEMA)",
    "no_schema": "the search_path names no schema that exists: create it first (CREATE SCHEMA ...)",
    "unusable": "it cannot be used",
}


def is_url(target: str) -> bool:
    return target.startswith(SCHEMES)


def redact(url: str) -> str:
    """The URL without its password, for messages and ``store.path``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


def unusable(where: str, reason: str, detail: str = "") -> DatabaseUnusable:
    suffix = f" ({detail})" if detail else ""
    return DatabaseUnusable(
        f"Cannot use the database {where!r}: {_ADVICE[reason]}{suffix}.", path=where, reason=reason
    )


def classify(error: BaseException) -> str:
    """The ``DatabaseUnusable.reason`` for an error met while connecting or migrating."""
    if isinstance(
        error,
        asyncpg.InvalidAuthorizationSpecificationError
        | asyncpg.InvalidCatalogNameError
        | asyncpg.InsufficientPrivilegeError,
    ):
        return "refused"
    if isinstance(error, asyncpg.ReadOnlySQLTransactionError):
        return "readonly"
    if isinstance(error, asyncpg.InvalidSchemaNameError):
        return "no_schema"
    if isinstance(
        error,
        OSError
        | TimeoutError
        | asyncpg.PostgresConnectionError
        | asyncpg.CannotConnectNowError
        | asyncpg.TooManyConnectionsError
        | asyncpg.InterfaceError,
    ):
        return "unreachable"
    return "unusable"


def load_migrations() -> list[Migration]:
    """PostgreSQL's numbered migrations (``storage/migrations/postgres/*.sql``)."""
    return migrator.load("postgres")


async def open_pool(url: str, *, min_size: int, max_size: int, timeout: float) -> asyncpg.Pool:
    """A pool of connections, every one with ``DEFAULT_SETTINGS`` unless the URL says otherwise."""
    given = {key for key, _ in parse_qsl(urlsplit(url).query)}
    settings = {key: value for key, value in DEFAULT_SETTINGS.items() if key not in given}
    pool = await asyncio.wait_for(
        asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, timeout=timeout, server_settings=settings
        ),
        timeout * 2,
    )
    assert pool is not None  # create_pool returns None only when told not to initialise
    return pool


async def prepare(conn: Conn, where: str) -> int:
    """Refuse a schema that is not ours or is too new, then migrate it; the version reached."""
    schema = await conn.fetchval("SELECT current_schema()")
    if schema is None:
        raise unusable(where, "no_schema", f"search_path is {await conn.fetchval('SHOW search_path')}")
    current = await _version(conn)
    if current is None:
        tables = await conn.fetchval(
            "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
        )
        if tables:
            raise unusable(where, "foreign", f"schema {schema!r} has {tables} tables and no {VERSION_TABLE}")
        current = 0
    migrations = load_migrations()
    return await migrator.apply(_Target(conn), migrations, current, where)


async def _version(conn: Conn) -> int | None:
    """The schema version, or None when this schema has no version table at all."""
    if await conn.fetchval("SELECT to_regclass($1) IS NULL", VERSION_TABLE):
        return None
    value = await conn.fetchval(f"SELECT coalesce(max(version), 0) FROM {VERSION_TABLE}")
    return int(value)


class _Target:
    """``migrator.Target`` on PostgreSQL: an advisory lock per schema, a version table.

    DDL is transactional on PostgreSQL, so a failing migration leaves nothing behind.
    """

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    async def begin(self, migration: Migration) -> int:
        await self.conn.execute("BEGIN")
        await self.conn.execute("SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))", LOCK_KEY)
        await self.conn.execute(
            f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version integer PRIMARY KEY, "
            "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        return await _version(self.conn) or 0

    async def apply_one(self, migration: Migration) -> None:
        head, tail = migration.parts()
        if split_statements(head):  # a script of comments only is no statement to PostgreSQL
            await self.conn.execute(head)  # a whole script: no parameters, one round trip
        step = upgrade.step_for(migration.name)
        if step is not None:
            await step(_Sql(self.conn))
        if split_statements(tail):
            await self.conn.execute(tail)
        await self.conn.execute(
            f"INSERT INTO {VERSION_TABLE} (version, name) VALUES ($1, $2)", migration.number, migration.name
        )

    async def commit(self) -> None:
        await self.conn.execute("COMMIT")

    async def rollback(self) -> None:
        if self.conn.is_in_transaction():
            await self.conn.execute("ROLLBACK")


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2...`` (the upgrade steps' SQL has no other ``?``)."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))


class _Sql:
    """``upgrade.Sql`` on the migrating connection."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    async def rows(self, sql: str, *params: Any) -> Sequence[Sequence[Any]]:
        return [tuple(record) for record in await self.conn.fetch(numbered(sql), *params)]

    async def many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(numbered(sql), params)

    async def run(self, sql: str) -> None:
        await self.conn.execute(sql)
