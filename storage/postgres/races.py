"""Races on PostgreSQL: the lobby, its players, the start, the result claim (``storage.store`` checks first).

Each change is one guarded statement (or a transaction holding the race row's lock, ``FOR UPDATE``),
so two processes starting, joining or finishing the same race never both succeed."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from storage import race_rows
from storage.interface import GameRow, JoinOutcome, RacePlayer, RaceRecord, RaceRow
from storage.postgres.base import DECODE, PostgresBase, to_text
from storage.race_rows import COUNTED, PLAYER_COLUMNS, RACE_COLUMNS, RACE_WON, STILL_IN, WITH_GAME, record_row
from storage.rows import GAME_COLUMNS, game_row

if TYPE_CHECKING:
    from storage.postgres.opening import Conn

SELECT_RACE = f"SELECT {RACE_COLUMNS} FROM races WHERE id = $1"


def race_row(row: Any) -> RaceRow:
    return race_rows.race_row(row, DECODE)


class RacesMixin(PostgresBase):
    async def _locked(self, conn: Conn, race_id: int) -> Any:
        return await conn.fetchrow(f"{SELECT_RACE} FOR UPDATE", race_id)

    async def create_race(self, new: dict[str, Any], now: dt.datetime) -> RaceRow:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO races (guild_id, channel_id, kind, variant, code, creator_id, language, "
                "created_at, starts_at, time_limit, chosen) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
                f"RETURNING {RACE_COLUMNS}",
                new["guild_id"],
                new["channel_id"],
                new["kind"],
                new["variant"],
                to_text(new["code"]),
                new["creator_id"],
                new["language"],
                now,
                new["starts_at"],
                new["time_limit"],
                new["chosen"],
            )
            assert row is not None
            await conn.execute(
                "INSERT INTO race_players (race_id, user_id, joined_at) VALUES ($1, $2, $3)",
                row[0],
                new["creator_id"],
                now,
            )
        return race_row(row)

    async def get_race(self, race_id: int) -> RaceRow | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(SELECT_RACE, race_id)
        return None if row is None else race_row(row)

    async def set_race_message(self, race_id: int, message_id: int) -> RaceRow | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                f"UPDATE races SET message_id = $2 WHERE id = $1 RETURNING {RACE_COLUMNS}",
                race_id,
                message_id,
            )
        return None if row is None else race_row(row)

    async def join_race(self, race_id: int, user_id: int, limit: int, now: dt.datetime) -> JoinOutcome:
        async with self._transaction() as conn:
            race = await self._locked(conn, race_id)  # joins of one race take turns: the limit holds
            if race is None or race[9] != "lobby":
                return "closed"
            row = await conn.fetchrow(
                "SELECT count(*), count(*) FILTER (WHERE user_id = $2) FROM race_players WHERE race_id = $1",
                race_id,
                user_id,
            )
            assert row is not None
            if row[1]:
                return "already"
            if row[0] >= limit:
                return "full"
            await conn.execute(
                "INSERT INTO race_players (race_id, user_id, joined_at) VALUES ($1, $2, $3)",
                race_id,
                user_id,
                now,
            )
        return "joined"

    async def leave_race(self, race_id: int, user_id: int, now: dt.datetime) -> RaceRow | None:
        async with self._transaction() as conn:
            race = await self._locked(conn, race_id)
            if race is None or race[9] != "lobby":
                return None
            gone = await conn.fetchrow(
                "DELETE FROM race_players WHERE race_id = $1 AND user_id = $2 RETURNING user_id",
                race_id,
                user_id,
            )
            if gone is None:
                return None
            heir = await conn.fetchval(
                "SELECT user_id FROM race_players WHERE race_id = $1 ORDER BY joined_at, user_id LIMIT 1",
                race_id,
            )
            if heir is None:
                await conn.execute(
                    "UPDATE races SET status = 'cancelled', cancelled_by = 'empty', finished_at = $2 WHERE id = $1",
                    race_id,
                    now,
                )
            elif race[7] == user_id:
                await conn.execute("UPDATE races SET creator_id = $2 WHERE id = $1", race_id, heir)
            row = await conn.fetchrow(SELECT_RACE, race_id)
        return race_row(row)

    async def race_players(self, race_id: int) -> list[RacePlayer]:
        async with self._transaction(write=False) as conn:
            rows = await conn.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM race_players WHERE race_id = $1 ORDER BY joined_at, user_id",
                race_id,
            )
        return [race_rows.player_row(r, DECODE) for r in rows]

    async def race_games(self, race_id: int) -> list[GameRow]:
        async with self._transaction(write=False) as conn:
            rows = await conn.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id IN "
                "(SELECT game_id FROM race_players WHERE race_id = $1 AND game_id IS NOT NULL) ORDER BY id",
                race_id,
            )
        return [game_row(r, DECODE) for r in rows]

    async def start_race(self, race_id: int, min_players: int, now: dt.datetime) -> RaceRow | None:
        async with self._transaction() as conn:
            race = await self._locked(conn, race_id)
            if race is None or race[9] != "lobby":
                return None
            players = await conn.fetchval("SELECT count(*) FROM race_players WHERE race_id = $1", race_id)
            if players < min_players:
                row = await conn.fetchrow(
                    "UPDATE races SET status = 'cancelled', cancelled_by = 'too_few', finished_at = $2 WHERE id = $1 "
                    f"RETURNING {RACE_COLUMNS}",
                    race_id,
                    now,
                )
            else:
                row = await conn.fetchrow(
                    "UPDATE races SET status = 'running', started_at = $2, ends_at = $3 WHERE id = $1 "
                    f"RETURNING {RACE_COLUMNS}",
                    race_id,
                    now,
                    race_rows.ends(now, race[12]),
                )
        return race_row(row)

    async def cancel_race(self, race_id: int, now: dt.datetime) -> RaceRow | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE races SET status = 'cancelled', cancelled_by = 'creator', finished_at = $2 WHERE id = $1 "
                "AND status = 'lobby' "
                f"RETURNING {RACE_COLUMNS}",
                race_id,
                now,
            )
        return None if row is None else race_row(row)

    async def set_race_game(self, race_id: int, user_id: int, game_id: int) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE race_players SET game_id = $3 WHERE race_id = $1 AND user_id = $2",
                race_id,
                user_id,
                game_id,
            )

    async def finish_race(
        self, race_id: int, places: list[tuple[int, int]], now: dt.datetime
    ) -> RaceRow | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE races SET status = 'finished', finished_at = $2 WHERE id = $1 AND status = 'running' "
                f"RETURNING {RACE_COLUMNS}",
                race_id,
                now,
            )
            if row is None:
                return None
            await conn.executemany(
                "UPDATE race_players SET place = $3 WHERE race_id = $1 AND user_id = $2",
                [(race_id, user, place) for user, place in places],
            )
        return race_row(row)

    async def claim_race_result(self, race_id: int, now: dt.datetime, stale_before: dt.datetime) -> bool:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE races SET result_claimed_at = $2 WHERE id = $1 AND status = 'finished' "
                "AND result_message_id IS NULL AND (result_claimed_at IS NULL OR result_claimed_at <= $3) "
                "RETURNING id",
                race_id,
                now,
                stale_before,
            )
        return row is not None

    async def record_race_result(self, race_id: int, message_id: int) -> RaceRow | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE races SET result_message_id = $2 WHERE id = $1 AND result_claimed_at IS NOT NULL "
                f"RETURNING {RACE_COLUMNS}",
                race_id,
                message_id,
            )
        return None if row is None else race_row(row)

    async def settle_race(self, race_id: int) -> None:
        async with self._transaction() as conn:
            await conn.execute("UPDATE races SET settled = true WHERE id = $1", race_id)

    async def unsettled_races(self) -> list[RaceRow]:
        async with self._transaction(write=False) as conn:
            rows = await conn.fetch(f"SELECT {RACE_COLUMNS} FROM races WHERE NOT settled ORDER BY id")
        return [race_row(r) for r in rows]

    async def race_of_game(self, game_id: int) -> RaceRow | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                f"SELECT {RACE_COLUMNS} FROM races WHERE id = "
                "(SELECT race_id FROM race_players WHERE game_id = $1)",
                game_id,
            )
        return None if row is None else race_row(row)

    async def open_race_of(self, user_id: int, kind: str) -> RaceRow | None:
        columns = ", ".join(f"r.{c.strip()}" for c in RACE_COLUMNS.split(","))
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                f"SELECT {columns} FROM race_players p JOIN races r ON r.id = p.race_id "
                f"WHERE p.user_id = $1 AND r.kind = $2 AND r.status IN ('lobby', 'running') AND {STILL_IN} "
                "ORDER BY r.id LIMIT 1",
                user_id,
                kind,
            )
        return None if row is None else race_row(row)

    async def race_record(self, user_id: int, kind: str, guild_id: int | None) -> RaceRecord | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                f"SELECT p.user_id, count(*), count(*) FILTER (WHERE {RACE_WON}) FROM race_players p "
                f"JOIN races r ON r.id = p.race_id {WITH_GAME} WHERE p.user_id = $1 AND r.kind = $2 "
                f"AND r.status = 'finished' AND p.game_id IS NOT NULL AND {COUNTED} "
                "AND ($3::bigint IS NULL OR r.guild_id = $3) GROUP BY p.user_id",
                user_id,
                kind,
                guild_id,
            )
        return None if row is None else record_row(row)

    async def race_leaderboard(
        self, kind: str, scope: tuple[str, int], limit: int, offset: int
    ) -> list[RaceRecord]:
        column, value = scope
        async with self._transaction(write=False) as conn:
            rows = await conn.fetch(
                f"SELECT p.user_id, count(*) AS played, count(*) FILTER (WHERE {RACE_WON}) AS won "
                f"FROM race_players p JOIN races r ON r.id = p.race_id {WITH_GAME} "
                f"WHERE r.{column} = $1 AND r.kind = $2 "
                f"AND r.status = 'finished' AND p.game_id IS NOT NULL AND {COUNTED} GROUP BY p.user_id "
                "ORDER BY won DESC, played, p.user_id LIMIT $3 OFFSET $4",
                value,
                kind,
                limit,
                offset,
            )
        return [record_row(r) for r in rows]
