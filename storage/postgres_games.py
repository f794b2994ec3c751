"""Games on PostgreSQL: create, read, append moves, finish (writing the history and player summaries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from storage import ranking
from storage import validate as v
from storage.interface import (
    ActiveGameExists,
    DatabaseBusy,
    FinishedGame,
    GameNotActive,
    GameNotFound,
    GameRow,
    VersionConflict,
)
from storage.postgres_base import DECODE, PostgresBase, to_text
from storage.rows import GAME_COLUMNS, RESULT_COLUMNS, game_row, join_moves, result_row, summary_keys

if TYPE_CHECKING:
    from storage.postgres_open import Conn

# In the upsert of player_bests: is the new result better than the stored best?
BETTER = (
    "(excluded.rank_key, excluded.finished_at, excluded.game_id) "
    "< (player_bests.rank_key, player_bests.finished_at, player_bests.game_id)"
)
SELECT_GAME = f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1"
SELECT_ACTIVE = f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = $1 AND kind = $2 AND status = 'active'"


class GamesMixin(PostgresBase):
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
        now = self._now()
        async with self._transaction() as conn:
            for _ in range(5):
                # The partial unique index decides a race between two starts; the loser reads the winner.
                row = await conn.fetchrow(
                    "INSERT INTO games (kind, code, cells, owner_id, guild_id, channel_id, started_at, "
                    "updated_at, daily_date) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) "
                    "ON CONFLICT (owner_id, kind) WHERE status = 'active' DO NOTHING "
                    f"RETURNING {GAME_COLUMNS}",
                    new.kind,
                    to_text(new.code),
                    new.cells,
                    new.owner_id,
                    new.guild_id,
                    new.channel_id,
                    now,
                    new.daily_date,
                )
                if row is not None:
                    return game_row(row, DECODE)
                existing = await conn.fetchrow(SELECT_ACTIVE, new.owner_id, new.kind)
                if existing is not None:
                    raise ActiveGameExists(game_row(existing, DECODE))
                # It finished in between: try again.
        raise DatabaseBusy(f"user {new.owner_id}'s {new.kind} games kept changing while starting one")

    async def get_game(self, game_id: int) -> GameRow:
        game_id = v.snowflake("game_id", game_id)
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(SELECT_GAME, game_id)
        if row is None:
            raise GameNotFound(game_id)
        return game_row(row, DECODE)

    async def active_game(self, owner_id: int, kind: str) -> GameRow | None:
        owner, checked = v.snowflake("owner_id", owner_id), v.kind(kind)
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(SELECT_ACTIVE, owner, checked)
        return None if row is None else game_row(row, DECODE)

    async def active_games(self, owner_id: int) -> list[GameRow]:
        owner = v.snowflake("owner_id", owner_id)
        async with self._transaction(write=False) as conn:
            found = await conn.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = $1 AND status = 'active' ORDER BY kind",
                owner,
            )
        return [game_row(r, DECODE) for r in found]

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
        now = self._now()
        return await self._guarded(
            change,
            "UPDATE games SET moves = CASE WHEN moves = '' THEN $1 ELSE moves || ' ' || $1 END, "
            "action_count = action_count + $2, score = $3, move_count = $4, status = $5, "
            "finished_at = $6, updated_at = $7, version = version + 1 "
            f"WHERE id = $8 AND version = $9 AND status = 'active' RETURNING {GAME_COLUMNS}",
            join_moves(change.actions),
            len(change.actions),
            change.score,
            change.move_count,
            change.status,
            now if change.finishes else None,
            now,
            change.game_id,
            change.expected,
        )

    async def finish_game(
        self, game_id: int, expected_version: int, status: str, *, score: int, move_count: int
    ) -> GameRow:
        change = v.finish(game_id, expected_version, status, score, move_count)
        return await self._guarded(
            change,
            "UPDATE games SET status = $1, score = $2, move_count = $3, finished_at = $4, "
            "updated_at = $4, version = version + 1 WHERE id = $5 AND version = $6 AND status = 'active' "
            f"RETURNING {GAME_COLUMNS}",
            change.status,
            change.score,
            change.move_count,
            self._now(),
            change.game_id,
            change.expected,
        )

    async def _guarded(self, change: v.Change, sql: str, *params: object) -> GameRow:
        """One guarded ``UPDATE ... RETURNING`` of a game, in one transaction with the history row
        when it finishes the game; why it touched nothing when it did not."""
        async with self._transaction() as conn:
            row = await conn.fetchrow(sql, *params)
            if row is None:
                await self._refuse(conn, change.game_id, change.expected)
            game = game_row(row, DECODE)
            if change.finishes:
                await self._record_result(conn, game)
        return game

    async def _refuse(self, conn: Conn, game_id: int, expected: int) -> NoReturn:
        """Say why a guarded update touched no row: unknown game, finished game or stale version."""
        row = await conn.fetchrow(SELECT_GAME, game_id)
        if row is None:
            raise GameNotFound(game_id)
        current = game_row(row, DECODE)
        if not current.is_active:
            raise GameNotActive(current)
        raise VersionConflict(expected, current)

    async def _record_result(self, conn: Conn, game: GameRow) -> None:
        """The history row and the player summaries, in the transaction that finishes the game."""
        assert game.finished_at is not None, "a finished game has its finish time"
        counts = False
        if game.daily_date is not None:
            earlier = await conn.fetchval(
                "SELECT 1 FROM results WHERE user_id = $1 AND kind = $2 AND daily_date = $3 "
                "AND counts_for_daily",
                game.owner_id,
                game.kind,
                game.daily_date,
            )
            counts = earlier is None
        key = ranking.rank_key(game.kind, game.status, game.score, game.move_count)
        await conn.execute(
            f"INSERT INTO results ({RESULT_COLUMNS}, rank_key) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            game.id,
            game.kind,
            to_text(game.code),
            game.cells,
            game.owner_id,
            game.guild_id,
            game.channel_id,
            game.status,
            game.score,
            game.move_count,
            game.finished_at,
            game.daily_date,
            counts,
            key,
        )
        won = 1 if game.status == "won" else 0
        await conn.executemany(
            "INSERT INTO player_bests (scope, scope_id, kind, cells, user_id, played, won, rank_key, "
            "finished_at, game_id, best_score) VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10) "
            "ON CONFLICT (scope, scope_id, kind, cells, user_id) DO UPDATE SET "
            "played = player_bests.played + 1, won = player_bests.won + excluded.won, "
            "best_score = greatest(player_bests.best_score, excluded.best_score), "
            f"rank_key = CASE WHEN {BETTER} THEN excluded.rank_key ELSE player_bests.rank_key END, "
            f"finished_at = CASE WHEN {BETTER} THEN excluded.finished_at ELSE player_bests.finished_at END, "
            f"game_id = CASE WHEN {BETTER} THEN excluded.game_id ELSE player_bests.game_id END",
            [
                (
                    scope,
                    scope_id,
                    game.kind,
                    cells,
                    game.owner_id,
                    won,
                    key,
                    game.finished_at,
                    game.id,
                    game.score,
                )
                for scope, scope_id, cells in summary_keys(game)
            ],
        )

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> GameRow:
        game_id = v.snowflake("game_id", game_id)
        channel = v.snowflake("channel_id", channel_id, optional=True)
        message = v.snowflake("message_id", message_id, optional=True)
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE games SET channel_id = $1, message_id = $2, updated_at = $3 WHERE id = $4 "
                f"RETURNING {GAME_COLUMNS}",
                channel,
                message,
                self._now(),
                game_id,
            )
        if row is None:
            raise GameNotFound(game_id)
        return game_row(row, DECODE)

    async def get_result(self, game_id: int) -> FinishedGame | None:
        game_id = v.snowflake("game_id", game_id)
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = $1", game_id)
        return None if row is None else result_row(row, DECODE)
