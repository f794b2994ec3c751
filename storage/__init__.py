"""Boulanger's persistence: games, score history, daily challenges, leaderboards.

    import storage
    store = await storage.open_store("boulanger.db")
    game = await store.create_game("bakers", code, owner_id, guild_id, channel_id, cells=4)
    game = await store.append_move(game.id, game.version, "3h", score=10, move_count=1)

The bot codes against ``storage.interface`` (the ``Store`` protocol, row types
and errors); SQLite specifics stay in ``storage.sqlite``.
"""

from __future__ import annotations

from typing import Any

from storage.interface import (
    FINISHED_STATUSES,
    MAX_ACTION_LENGTH,
    UNCHANGED,
    ActiveGameExists,
    DailyPost,
    DatabaseBusy,
    DatabaseTooNew,
    DatabaseUnusable,
    FinishedGame,
    GameNotActive,
    GameNotFound,
    GameRow,
    GuildSettings,
    InvalidValue,
    LeaderboardEntry,
    PlayerStats,
    StorageError,
    Store,
    VersionConflict,
)

# Used when the configuration names no database file.
DEFAULT_DB_PATH = "boulanger.db"


async def open_store(path: str = DEFAULT_DB_PATH, **options: Any) -> Store:
    """Open (creating if needed) and migrate the database at ``path``.

    Raises ``DatabaseUnusable`` (or its subclass ``DatabaseTooNew``) with a clear
    message when the file cannot be used; it never modifies such a file.
    ``options`` go to ``storage.sqlite.SqliteStore.open`` (e.g. ``synchronous``).
    """
    from storage.sqlite import SqliteStore

    return await SqliteStore.open(path, **options)


__all__ = [
    "DEFAULT_DB_PATH",
    "FINISHED_STATUSES",
    "MAX_ACTION_LENGTH",
    "UNCHANGED",
    "ActiveGameExists",
    "DailyPost",
    "DatabaseBusy",
    "DatabaseTooNew",
    "DatabaseUnusable",
    "FinishedGame",
    "GameNotActive",
    "GameNotFound",
    "GameRow",
    "GuildSettings",
    "InvalidValue",
    "LeaderboardEntry",
    "PlayerStats",
    "StorageError",
    "Store",
    "VersionConflict",
    "open_store",
]
