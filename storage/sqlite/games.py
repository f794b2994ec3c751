"""Games on SQLite: create, read, append moves, finish (writing the history and player summaries)."""

from __future__ import annotations

import datetime as dt
from typing import NoReturn

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
from storage.rows import finish_of, join_moves, result_values, summary_values, was_played
from storage.sqlite.base import SqliteBase
from storage.sqlite.inthread import Conn
from storage.sqlite.rows import (
    BETTER,
    ENCODE,
    GAME_COLUMNS,
    RESULT_COLUMNS,
    game_row,
    iso,
    result_row,
    to_ms,
)

SELECT_ACTIVE = f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = ? AND kind = ? AND status = 'active'"


class GamesMixin(SqliteBase):
    async def create_game(self, new: v.NewGame, now: dt.datetime) -> GameRow:
        params = (new.kind, new.code, new.variant, new.owner_id, new.guild_id, new.channel_id, new.source)
        moment = to_ms(now)

        async def op(conn: Conn) -> GameRow:
            existing = await self._one(conn, SELECT_ACTIVE, (new.owner_id, new.kind))
            if existing:
                raise ActiveGameExists(game_row(existing))
            row = await self._one(
                conn,
                "INSERT INTO games (kind, code, variant, owner_id, guild_id, channel_id, source, started_at, "
                f"updated_at, daily_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
                (*params, moment, moment, iso(new.daily_date)),
            )
            return game_row(row)

        return await self._write(op)

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._read(
            lambda conn: self._one(conn, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        )
        return None if row is None else game_row(row)

    async def active_game(self, owner_id: int, kind: str) -> GameRow | None:
        row = await self._read(lambda conn: self._one(conn, SELECT_ACTIVE, (owner_id, kind)))
        return None if row is None else game_row(row)

    async def active_games(self, owner_id: int) -> list[GameRow]:
        rows = await self._read(
            lambda conn: self._all(
                conn,
                f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = ? AND status = 'active' ORDER BY kind",
                (owner_id,),
            )
        )
        return [game_row(r) for r in rows]

    async def change(self, change: v.Change, now: dt.datetime) -> GameRow:
        moment = to_ms(now)
        if change.actions:
            joined = join_moves(change.actions)
            sql = (
                "UPDATE games SET moves = CASE WHEN moves = '' THEN ? ELSE moves || ' ' || ? END, "
                "action_count = action_count + ?, undos = undos + ?, score = ?, move_count = ?, "
                "home = coalesce(?, home), first_move_at = coalesce(first_move_at, ?), status = ?, "
                "finished_at = ?, updated_at = ?, version = version + 1 "
                f"WHERE id = ? AND version = ? AND status = 'active' RETURNING {GAME_COLUMNS}"
            )
            params: tuple[object, ...] = (
                joined,
                joined,
                len(change.actions),
                change.undos,
                change.score,
                change.move_count,
                change.home,
                moment,
            )
            params += (change.status, moment if change.finishes else None, moment)
        else:
            sql = (
                "UPDATE games SET status = ?, score = ?, move_count = ?, home = coalesce(?, home), "
                "finished_at = ?, updated_at = ?, "
                f"version = version + 1 WHERE id = ? AND version = ? AND status = 'active' "
                f"RETURNING {GAME_COLUMNS}"
            )
            params = (change.status, change.score, change.move_count, change.home, moment, moment)

        async def op(conn: Conn) -> GameRow:
            row = await self._one(conn, sql, (*params, change.game_id, change.expected))
            if row is None:
                await self._refuse(conn, change.game_id, change.expected)
            game = game_row(row)
            if change.finishes:
                await self._record_result(conn, game)
            return game

        return await self._write(op)

    async def _refuse(self, conn: Conn, game_id: int, expected: int) -> NoReturn:
        """Say why a guarded update touched no row: unknown game, finished game or stale version."""
        row = await self._one(conn, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        current = game_row(row)
        if not current.is_active:
            raise GameNotActive(current)
        raise VersionConflict(expected, current)

    async def _record_result(self, conn: Conn, game: GameRow) -> None:
        """The history row and the player summaries, in the transaction that finishes the game."""
        counts = False
        played = was_played(game)  # a game replaced or ended before its first move is history only
        if game.daily_date is not None and played:
            earlier = await self._one(
                conn,
                "SELECT 1 FROM results WHERE user_id = ? AND kind = ? AND daily_date = ? "
                "AND counts_for_daily = 1",
                (game.owner_id, game.kind, iso(game.daily_date)),
            )
            counts = earlier is None
        key = ranking.rank_key(game.kind, finish_of(game))
        values = result_values(game, counts, key, ENCODE)
        await conn.execute(
            f"INSERT INTO results ({RESULT_COLUMNS}, rank_key) VALUES ({', '.join('?' * len(values))})",
            values,
        )
        if not played:
            return
        await conn.executemany(
            "INSERT INTO player_bests (scope, scope_id, kind, variant, source, user_id, won, rank_key, "
            "finished_at, game_id, best_score, won_seconds, timed_wins, fastest, played) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) "
            "ON CONFLICT (scope, scope_id, kind, variant, source, user_id) DO UPDATE SET "
            "played = played + 1, won = won + excluded.won, "
            "best_score = max(best_score, excluded.best_score), "
            "won_seconds = won_seconds + excluded.won_seconds, timed_wins = timed_wins + excluded.timed_wins, "
            "fastest = CASE WHEN fastest IS NULL OR excluded.fastest < fastest THEN excluded.fastest "
            "ELSE fastest END, "
            f"rank_key = CASE WHEN {BETTER} THEN excluded.rank_key ELSE rank_key END, "
            f"finished_at = CASE WHEN {BETTER} THEN excluded.finished_at ELSE finished_at END, "
            f"game_id = CASE WHEN {BETTER} THEN excluded.game_id ELSE game_id END",
            summary_values(game, key, ENCODE),
        )

    async def record_hint(self, game_id: int, now: dt.datetime) -> GameRow | None:
        async def op(conn: Conn) -> GameRow | None:
            row = await self._one(
                conn,
                "UPDATE games SET hints = hints + 1, updated_at = ? WHERE id = ? AND status = 'active' "
                f"RETURNING {GAME_COLUMNS}",
                (to_ms(now), game_id),
            )
            return None if row is None else game_row(row)

        return await self._write(op)

    async def record_warning(self, game_id: int, now: dt.datetime) -> GameRow | None:
        async def op(conn: Conn) -> GameRow | None:
            row = await self._one(
                conn,
                "UPDATE games SET warned = 1, updated_at = ? WHERE id = ? AND status = 'active' "
                f"RETURNING {GAME_COLUMNS}",
                (to_ms(now), game_id),
            )
            return None if row is None else game_row(row)

        return await self._write(op)

    async def mark_damaged(self, game_id: int, reason: str, now: dt.datetime) -> bool:
        async def op(conn: Conn) -> bool:
            row = await self._one(
                conn,
                "INSERT INTO damaged_games (game_id, reason, marked_at) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                (game_id, reason, to_ms(now)),
            )
            return row is not None

        return await self._write(op)

    async def set_message(
        self, game_id: int, channel_id: int | None, message_id: int | None, now: dt.datetime
    ) -> GameRow | None:
        async def op(conn: Conn) -> GameRow | None:
            row = await self._one(
                conn,
                "UPDATE games SET channel_id = ?, message_id = ?, updated_at = ? WHERE id = ? "
                f"RETURNING {GAME_COLUMNS}",
                (channel_id, message_id, to_ms(now), game_id),
            )
            return None if row is None else game_row(row)

        return await self._write(op)

    async def get_result(self, game_id: int) -> FinishedGame | None:
        row = await self._read(
            lambda conn: self._one(
                conn, f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ?", (game_id,)
            )
        )
        return None if row is None else result_row(row)
