"""``python -m bot migrate``: apply the pending migrations; ``--status`` lists them, ``--check``
exits 1 when any is pending (for a deploy script: "is this database up to date for this code?").

The bot migrates by itself at start-up too (``storage.migrator``: one process at a time, the
others wait for its lock); this lets an operator do it first, on purpose, and see what it did.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from pathlib import Path

import storage
from bot.running.config import Config
from storage import migrator

log = logging.getLogger(__name__)

EXIT_PENDING = 1


async def schema_version(config: Config) -> tuple[str, int | None]:
    """(dialect, the database's schema version); None when there is no database yet."""
    if config.database_url:
        import asyncpg

        from storage.postgres.opening import _version

        pg = await asyncpg.connect(config.database_url, timeout=10)
        try:
            return "postgres", await _version(pg)  # type: ignore[arg-type]  # a connection, not a pool's
        finally:
            await pg.close()
    path = Path(config.db_path)
    if not path.is_file():
        return "sqlite", None
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        return "sqlite", int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def status_lines(dialect: str, version: int | None) -> tuple[list[str], int]:
    """The lines ``--status`` prints, and how many migrations are pending."""
    migrations = migrator.load(dialect)
    current = version or 0
    lines = [f"{'applied' if m.number <= current else 'pending'}  {m.name}" for m in migrations]
    latest = migrations[-1].number if migrations else 0
    pending = sum(1 for m in migrations if m.number > current)
    if version is None:
        lines.append(f"no database yet: all {pending} migrations will be applied when it is created")
    elif current > latest:
        lines.append(f"the database (version {current}) is newer than this code (version {latest})")
    else:
        lines.append(f"schema version {current} of {latest}: {pending} pending")
    return lines, pending


def main(args: list[str], config: Config) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot migrate", description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--status", action="store_true", help="list applied and pending migrations")
    mode.add_argument("--check", action="store_true", help="exit 1 when a migration is pending")
    ns = parser.parse_args(args)
    if ns.status or ns.check:
        dialect, version = asyncio.run(schema_version(config))
        lines, pending = status_lines(dialect, version)
        if ns.status:
            print("\n".join(lines))
        elif pending:
            print(lines[-1], file=sys.stderr)
        latest = len(migrator.load(dialect))
        return EXIT_PENDING if pending or (version or 0) > latest else 0
    return asyncio.run(_apply(config))


async def _apply(config: Config) -> int:
    """Open the store (which migrates it, logging each migration), then close it."""
    if config.database_url:
        store = await storage.open_store(config.database_url)
    else:
        from storage.sqlite.files import prepare, tighten

        path = str(config.db_path)
        config.db_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        prepare(path, init=config.init_db)  # never starts over a lost database silently
        store = await storage.open_store(path)
        tighten(path)
    await store.close()
    log.info("the database is up to date")
    return 0
