"""The ``Store`` on SQLite through aiosqlite: one connection, one lock, short transactions.

Durability: WAL journal with ``synchronous=FULL`` by default, so every commit
is fsynced to the WAL before the call returns: an acknowledged move survives a
killed process *and* a power cut. (NORMAL would survive a killed process but
could lose the last commits on power loss; it is an option for benchmarks.)

Concurrency: every write is a ``BEGIN IMMEDIATE`` transaction (one writer at a
time across processes, waiting up to ``busy_timeout``); changes to a game
carry the version the caller saw and touch the row only if it still has it,
so a stale writer gets ``VersionConflict`` instead of overwriting. Within one
process an ``asyncio.Lock`` keeps tasks from interleaving statements on the
shared connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiosqlite

from storage import ranking
from storage import validate as v
from storage.interface import (
    UNCHANGED,
    ActiveGameExists,
    DailyPost,
    DatabaseBusy,
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
    VersionConflict,
    _Unchanged,
)
from storage.sqlite_open import (
    MEMORY,
    check_path,
    classify,
    configure,
    load_migrations,
    migrate,
    read_header,
    too_new,
    unusable,
)

Clock = Callable[[], dt.datetime]
T = TypeVar("T")
# (the caller's future, its result, or the error to raise instead)
Outcome = tuple["asyncio.Future[Any]", Any, "BaseException | None"]

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MS = dt.timedelta(milliseconds=1)

GAME_COLUMNS = (
    "id, kind, code, cells, owner_id, guild_id, channel_id, message_id, moves, status, score, "
    "move_count, started_at, updated_at, finished_at, daily_date, version"
)
RESULT_COLUMNS = (
    "game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, move_count, "
    "finished_at, daily_date, counts_for_daily"
)
GUILD_COLUMNS = "guild_id, daily_channel_id, post_minute, language"
POST_COLUMNS = "guild_id, date, channel_id, message_id, claimed_at, posted_at"
RANK_ORDER = "rank_key, finished_at, game_id"
# In an upsert of player_bests: is the new result better than the stored best?
_BETTER = "(excluded.rank_key, excluded.finished_at, excluded.game_id) < (rank_key, finished_at, game_id)"
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
    return (moment - _EPOCH) // _MS


def from_ms(value: int | None) -> dt.datetime | None:
    return None if value is None else _EPOCH + value * _MS


def _date(value: str | None) -> dt.date | None:
    return None if value is None else dt.date.fromisoformat(value)


def _iso(value: dt.date | None) -> str | None:
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
        started_at=from_ms(row[12]),  # type: ignore[arg-type]
        updated_at=from_ms(row[13]),  # type: ignore[arg-type]
        finished_at=from_ms(row[14]),
        daily_date=_date(row[15]),
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
        finished_at=from_ms(row[10]),  # type: ignore[arg-type]
        daily_date=_date(row[11]),
        counts_for_daily=bool(row[12]),
    )


def _guild_row(row: Sequence[Any]) -> GuildSettings:
    return GuildSettings(guild_id=row[0], daily_channel_id=row[1], post_minute=row[2], language=row[3])


def _post_row(row: Sequence[Any]) -> DailyPost:
    return DailyPost(
        guild_id=row[0],
        date=_date(row[1]),  # type: ignore[arg-type]
        channel_id=row[2],
        message_id=row[3],
        claimed_at=from_ms(row[4]),  # type: ignore[arg-type]
        posted_at=from_ms(row[5]),
    )


def _prefixed(alias: str, columns: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


SUMMARY_WHERE = "b.scope = ? AND b.scope_id = ? AND b.kind = ? AND b.cells = ?"


def _summary_params(kind: str, channel_id: int | None, guild_id: int | None, cells: int | None) -> list[Any]:
    scope = ("c", channel_id) if channel_id is not None else ("g", guild_id)
    return [*scope, kind, ALL_CELLS if cells is None else cells]


def _operational_error(error: sqlite3.Error) -> StorageError:
    if classify(error) == "locked":
        return DatabaseBusy(f"the database stayed locked by another writer: {error}")
    return StorageError(f"database error: {error}")


class SqliteStore:
    """``storage.interface.Store`` on one SQLite file. Open with ``await SqliteStore.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        self._clock = clock
        self._random = random.SystemRandom()
        self._pending: list[tuple[Any, asyncio.Future[Any]]] = []
        self._drainer: asyncio.Task[None] | None = None
        self.path = path

    # -- lifecycle ----------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: str,
        *,
        synchronous: str = "FULL",
        busy_timeout: float = 5.0,
        check: bool = True,
        clock: Clock = utc_now,
    ) -> SqliteStore:
        """Open, check and migrate; ``DatabaseUnusable`` / ``DatabaseTooNew`` if the file can't be used.

        ``check`` runs SQLite's ``quick_check`` so a damaged file is reported at
        start-up rather than in the middle of a game.
        """
        path = str(path)
        check_path(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
        except sqlite3.Error as error:
            raise unusable(path, classify(error), str(error)) from error
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000):d}")
            version = await read_header(conn, path)
            supported = len(load_migrations())
            if version > supported:
                raise too_new(path, version, supported)
            if check and version:
                await _quick_check(conn, path)
            await configure(conn, path, synchronous)
            await migrate(conn, path, version)
        except DatabaseUnusable:
            await conn.close()
            raise
        except sqlite3.Error as error:
            await conn.close()
            raise unusable(path, classify(error), str(error)) from error
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, clock)

    async def close(self) -> None:
        """Finish the writes already submitted, then close the connection (twice is fine)."""
        while self._drainer is not None and not self._drainer.done():
            await asyncio.wait([self._drainer])
        if self._conn is not None:
            async with self._lock:
                conn, self._conn = self._conn, None
                if conn is not None:
                    await conn.close()

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _now(self) -> dt.datetime:
        return v.moment("the clock", self._clock())

    # -- transactions -------------------------------------------------------------
    @asynccontextmanager
    async def _transaction(self, *, write: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """One read (or unbatched write) transaction on the shared connection; rolled back on error."""
        async with self._lock:
            if self._conn is None:
                raise StorageError("the store is closed")
            conn = self._conn
            try:
                await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as error:
                raise _operational_error(error) from error
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException as error:
                # The transaction may already be gone (e.g. COMMIT failed after ending it).
                with contextlib.suppress(sqlite3.Error):
                    await conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise _operational_error(error) from error
                raise

    async def _write(self, op: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``op`` in a write transaction and return its result once that is durably committed.

        Group commit: writes that arrive while a commit is in progress are run
        together in the next transaction, each inside its own savepoint (a
        refused write - a version conflict, say - undoes only itself), and
        share one COMMIT and so one fsync. Nobody's call returns before the
        transaction holding their write is committed.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            async with self._lock:
                outcomes = await self._run_batch(batch)
            for future, value, error in outcomes:
                if future.done():
                    continue  # the caller was cancelled; its write still stands
                if error is None:
                    future.set_result(value)
                else:
                    future.set_exception(error)

    async def _run_batch(self, batch: list[tuple[Any, asyncio.Future[Any]]]) -> list[Outcome]:
        """One transaction for the whole batch; on a database error nobody in it is committed."""
        conn = self._conn
        if conn is None:
            return [(f, None, StorageError("the store is closed")) for _, f in batch]
        outcomes: list[Outcome] = []
        try:
            await conn.execute("BEGIN IMMEDIATE")
            for op, future in batch:
                await conn.execute("SAVEPOINT write")
                try:
                    value = await op(conn)
                except Exception as refused:
                    if isinstance(refused, sqlite3.Error) and not conn.in_transaction:
                        raise  # SQLite ended the whole transaction (I/O error, disk full...)
                    await conn.execute("ROLLBACK TO write")
                    if isinstance(refused, sqlite3.Error):
                        refused = _operational_error(refused)
                    outcomes.append((future, None, refused))
                else:
                    outcomes.append((future, value, None))
                await conn.execute("RELEASE write")
            await conn.execute("COMMIT")
        except BaseException as error:
            with contextlib.suppress(sqlite3.Error):
                await conn.execute("ROLLBACK")
            failure = _operational_error(error) if isinstance(error, sqlite3.Error) else error
            if not isinstance(failure, Exception):
                raise  # cancelled or exiting: the callers' futures are cancelled with the task
            return [(f, None, failure) for _, f in batch]
        return outcomes

    @staticmethod
    async def _all(conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _one(self, conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._all(conn, sql, params)
        return rows[0] if rows else None

    # -- games --------------------------------------------------------------------
    async def create_game(
        self,
        kind: str,
        code: str,
        owner_id: int,
        guild_id: int | None,
        channel_id: int | None,
        *,
        cells: int | None = None,
        daily_date: dt.date | None = None,
    ) -> GameRow:
        kind = v.kind(kind)
        checked_code = v.text("code", code)
        if not checked_code or not checked_code.strip():
            raise InvalidValue("code must not be empty")
        owner = v.snowflake("owner_id", owner_id)
        guild = v.snowflake("guild_id", guild_id, optional=True)
        channel = v.snowflake("channel_id", channel_id, optional=True)
        params = (kind, checked_code, v.cells(cells), owner, guild, channel)
        day = _iso(v.day("daily_date", daily_date, optional=True))
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> Any:
            existing = await self._one(
                conn,
                f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = ? AND kind = ? AND status = 'active'",
                (owner, kind),
            )
            if existing:
                raise ActiveGameExists(game_row(existing))
            row = await self._one(
                conn,
                "INSERT INTO games (kind, code, cells, owner_id, guild_id, channel_id, started_at, "
                f"updated_at, daily_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
                (*params, now, now, day),
            )
            return row

        row = await self._write(op)
        return game_row(row)

    async def get_game(self, game_id: int) -> GameRow:
        game_id = v.snowflake("game_id", game_id)  # type: ignore[assignment]
        async with self._transaction(write=False) as conn:
            row = await self._one(conn, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return game_row(row)

    async def active_game(self, owner_id: int, kind: str) -> GameRow | None:
        params = (v.snowflake("owner_id", owner_id), v.kind(kind))
        async with self._transaction(write=False) as conn:
            row = await self._one(
                conn,
                f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = ? AND kind = ? AND status = 'active'",
                params,
            )
        return None if row is None else game_row(row)

    async def active_games(self, owner_id: int) -> list[GameRow]:
        owner = v.snowflake("owner_id", owner_id)
        async with self._transaction(write=False) as conn:
            rows = await self._all(
                conn,
                f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = ? AND status = 'active' ORDER BY kind",
                (owner,),
            )
        return [game_row(r) for r in rows]

    async def append_move(
        self,
        game_id: int,
        expected_version: int,
        action: str,
        *,
        score: int,
        move_count: int,
        finish: str | None = None,
    ) -> GameRow:
        return await self.append_moves(
            game_id, expected_version, [action], score=score, move_count=move_count, finish=finish
        )

    async def append_moves(
        self,
        game_id: int,
        expected_version: int,
        actions: Sequence[str],
        *,
        score: int,
        move_count: int,
        finish: str | None = None,
    ) -> GameRow:
        game_id = v.snowflake("game_id", game_id)  # type: ignore[assignment]
        expected = v.count("expected_version", expected_version)
        joined = " ".join(v.actions(actions))
        score = v.count("score", score)
        move_count = v.count("move_count", move_count)
        status = "active" if finish is None else v.finished_status(finish)
        now = to_ms(self._now())
        finished_at = None if finish is None else now

        async def op(conn: aiosqlite.Connection) -> Any:
            row = await self._one(
                conn,
                "UPDATE games SET moves = CASE WHEN moves = '' THEN ? ELSE moves || ' ' || ? END, "
                "action_count = action_count + ?, score = ?, move_count = ?, status = ?, "
                "finished_at = ?, updated_at = ?, version = version + 1 "
                f"WHERE id = ? AND version = ? AND status = 'active' RETURNING {GAME_COLUMNS}",
                (
                    joined,
                    joined,
                    len(actions),
                    score,
                    move_count,
                    status,
                    finished_at,
                    now,
                    game_id,
                    expected,
                ),
            )
            if row is None:
                await self._refuse(conn, game_id, expected)
            game = game_row(row)
            if finish is not None:
                await self._record_result(conn, game)
            return game

        game = await self._write(op)
        return game

    async def finish_game(
        self, game_id: int, expected_version: int, status: str, *, score: int, move_count: int
    ) -> GameRow:
        game_id = v.snowflake("game_id", game_id)  # type: ignore[assignment]
        expected = v.count("expected_version", expected_version)
        status = v.finished_status(status)
        params = (status, v.count("score", score), v.count("move_count", move_count))
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> Any:
            row = await self._one(
                conn,
                "UPDATE games SET status = ?, score = ?, move_count = ?, finished_at = ?, updated_at = ?, "
                f"version = version + 1 WHERE id = ? AND version = ? AND status = 'active' "
                f"RETURNING {GAME_COLUMNS}",
                (*params, now, now, game_id, expected),
            )
            if row is None:
                await self._refuse(conn, game_id, expected)
            game = game_row(row)
            await self._record_result(conn, game)
            return game

        game = await self._write(op)
        return game

    async def _refuse(self, conn: aiosqlite.Connection, game_id: int, expected: int) -> None:
        """Say why a guarded update touched no row: unknown game, finished game or stale version."""
        row = await self._one(conn, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        current = game_row(row)
        if not current.is_active:
            raise GameNotActive(current)
        raise VersionConflict(expected, current)

    async def _record_result(self, conn: aiosqlite.Connection, game: GameRow) -> None:
        """The history row, in the transaction that finishes the game."""
        counts = 0
        if game.daily_date is not None:
            earlier = await self._one(
                conn,
                "SELECT 1 FROM results WHERE user_id = ? AND kind = ? AND daily_date = ? "
                "AND counts_for_daily = 1",
                (game.owner_id, game.kind, _iso(game.daily_date)),
            )
            counts = 0 if earlier else 1
        key = ranking.rank_key(game.kind, game.status, game.score, game.move_count)
        await conn.execute(
            f"INSERT INTO results ({RESULT_COLUMNS}, rank_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.id,
                game.kind,
                game.code,
                game.cells,
                game.owner_id,
                game.guild_id,
                game.channel_id,
                game.status,
                game.score,
                game.move_count,
                to_ms(game.finished_at),  # type: ignore[arg-type]
                _iso(game.daily_date),
                counts,
                key,
            ),
        )
        won = 1 if game.status == "won" else 0
        finished_at = to_ms(game.finished_at)  # type: ignore[arg-type]
        await conn.executemany(
            "INSERT INTO player_bests (scope, scope_id, kind, cells, user_id, played, won, rank_key, "
            "finished_at, game_id) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
            "ON CONFLICT (scope, scope_id, kind, cells, user_id) DO UPDATE SET "
            "played = played + 1, won = won + excluded.won, "
            f"rank_key = CASE WHEN {_BETTER} THEN excluded.rank_key ELSE rank_key END, "
            f"finished_at = CASE WHEN {_BETTER} THEN excluded.finished_at ELSE finished_at END, "
            f"game_id = CASE WHEN {_BETTER} THEN excluded.game_id ELSE game_id END",
            [
                (scope, scope_id, game.kind, cells, game.owner_id, won, key, finished_at, game.id)
                for scope, scope_id, cells in summary_keys(game)
            ],
        )

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> GameRow:
        game_id = v.snowflake("game_id", game_id)  # type: ignore[assignment]
        params = (
            v.snowflake("channel_id", channel_id, optional=True),
            v.snowflake("message_id", message_id, optional=True),
        )
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> Any:
            row = await self._one(
                conn,
                "UPDATE games SET channel_id = ?, message_id = ?, updated_at = ? WHERE id = ? "
                f"RETURNING {GAME_COLUMNS}",
                (*params, now, game_id),
            )
            return row

        row = await self._write(op)
        if row is None:
            raise GameNotFound(game_id)
        return game_row(row)

    async def get_result(self, game_id: int) -> FinishedGame | None:
        game_id = v.snowflake("game_id", game_id)  # type: ignore[assignment]
        async with self._transaction(write=False) as conn:
            row = await self._one(conn, f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ?", (game_id,))
        return None if row is None else result_row(row)

    # -- rankings -----------------------------------------------------------------
    def _scope(
        self,
        kind: str,
        channel_id: int | None,
        guild_id: int | None,
        period: str,
        cells: int | None,
        daily_date: dt.date | None,
        now: dt.datetime | None,
    ) -> tuple[str, list[Any]]:
        """WHERE clause and parameters selecting the results a leaderboard ranks."""
        if (channel_id is None) == (guild_id is None):
            raise InvalidValue("a leaderboard needs exactly one of channel_id and guild_id")
        clauses = ["kind = ?"]
        params: list[Any] = [v.kind(kind)]
        if channel_id is not None:
            clauses.append("channel_id = ?")
            params.append(v.snowflake("channel_id", channel_id))
        else:
            clauses.append("guild_id = ?")
            params.append(v.snowflake("guild_id", guild_id))
        if cells is not None:
            clauses.append("cells = ?")
            params.append(v.cells(cells))
        moment = self._now() if now is None else v.moment("now", now)
        if period == "week":
            clauses.append("finished_at >= ?")
            params.append(to_ms(ranking.week_start(moment)))
        elif period == "daily":
            day = v.day("daily_date", daily_date, optional=True) or moment.astimezone(dt.UTC).date()
            clauses.append("counts_for_daily = 1 AND daily_date = ?")
            params.append(day.isoformat())
        elif period != "all":
            raise InvalidValue(f"period must be all, week or daily, not {period!r:.80}")
        return " AND ".join(clauses), params

    async def leaderboard(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        period: str = "all",
        cells: int | None = None,
        daily_date: dt.date | None = None,
        now: dt.datetime | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderboardEntry]:
        where, params = self._scope(kind, channel_id, guild_id, period, cells, daily_date, now)
        limit, offset = v.page(limit, offset)
        if period == "all":
            # One page of the per-player summaries, in index order.
            sql = (
                f"SELECT {_prefixed('r', RESULT_COLUMNS)}, b.played, b.won FROM player_bests b "
                f"JOIN results r ON r.game_id = b.game_id WHERE {SUMMARY_WHERE} "
                "ORDER BY b.rank_key, b.finished_at, b.game_id LIMIT ? OFFSET ?"
            )
            params = _summary_params(kind, channel_id, guild_id, cells)
        else:
            # Each player's best in the period from a covering index, then the page's rows.
            sql = (
                "WITH ranked AS ("
                "  SELECT game_id, rank_key, finished_at,"
                f"   row_number() OVER (PARTITION BY user_id ORDER BY {RANK_ORDER}) AS n,"
                "    count(*) OVER (PARTITION BY user_id) AS played,"
                "    sum(status = 'won') OVER (PARTITION BY user_id) AS won"
                f"  FROM results WHERE {where}"
                "), page AS ("
                f"  SELECT game_id, played, won, rank_key, finished_at FROM ranked WHERE n = 1 ORDER BY {RANK_ORDER}"
                "   LIMIT ? OFFSET ?"
                f") SELECT {_prefixed('r', RESULT_COLUMNS)}, page.played, page.won FROM page "
                "JOIN results r ON r.game_id = page.game_id "
                "ORDER BY page.rank_key, page.finished_at, page.game_id"
            )
        async with self._transaction(write=False) as conn:
            rows = await self._all(conn, sql, (*params, limit, offset))
        return [
            LeaderboardEntry(
                rank=offset + i + 1, user_id=row[4], best=result_row(row), played=row[13], won=row[14]
            )
            for i, row in enumerate(rows)
        ]

    async def leaderboard_size(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        period: str = "all",
        cells: int | None = None,
        daily_date: dt.date | None = None,
        now: dt.datetime | None = None,
    ) -> int:
        where, params = self._scope(kind, channel_id, guild_id, period, cells, daily_date, now)
        if period == "all":
            sql = f"SELECT count(*) FROM player_bests b WHERE {SUMMARY_WHERE}"
            params = _summary_params(kind, channel_id, guild_id, cells)
        else:
            sql = f"SELECT count(DISTINCT user_id) FROM results WHERE {where}"
        async with self._transaction(write=False) as conn:
            row = await self._one(conn, sql, params)
        return int(row[0])

    async def player_stats(
        self, user_id: int, kind: str, *, guild_id: int | None = None, today: dt.date | None = None
    ) -> PlayerStats:
        user = v.snowflake("user_id", user_id)
        kind = v.kind(kind)
        scope = ("p", 0) if guild_id is None else ("g", v.snowflake("guild_id", guild_id))
        today = v.day("today", today, optional=True) or self._now().astimezone(dt.UTC).date()
        async with self._transaction(write=False) as conn:
            summary = await self._one(
                conn,
                f"SELECT b.played, b.won, {_prefixed('r', RESULT_COLUMNS)} FROM player_bests b "
                "JOIN results r ON r.game_id = b.game_id "
                "WHERE b.scope = ? AND b.scope_id = ? AND b.kind = ? AND b.cells = ? AND b.user_id = ?",
                (*scope, kind, ALL_CELLS, user),
            )
            days = await self._all(
                conn,
                "SELECT daily_date FROM results INDEXED BY results_daily_first "
                "WHERE user_id = ? AND kind = ? AND counts_for_daily = 1",
                (user, kind),
            )
        dates = [dt.date.fromisoformat(d[0]) for d in days]
        current, longest = ranking.streaks(dates, today)
        return PlayerStats(
            user_id=user,  # type: ignore[arg-type]
            kind=kind,
            played=summary[0] if summary else 0,
            won=summary[1] if summary else 0,
            best=result_row(summary[2:]) if summary else None,
            current_streak=current,
            best_streak=longest,
            last_daily=max(dates) if dates else None,
        )

    async def daily_results(
        self, kind: str, date: dt.date, *, guild_id: int | None = None, limit: int = 100, offset: int = 0
    ) -> list[FinishedGame]:
        where = "kind = ? AND daily_date = ? AND counts_for_daily = 1"
        params: list[Any] = [v.kind(kind), v.day("date", date).isoformat()]  # type: ignore[union-attr]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(v.snowflake("guild_id", guild_id))
        limit, offset = v.page(limit, offset)
        async with self._transaction(write=False) as conn:
            rows = await self._all(
                conn,
                f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} ORDER BY {RANK_ORDER} LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        return [result_row(r) for r in rows]

    async def daily_code(self, kind: str, date: dt.date) -> str | None:
        params = (v.kind(kind), v.day("date", date).isoformat())  # type: ignore[union-attr]
        async with self._transaction(write=False) as conn:
            row = await self._one(conn, "SELECT code FROM daily_codes WHERE kind = ? AND date = ?", params)
        return None if row is None else row[0]

    async def set_daily_code(self, kind: str, date: dt.date, code: str) -> str:
        params = (v.kind(kind), v.day("date", date).isoformat())  # type: ignore[union-attr]
        checked = v.text("code", code)
        if not checked or not checked.strip():
            raise InvalidValue("code must not be empty")

        async def op(conn: aiosqlite.Connection) -> Any:
            await conn.execute(
                "INSERT INTO daily_codes (kind, date, code, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (kind, date) DO NOTHING",
                (*params, checked, to_ms(self._now())),
            )
            row = await self._one(conn, "SELECT code FROM daily_codes WHERE kind = ? AND date = ?", params)
            return row

        row = await self._write(op)
        return row[0]

    # -- settings -----------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        async with self._transaction(write=False) as conn:
            row = await self._one(
                conn, f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild,)
            )
        return GuildSettings(guild) if row is None else _guild_row(row)  # type: ignore[arg-type]

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        daily_channel_id: int | _Unchanged | None = UNCHANGED,
        post_minute: int | _Unchanged = UNCHANGED,
        language: str | _Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        changes: dict[str, Any] = {}
        if not isinstance(daily_channel_id, _Unchanged):
            changes["daily_channel_id"] = v.snowflake("daily_channel_id", daily_channel_id, optional=True)
        if not isinstance(post_minute, _Unchanged):
            minute = v.count("post_minute", post_minute)
            if minute > 1439:
                raise InvalidValue(
                    f"post_minute must be from 0 to 1439 (minutes after 00:00 UTC), not {minute}"
                )
            changes["post_minute"] = minute
        if not isinstance(language, _Unchanged):
            changes["language"] = v.text("language", language, optional=True, max_length=35)

        async def op(conn: aiosqlite.Connection) -> Any:
            row = await self._one(
                conn, f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild,)
            )
            current = GuildSettings(guild) if row is None else _guild_row(row)  # type: ignore[arg-type]
            merged = GuildSettings(
                guild,  # type: ignore[arg-type]
                changes.get("daily_channel_id", current.daily_channel_id),
                changes.get("post_minute", current.post_minute),
                changes.get("language", current.language),
            )
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, daily_channel_id, post_minute, language, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "daily_channel_id = excluded.daily_channel_id, post_minute = excluded.post_minute, "
                "language = excluded.language, updated_at = excluded.updated_at",
                (guild, merged.daily_channel_id, merged.post_minute, merged.language, to_ms(self._now())),
            )
            return merged

        merged = await self._write(op)
        return merged

    async def user_language(self, user_id: int) -> str | None:
        user = v.snowflake("user_id", user_id)
        async with self._transaction(write=False) as conn:
            row = await self._one(conn, "SELECT language FROM user_settings WHERE user_id = ?", (user,))
        return None if row is None else row[0]

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        user = v.snowflake("user_id", user_id)
        checked = v.text("language", language, optional=True, max_length=35)

        async def op(conn: aiosqlite.Connection) -> Any:
            await conn.execute(
                "INSERT INTO user_settings (user_id, language, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                (user, checked, to_ms(self._now())),
            )

        await self._write(op)

    # -- daily posts --------------------------------------------------------------
    async def pending_daily_posts(
        self, date: dt.date, *, now: dt.datetime | None = None
    ) -> list[GuildSettings]:
        day = v.day("date", date)
        moment = self._now() if now is None else v.moment("now", now)
        midnight = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)  # type: ignore[arg-type]
        minutes = (moment - midnight) // dt.timedelta(minutes=1)
        if minutes < 0:
            return []
        async with self._transaction(write=False) as conn:
            rows = await self._all(
                conn,
                "SELECT g.guild_id, g.daily_channel_id, g.post_minute, g.language FROM guild_settings g "
                "LEFT JOIN daily_posts p ON p.guild_id = g.guild_id AND p.date = ? "
                "WHERE g.daily_channel_id IS NOT NULL AND g.post_minute <= ? AND p.message_id IS NULL "
                "ORDER BY g.guild_id",
                (day.isoformat(), minutes),  # type: ignore[union-attr]
            )
        return [_guild_row(r) for r in rows]

    async def claim_daily_post(
        self,
        guild_id: int,
        date: dt.date,
        channel_id: int,
        *,
        now: dt.datetime | None = None,
        stale_after: dt.timedelta = dt.timedelta(minutes=10),
    ) -> bool:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())  # type: ignore[union-attr]
        channel = v.snowflake("channel_id", channel_id)
        moment = to_ms(self._now() if now is None else v.moment("now", now))

        async def op(conn: aiosqlite.Connection) -> Any:
            row = await self._one(
                conn, "SELECT message_id, claimed_at FROM daily_posts WHERE guild_id = ? AND date = ?", key
            )
            if row is None:
                await conn.execute(
                    "INSERT INTO daily_posts (guild_id, date, channel_id, claimed_at) VALUES (?, ?, ?, ?)",
                    (*key, channel, moment),
                )
                return True
            if row[0] is not None or row[1] > moment - stale_after // _MS:
                return False
            await conn.execute(
                "UPDATE daily_posts SET channel_id = ?, claimed_at = ? WHERE guild_id = ? AND date = ?",
                (channel, moment, *key),
            )
            return True

        return await self._write(op)

    async def record_daily_post_message(self, guild_id: int, date: dt.date, message_id: int) -> DailyPost:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())  # type: ignore[union-attr]
        message = v.snowflake("message_id", message_id)

        async def op(conn: aiosqlite.Connection) -> Any:
            row = await self._one(
                conn,
                "UPDATE daily_posts SET message_id = ?, posted_at = ? WHERE guild_id = ? AND date = ? "
                f"RETURNING {POST_COLUMNS}",
                (message, to_ms(self._now()), *key),
            )
            if row is None:
                raise InvalidValue(f"no claimed daily post for guild {key[0]} on {key[1]}: claim it first")
            return row

        row = await self._write(op)
        return _post_row(row)

    async def release_daily_post(self, guild_id: int, date: dt.date) -> None:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())  # type: ignore[union-attr]

        async def op(conn: aiosqlite.Connection) -> Any:
            await conn.execute(
                "DELETE FROM daily_posts WHERE guild_id = ? AND date = ? AND message_id IS NULL", key
            )

        await self._write(op)

    async def daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())  # type: ignore[union-attr]
        async with self._transaction(write=False) as conn:
            row = await self._one(
                conn, f"SELECT {POST_COLUMNS} FROM daily_posts WHERE guild_id = ? AND date = ?", key
            )
        return None if row is None else _post_row(row)

    # -- winnable deals -----------------------------------------------------------
    async def add_winnable_deals(self, kind: str, cells: int | None, deals: Sequence[int]) -> int:
        key = (v.kind(kind), v.cells(cells) or 0)
        numbers = [v.count("deal", d) for d in deals]
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> Any:
            before = conn.total_changes
            await conn.executemany(
                "INSERT INTO winnable_deals (kind, cells, deal, added_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (kind, cells, deal) DO NOTHING",
                [(*key, n, now) for n in numbers],
            )
            added = conn.total_changes - before
            return added

        added = await self._write(op)
        return added

    async def take_winnable_deal(self, kind: str, cells: int | None) -> int | None:
        """Random among the stock: a random point between the lowest and highest free deal,
        then the first free deal at or above it (one index seek, however big the stock)."""
        key = (v.kind(kind), v.cells(cells) or 0)

        async def op(conn: aiosqlite.Connection) -> Any:
            low, high = await self._one(
                conn,
                "SELECT min(deal), max(deal) FROM winnable_deals WHERE kind = ? AND cells = ? AND taken_at IS NULL",
                key,
            )
            if low is None:
                return None
            point = self._random.randint(low, high)
            (deal,) = await self._one(
                conn,
                "SELECT deal FROM winnable_deals WHERE kind = ? AND cells = ? AND taken_at IS NULL "
                "AND deal >= ? ORDER BY deal LIMIT 1",
                (*key, point),
            )
            await conn.execute(
                "UPDATE winnable_deals SET taken_at = ? WHERE kind = ? AND cells = ? AND deal = ?",
                (to_ms(self._now()), *key, deal),
            )
            return deal

        deal = await self._write(op)
        return deal

    async def count_winnable_deals(self, kind: str, cells: int | None) -> int:
        key = (v.kind(kind), v.cells(cells) or 0)
        async with self._transaction(write=False) as conn:
            row = await self._one(
                conn,
                "SELECT count(*) FROM winnable_deals WHERE kind = ? AND cells = ? AND taken_at IS NULL",
                key,
            )
        return int(row[0])

    # -- maintenance --------------------------------------------------------------
    async def integrity_check(self) -> list[str]:
        async with self._transaction(write=False) as conn:
            rows = await self._all(conn, "PRAGMA integrity_check")
        problems = [str(r[0]) for r in rows]
        return [] if problems == ["ok"] else problems


async def _quick_check(conn: aiosqlite.Connection, path: str) -> None:
    async with conn.execute("PRAGMA quick_check") as cursor:
        rows = [str(r[0]) for r in await cursor.fetchall()]
    if rows != ["ok"]:
        raise unusable(path, "corrupt", "; ".join(rows[:3]))


__all__ = ["MEMORY", "SqliteStore"]
