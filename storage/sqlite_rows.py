"""SQLite rows to the interface's dataclasses and back: columns, times, dates, summary keys."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from typing import Any, overload

from storage.interface import (
    DailyPost,
    DatabaseBusy,
    FinishedGame,
    GameRow,
    GuildSettings,
    StorageError,
)
from storage.sqlite_open import classify

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
MS = dt.timedelta(milliseconds=1)

GAME_COLUMNS = (
    "id, kind, code, cells, owner_id, guild_id, channel_id, message_id, moves, status, score, "
    "move_count, started_at, updated_at, finished_at, daily_date, version"
)
RESULT_COLUMNS = (
    "game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, move_count, "
    "finished_at, daily_date, counts_for_daily"
)
GUILD_COLUMNS = "guild_id, daily_channel_id, post_minute, language, daily_disabled"
POST_COLUMNS = "guild_id, date, channel_id, message_id, claimed_at, posted_at"
RANK_ORDER = "rank_key, finished_at, game_id"
# In an upsert of player_bests: is the new result better than the stored best?
BETTER = "(excluded.rank_key, excluded.finished_at, excluded.game_id) < (rank_key, finished_at, game_id)"
ALL_CELLS = -1


def summary_keys(game: GameRow) -> list[tuple[str, int, int]]:
    """The (scope, scope_id, cells) rows of player_bests a finished game counts in."""
    scopes = [("p", 0)]
    if game.guild_id is not None:
        scopes.append(("g", game.guild_id))
    if game.channel_id is not None:
        scopes.append(("c", game.channel_id))
    cell_keys = [ALL_CELLS] if game.cells is None else [ALL_CELLS, game.cells]
    return [(scope, scope_id, cells) for scope, scope_id in scopes for cells in cell_keys]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def to_ms(moment: dt.datetime) -> int:
    return (moment - _EPOCH) // MS


@overload
def from_ms(value: int) -> dt.datetime: ...
@overload
def from_ms(value: int | None) -> dt.datetime | None: ...
def from_ms(value: int | None) -> dt.datetime | None:
    return None if value is None else _EPOCH + value * MS


@overload
def parse_date(value: str) -> dt.date: ...
@overload
def parse_date(value: str | None) -> dt.date | None: ...
def parse_date(value: str | None) -> dt.date | None:
    return None if value is None else dt.date.fromisoformat(value)


def iso(value: dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


def game_row(row: Sequence[Any]) -> GameRow:
    return GameRow(
        id=row[0],
        kind=row[1],
        code=row[2],
        cells=row[3],
        owner_id=row[4],
        guild_id=row[5],
        channel_id=row[6],
        message_id=row[7],
        moves=tuple(row[8].split(" ")) if row[8] else (),
        status=row[9],
        score=row[10],
        move_count=row[11],
        started_at=from_ms(row[12]),
        updated_at=from_ms(row[13]),
        finished_at=from_ms(row[14]),
        daily_date=parse_date(row[15]),
        version=row[16],
    )


def result_row(row: Sequence[Any]) -> FinishedGame:
    return FinishedGame(
        game_id=row[0],
        kind=row[1],
        code=row[2],
        cells=row[3],
        user_id=row[4],
        guild_id=row[5],
        channel_id=row[6],
        status=row[7],
        score=row[8],
        move_count=row[9],
        finished_at=from_ms(row[10]),
        daily_date=parse_date(row[11]),
        counts_for_daily=bool(row[12]),
    )


def guild_row(row: Sequence[Any]) -> GuildSettings:
    return GuildSettings(
        guild_id=row[0], daily_channel_id=row[1], post_minute=row[2], language=row[3], daily_disabled=row[4]
    )


def post_row(row: Sequence[Any]) -> DailyPost:
    return DailyPost(
        guild_id=row[0],
        date=parse_date(row[1]),
        channel_id=row[2],
        message_id=row[3],
        claimed_at=from_ms(row[4]),
        posted_at=from_ms(row[5]),
    )


def prefixed(alias: str, columns: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


SUMMARY_WHERE = "b.scope = ? AND b.scope_id = ? AND b.kind = ? AND b.cells = ?"


def summary_params(kind: str, channel_id: int | None, guild_id: int | None, cells: int | None) -> list[Any]:
    scope = ("c", channel_id) if channel_id is not None else ("g", guild_id)
    return [*scope, kind, ALL_CELLS if cells is None else cells]


def operational_error(error: sqlite3.Error) -> StorageError:
    if classify(error) == "locked":
        return DatabaseBusy(f"the database stayed locked by another writer: {error}")
    return StorageError(f"database error: {error}")
