"""SQLite's way of storing values: times as UTC milliseconds, dates as ISO text; its errors.

Which column is which lives in ``storage.rows`` (shared with every backend);
this module adds SQLite's encodings and binds the row mappers to them.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from typing import Any, overload

from storage import rows
from storage.interface import DailyPost, DatabaseBusy, FinishedGame, GameRow, StorageError
from storage.rows import (
    ALL_VARIANTS,
    GAME_COLUMNS,
    GUILD_COLUMNS,
    POST_COLUMNS,
    RANK_ORDER,
    RESULT_COLUMNS,
    guild_row,
    prefixed,
    summary_keys,
)
from storage.sqlite.opening import classify

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
MS = dt.timedelta(milliseconds=1)

# In an upsert of player_bests: is the new result better than the stored best?
BETTER = "(excluded.rank_key, excluded.finished_at, excluded.game_id) < (rank_key, finished_at, game_id)"


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


DECODE = rows.Decoding(moment=from_ms, day=dt.date.fromisoformat)
ENCODE = rows.Encoding(moment=to_ms, day=dt.date.isoformat, flag=int)


def game_row(row: Sequence[Any]) -> GameRow:
    return rows.game_row(row, DECODE)


def result_row(row: Sequence[Any]) -> FinishedGame:
    return rows.result_row(row, DECODE)


def post_row(row: Sequence[Any]) -> DailyPost:
    return rows.post_row(row, DECODE)


SUMMARY_WHERE = "b.scope = ? AND b.scope_id = ? AND b.kind = ? AND b.variant = ? AND b.source = ?"


def summary_params(kind: str, channel_id: int | None, guild_id: int | None, variant: str | None) -> list[Any]:
    """The main board's summaries: ``stock`` games only."""
    scope, scope_id, variant_key = rows.summary_scope(channel_id, guild_id, variant)
    return [scope, scope_id, kind, variant_key, rows.MAIN_SOURCE]


def operational_error(error: sqlite3.Error) -> StorageError:
    """The storage error for a SQLite error; it keeps that error as its cause (``sqlite_errorname``
    says what failed: disk full, locked, corrupt), also when it is handed on rather than raised."""
    failure = (
        DatabaseBusy(f"the database stayed locked by another writer: {error}")
        if classify(error) == "locked"
        else StorageError(f"database error: {error}")
    )
    failure.__cause__ = error
    return failure


__all__ = [
    "ALL_VARIANTS",
    "BETTER",
    "DECODE",
    "ENCODE",
    "GAME_COLUMNS",
    "GUILD_COLUMNS",
    "MS",
    "POST_COLUMNS",
    "RANK_ORDER",
    "RESULT_COLUMNS",
    "SUMMARY_WHERE",
    "from_ms",
    "game_row",
    "guild_row",
    "iso",
    "operational_error",
    "parse_date",
    "post_row",
    "prefixed",
    "result_row",
    "summary_keys",
    "summary_params",
    "to_ms",
    "utc_now",
]
