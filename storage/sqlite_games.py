"""Games: create, read, append moves, finish (writing the history and player summaries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import aiosqlite

from storage import ranking
from storage import validate as v
from storage.interface import (
    ActiveGameExists,
    FinishedGame,
    GameNotActive,
    GameNotFound,
    GameRow,
    VersionConflict,
)
from storage.rows import join_moves
from storage.sqlite_base import SqliteBase
from storage.sqlite_rows import (
    BETTER,
    GAME_COLUMNS,
    RESULT_COLUMNS,
    game_row,
    iso,
    result_row,
    summary_keys,
    to_ms,
)


class GamesMixin(SqliteBase):
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
        new = v.new_game(kind, code, owner_id, guild_id, channel_id, cells, daily_date)
        owner, kind = new.owner_id, new.kind
        params = (kind, new.code, new.cells, owner, new.guild_id, new.channel_id)
        day = iso(new.daily_date)
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> GameRow:
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
            return game_row(row)

        return await self._write(op)

    async def get_game(self, game_id: int) -> GameRow:
        game_id = v.snowflake("game_id", game_id)
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
        change = v.moves(game_id, expected_version, actions, score, move_count, finish)
        game_id, expected = change.game_id, change.expected
        joined = join_moves(change.actions)
        now = to_ms(self._now())
        finished_at = now if change.finishes else None

        async def op(conn: aiosqlite.Connection) -> GameRow:
            row = await self._one(
                conn,
                "UPDATE games SET moves = CASE WHEN moves = '' THEN ? ELSE moves || ' ' || ? END, "
                "action_count = action_count + ?, score = ?, move_count = ?, status = ?, "
                "finished_at = ?, updated_at = ?, version = version + 1 "
                f"WHERE id = ? AND version = ? AND status = 'active' RETURNING {GAME_COLUMNS}",
                (
                    joined,
                    joined,
                    len(change.actions),
                    change.score,
                    change.move_count,
                    change.status,
                    finished_at,
                    now,
                    game_id,
                    expected,
                ),
            )
            if row is None:
                await self._refuse(conn, game_id, expected)
            game = game_row(row)
            if change.finishes:
                await self._record_result(conn, game)
            return game

        return await self._write(op)

    async def finish_game(
        self, game_id: int, expected_version: int, status: str, *, score: int, move_count: int
    ) -> GameRow:
        change = v.finish(game_id, expected_version, status, score, move_count)
        game_id, expected = change.game_id, change.expected
        params = (change.status, change.score, change.move_count)
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> GameRow:
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

        return await self._write(op)

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
        assert game.finished_at is not None, "a finished game has its finish time"
        finished_at = to_ms(game.finished_at)
        counts = 0
        if game.daily_date is not None:
            earlier = await self._one(
                conn,
                "SELECT 1 FROM results WHERE user_id = ? AND kind = ? AND daily_date = ? "
                "AND counts_for_daily = 1",
                (game.owner_id, game.kind, iso(game.daily_date)),
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
                finished_at,
                iso(game.daily_date),
                counts,
                key,
            ),
        )
        won = 1 if game.status == "won" else 0
        await conn.executemany(
            "INSERT INTO player_bests (scope, scope_id, kind, cells, user_id, played, won, rank_key, "
            "finished_at, game_id, best_score) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?) "
            "ON CONFLICT (scope, scope_id, kind, cells, user_id) DO UPDATE SET "
            "played = played + 1, won = won + excluded.won, "
            "best_score = max(best_score, excluded.best_score), "
            f"rank_key = CASE WHEN {BETTER} THEN excluded.rank_key ELSE rank_key END, "
            f"finished_at = CASE WHEN {BETTER} THEN excluded.finished_at ELSE finished_at END, "
            f"game_id = CASE WHEN {BETTER} THEN excluded.game_id ELSE game_id END",
            [
                (scope, scope_id, game.kind, cells, game.owner_id, won, key, finished_at, game.id, game.score)
                for scope, scope_id, cells in summary_keys(game)
            ],
        )

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> GameRow:
        game_id = v.snowflake("game_id", game_id)
        params = (
            v.snowflake("channel_id", channel_id, optional=True),
            v.snowflake("message_id", message_id, optional=True),
        )
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> GameRow:
            row = await self._one(
                conn,
                "UPDATE games SET channel_id = ?, message_id = ?, updated_at = ? WHERE id = ? "
                f"RETURNING {GAME_COLUMNS}",
                (*params, now, game_id),
            )
            if row is None:
                raise GameNotFound(game_id)
            return game_row(row)

        return await self._write(op)

    async def get_result(self, game_id: int) -> FinishedGame | None:
        game_id = v.snowflake("game_id", game_id)
        async with self._transaction(write=False) as conn:
            row = await self._one(conn, f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ?", (game_id,))
        return None if row is None else result_row(row)
