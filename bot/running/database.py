"""The bot's database: opened with the file checks, and the bot stopped when the file is lost.

If the database file is unlinked, replaced, truncated or loses its ``-wal`` while the
bot runs, or the database (SQLite or PostgreSQL) no longer holds the last game row this
process wrote, storage refuses every write from then on (``DatabaseUnusable``):
the player whose move it was is told (``bot.adapter.errors``), this module logs why and
closes the bot, and ``python -m bot`` exits with status 3 (a supervisor's
restart then refuses to start over an empty database: ``storage.sqlite.files``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

import storage
from bot.running.config import Config
from storage.sqlite import SqliteStore
from storage.sqlite.files import mark_closed, mark_open, prepare, tighten

log = logging.getLogger(__name__)

EXIT_DATABASE = 3
# Time for the replies already under way (the player's "not saved") before the bot closes.
CLOSE_AFTER = 1.0
# How often the file is checked while nothing is written.
WATCH_SECONDS = 10.0
_tasks: set[asyncio.Task[None]] = set()


class Stoppable(Protocol):
    """What this module needs of the bot (``BoulangerBot``): its settings, and a way to stop it."""

    config: Config
    exit_code: int

    def is_closed(self) -> bool: ...

    async def close(self) -> None: ...


async def open_store(bot: Stoppable) -> storage.Store:
    if bot.config.database_url:  # BOULANGER_DATABASE_URL: a PostgreSQL server, not a file to watch
        store = await storage.open_store(bot.config.database_url)
        log.info("database: %s", store.path)  # the password redacted
        store.tell_when_lost(lambda error: stop(bot, error))
        return store
    path = str(bot.config.db_path)  # absolute (bot.config)
    log.info("database: %s", path)
    bot.config.db_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    prepare(path, init=bot.config.init_db)
    store = await storage.open_store(path)
    tighten(path)  # the -wal and -shm SQLite just created (they take the database's mode anyway)
    store.tell_when_lost(lambda error: stop(bot, error))
    if isinstance(store, SqliteStore):
        mark_open(path)  # from now on its -wal holds saved moves: a start without it is refused
        _keep(asyncio.create_task(_watch(bot, store), name="database-watch"))
    return store


async def close_store(store: storage.Store) -> None:
    """Close cleanly; the marker then says so (once the -wal is gone) unless the file was lost."""
    lost = isinstance(store, SqliteStore) and _was_lost(store)  # before: closing removes the -wal
    await store.close()
    if isinstance(store, SqliteStore) and not lost:
        mark_closed(store.path)


def _was_lost(store: SqliteStore) -> bool:
    try:
        store.check_file()
    except storage.DatabaseUnusable:
        return True
    return False


def stop(bot: Stoppable, error: storage.DatabaseUnusable) -> None:
    """The database is gone: say so, acknowledge nothing more, and close with ``EXIT_DATABASE``."""
    if bot.exit_code:
        return
    bot.exit_code = EXIT_DATABASE
    log.critical("%s No move is acknowledged any more; the bot stops (exit status %d).", error, EXIT_DATABASE)
    loop = asyncio.get_running_loop()
    loop.call_later(CLOSE_AFTER, lambda: _keep(loop.create_task(bot.close())))


def _keep(task: asyncio.Task[None]) -> None:
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _watch(bot: Stoppable, store: SqliteStore) -> None:
    """Notice a lost file even while nobody plays (the next write would notice it anyway)."""
    while not bot.is_closed():
        await asyncio.sleep(WATCH_SECONDS)
        try:
            store.check_file()
        except storage.DatabaseUnusable:
            return
