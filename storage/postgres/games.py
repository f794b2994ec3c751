"""Games on PostgreSQL: create, read, append moves, finish (writing the history and player summaries)."""

from __future__ import annotations

import datetime as dt
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
from storage.postgres.base import DECODE, ENCODE, PostgresBase, to_text
from storage.rows import (
    GAME_COLUMNS,
    RESULT_COLUMNS,
    finish_of,
    game_row,
    join_moves,
    result_row,
    result_values,
    summary_values,
    was_played,
)

if TYPE_CHECKING:
    from storage.postgres.opening import Conn

# In the upsert of player_bests: is the new result better than the stored best?
BETTER = (
    "(excluded.rank_key, excluded.finished_at, excluded.game_id) "
    "< (player_bests.rank_key, player_bests.finished_at, player_bests.game_id)"
)
SELECT_GAME = f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1"
SELECT_ACTIVE = f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = $1 AND kind = $2 AND status = 'active'"
APPEND = (
    "UPDATE games SET moves = CASE WHEN moves = '' THEN $3 ELSE moves || ' ' || $3 END, "
    "action_count = action_count + $4, score = $5, move_count = $6, status = $7, "
    "finished_at = $8, updated_at = $9, undos = undos + $10, home = coalesce($11, home), "
    "first_move_at = coalesce(first_move_at, $9), version = version + 1 "
    f"WHERE id = $1 AND version = $2 AND status = 'active' RETURNING {GAME_COLUMNS}"
)
FINISH = (
    "UPDATE games SET score = $3, move_count = $4, status = $5, finished_at = $6, updated_at = $6, "
    "home = coalesce($7, home), "
    f"version = version + 1 WHERE id = $1 AND version = $2 AND status = 'active' RETURNING {GAME_COLUMNS}"
)
HINT = (
    "UPDATE games SET hints = hints + 1, updated_at = $2 WHERE id = $1 AND status = 'active' "
    f"RETURNING {GAME_COLUMNS}"
)


class GamesMixin(PostgresBase):
    async def create_game(self, new: v.NewGame, now: dt.datetime) -> GameRow:
        async with self._transaction() as conn:
            for _ in range(5):
                # The partial unique index decides a race between two starts; the loser reads the winner.
                row = await conn.fetchrow(
                    "INSERT INTO games (kind, code, variant, owner_id, guild_id, channel_id, started_at, "
                    "updated_at, daily_date, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9) "
                    "ON CONFLICT (owner_id, kind) WHERE status = 'active' DO NOTHING "
                    f"RETURNING {GAME_COLUMNS}",
                    new.kind,
                    to_text(new.code),
                    new.variant,
                    new.owner_id,
                    new.guild_id,
                    new.channel_id,
                    now,
                    new.daily_date,
                    new.source,
                )
                if row is not None:
                    return game_row(row, DECODE)
                existing = await conn.fetchrow(SELECT_ACTIVE, new.owner_id, new.kind)
                if existing is not None:
                    raise ActiveGameExists(game_row(existing, DECODE))
                # It finished in between: try again.
        raise DatabaseBusy(f"user {new.owner_id}'s {new.kind} games kept changing while starting one")

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(SELECT_GAME, game_id)
        return None if row is None else game_row(row, DECODE)

    async def active_game(self, owner_id: int, kind: str) -> GameRow | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(SELECT_ACTIVE, owner_id, kind)
        return None if row is None else game_row(row, DECODE)

    async def active_games(self, owner_id: int) -> list[GameRow]:
        async with self._transaction(write=False) as conn:
            found = await conn.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE owner_id = $1 AND status = 'active' ORDER BY kind",
                owner_id,
            )
        return [game_row(r, DECODE) for r in found]

    async def change(self, change: v.Change, now: dt.datetime) -> GameRow:
        """``UPDATE ... WHERE id = $1 AND version = $2``: a stale version touches no row."""
        guard = (change.game_id, change.expected)
        async with self._transaction() as conn:
            if change.actions:
                row = await conn.fetchrow(
                    APPEND,
                    *guard,
                    join_moves(change.actions),
                    len(change.actions),
                    change.score,
                    change.move_count,
                    change.status,
                    now if change.finishes else None,
                    now,
                    change.undos,
                    change.home,
                )
            else:
                row = await conn.fetchrow(
                    FINISH, *guard, change.score, change.move_count, change.status, now, change.home
                )
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
        counts = False
        played = was_played(game)  # a game replaced or ended before its first move is history only
        if game.daily_date is not None and played:
            earlier = await conn.fetchval(
                "SELECT 1 FROM results WHERE user_id = $1 AND kind = $2 AND daily_date = $3 "
                "AND counts_for_daily",
                game.owner_id,
                game.kind,
                game.daily_date,
            )
            counts = earlier is None
        key = ranking.rank_key(game.kind, finish_of(game))
        values = result_values(game, counts, key, ENCODE)
        await conn.execute(
            f"INSERT INTO results ({RESULT_COLUMNS}, rank_key) "
            f"VALUES ({', '.join(f'${i}' for i in range(1, len(values) + 1))})",
            *values,
        )
        if not played:
            return
        await conn.executemany(
            "INSERT INTO player_bests (scope, scope_id, kind, variant, source, user_id, won, rank_key, "
            "finished_at, game_id, best_score, won_seconds, timed_wins, fastest, played) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1) "
            "ON CONFLICT (scope, scope_id, kind, variant, source, user_id) DO UPDATE SET "
            "played = player_bests.played + 1, won = player_bests.won + excluded.won, "
            "best_score = greatest(player_bests.best_score, excluded.best_score), "
            "won_seconds = player_bests.won_seconds + excluded.won_seconds, "
            "timed_wins = player_bests.timed_wins + excluded.timed_wins, "
            "fastest = least(player_bests.fastest, excluded.fastest), "
            f"rank_key = CASE WHEN {BETTER} THEN excluded.rank_key ELSE player_bests.rank_key END, "
            f"finished_at = CASE WHEN {BETTER} THEN excluded.finished_at ELSE player_bests.finished_at END, "
            f"game_id = CASE WHEN {BETTER} THEN excluded.game_id ELSE player_bests.game_id END",
            summary_values(game, key, ENCODE),
        )

    async def record_hint(self, game_id: int, now: dt.datetime) -> GameRow | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(HINT, game_id, now)
        return None if row is None else game_row(row, DECODE)

    async def record_warning(self, game_id: int, now: dt.datetime) -> GameRow | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE games SET warned = true, updated_at = $2 WHERE id = $1 AND status = 'active' "
                f"RETURNING {GAME_COLUMNS}",
                game_id,
                now,
            )
        return None if row is None else game_row(row, DECODE)

    async def set_message(
        self, game_id: int, channel_id: int | None, message_id: int | None, now: dt.datetime
    ) -> GameRow | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE games SET channel_id = $1, message_id = $2, updated_at = $3 WHERE id = $4 "
                f"RETURNING {GAME_COLUMNS}",
                channel_id,
                message_id,
                now,
                game_id,
            )
        return None if row is None else game_row(row, DECODE)

    async def mark_damaged(self, game_id: int, reason: str, now: dt.datetime) -> bool:
        async with self._transaction() as conn:
            marked = await conn.fetchval(
                "INSERT INTO damaged_games (game_id, reason, marked_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                game_id,
                to_text(reason),
                now,
            )
        return marked is not None

    async def get_result(self, game_id: int) -> FinishedGame | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = $1", game_id)
        return None if row is None else result_row(row, DECODE)
