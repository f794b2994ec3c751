"""Boulanger's persistence: games, score history, daily challenges, leaderboards.

    import storage
    store = await storage.open_store("boulanger.db")
    game = await store.create_game("bakers", code, owner_id, guild_id, channel_id, variant="4")
    game = await store.append_move(game.id, game.version, "3h", score=10, move_count=1)

The bot codes against ``storage.store.Store`` (every operation, written once,
with its checks) and ``storage.interface`` (row types and errors). Under the
front, one database answers: SQLite (``storage.sqlite``, the embedded default:
``open_store("path/to/file.sqlite3")``) or PostgreSQL (``storage.postgres``:
``open_store("postgresql://user@host/db")``), each only its SQL.
"""

from __future__ import annotations

from typing import Any

from storage.interface import (
    DECKS,
    FINISHED_STATUSES,
    MAX_ACTION_LENGTH,
    MAX_RACE_PLAYERS,
    SOURCES,
    UNCHANGED,
    ActiveGameExists,
    DailyPost,
    DatabaseBusy,
    DatabaseTooNew,
    DatabaseUnusable,
    Deck,
    FinishedGame,
    GameNotActive,
    GameNotFound,
    GameRow,
    GuildSettings,
    InvalidValue,
    JoinOutcome,
    LeaderboardEntry,
    PlayerStats,
    RaceNotFound,
    RacePlayer,
    RaceRecord,
    RaceRow,
    Source,
    StorageError,
    UserChoices,
    VersionConflict,
)
from storage.store import Store

# Used when the configuration names no database file.
DEFAULT_DB_PATH = "boulanger.db"


async def open_store(path: str = DEFAULT_DB_PATH, **options: Any) -> Store:
    """Open (creating if needed) and migrate the database at ``path``: a SQLite file, or a
    ``postgresql://`` (or ``postgres://``) URL for PostgreSQL.

    Raises ``DatabaseUnusable`` (or its subclass ``DatabaseTooNew``) with a clear
    message when the database cannot be used; it never modifies such a database.
    ``options`` go to ``SqliteStore.open`` (e.g. ``synchronous``) or to
    ``PostgresStore.open`` (e.g. ``max_size`` of the pool); both take ``clock``.
    """
    path = str(path)
    if path.startswith(("postgresql://", "postgres://")):
        from storage.postgres.store import PostgresStore

        return await PostgresStore.open(path, **options)
    if "://" in path:
        scheme = path.split("://", 1)[0]
        raise DatabaseUnusable(
            f"Cannot use the database {scheme}://...: only postgresql:// URLs and SQLite file paths "
            "are supported.",
            path=f"{scheme}://...",
            reason="unusable",
        )
    from storage.sqlite.store import SqliteStore

    return await SqliteStore.open(path, **options)


__all__ = [
    "DECKS",
    "DEFAULT_DB_PATH",
    "FINISHED_STATUSES",
    "MAX_ACTION_LENGTH",
    "MAX_RACE_PLAYERS",
    "SOURCES",
    "UNCHANGED",
    "ActiveGameExists",
    "DailyPost",
    "DatabaseBusy",
    "DatabaseTooNew",
    "DatabaseUnusable",
    "Deck",
    "FinishedGame",
    "GameNotActive",
    "GameNotFound",
    "GameRow",
    "GuildSettings",
    "InvalidValue",
    "JoinOutcome",
    "LeaderboardEntry",
    "PlayerStats",
    "RaceNotFound",
    "RacePlayer",
    "RaceRecord",
    "RaceRow",
    "Source",
    "StorageError",
    "Store",
    "UserChoices",
    "VersionConflict",
    "open_store",
]
