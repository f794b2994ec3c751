"""Races on SQLite: the lobby, its players, the start, the result claim (``storage.store`` checks first)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from storage import race_rows
from storage.interface import JoinOutcome, RacePlayer, RaceRecord, RaceRow
from storage.race_rows import COUNTED, PLAYER_COLUMNS, RACE_COLUMNS, RACE_WON, STILL_IN, WITH_GAME, record_row
from storage.sqlite.base import SqliteBase
from storage.sqlite.inthread import Conn
from storage.sqlite.rows import DECODE, GAME_COLUMNS, game_row, to_ms

SELECT_RACE = f"SELECT {RACE_COLUMNS} FROM races WHERE id = ?"


def race_row(row: Any) -> RaceRow:
    return race_rows.race_row(row, DECODE)


class RacesMixin(SqliteBase):
    async def create_race(self, new: dict[str, Any], now: dt.datetime) -> RaceRow:
        async def op(conn: Conn) -> RaceRow:
            row = await self._one(
                conn,
                "INSERT INTO races (guild_id, channel_id, kind, variant, code, creator_id, language, "
                "created_at, starts_at, time_limit, chosen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                f"RETURNING {RACE_COLUMNS}",
                (
                    new["guild_id"],
                    new["channel_id"],
                    new["kind"],
                    new["variant"],
                    new["code"],
                    new["creator_id"],
                    new["language"],
                    to_ms(now),
                    to_ms(new["starts_at"]),
                    new["time_limit"],
                    int(new["chosen"]),
                ),
            )
            await conn.execute(
                "INSERT INTO race_players (race_id, user_id, joined_at) VALUES (?, ?, ?)",
                (row[0], new["creator_id"], to_ms(now)),
            )
            return race_row(row)

        return await self._write(op)

    async def get_race(self, race_id: int) -> RaceRow | None:
        row = await self._read(lambda conn: self._one(conn, SELECT_RACE, (race_id,)))
        return None if row is None else race_row(row)

    async def set_race_message(self, race_id: int, message_id: int) -> RaceRow | None:
        async def op(conn: Conn) -> RaceRow | None:
            row = await self._one(
                conn,
                f"UPDATE races SET message_id = ? WHERE id = ? RETURNING {RACE_COLUMNS}",
                (message_id, race_id),
            )
            return None if row is None else race_row(row)

        return await self._write(op)

    async def join_race(self, race_id: int, user_id: int, limit: int, now: dt.datetime) -> JoinOutcome:
        async def op(conn: Conn) -> JoinOutcome:
            row = await self._one(
                conn,
                "SELECT r.status, (SELECT count(*) FROM race_players WHERE race_id = r.id), "
                "EXISTS (SELECT 1 FROM race_players WHERE race_id = r.id AND user_id = ?) "
                "FROM races r WHERE r.id = ?",
                (user_id, race_id),
            )
            if row is None or row[0] != "lobby":
                return "closed"
            if row[2]:
                return "already"
            if row[1] >= limit:
                return "full"
            await conn.execute(
                "INSERT INTO race_players (race_id, user_id, joined_at) VALUES (?, ?, ?)",
                (race_id, user_id, to_ms(now)),
            )
            return "joined"

        return await self._write(op)

    async def leave_race(self, race_id: int, user_id: int, now: dt.datetime) -> RaceRow | None:
        async def op(conn: Conn) -> RaceRow | None:
            race = await self._one(conn, SELECT_RACE, (race_id,))
            if race is None or race[9] != "lobby":
                return None
            gone = await self._one(
                conn,
                "DELETE FROM race_players WHERE race_id = ? AND user_id = ? RETURNING user_id",
                (race_id, user_id),
            )
            if gone is None:
                return None
            heir = await self._one(
                conn,
                "SELECT user_id FROM race_players WHERE race_id = ? ORDER BY joined_at, user_id LIMIT 1",
                (race_id,),
            )
            if heir is None:
                sql = "UPDATE races SET status = 'cancelled', cancelled_by = 'empty', finished_at = ? WHERE id = ?"
                await conn.execute(sql, (to_ms(now), race_id))
            elif race[7] == user_id:
                await conn.execute("UPDATE races SET creator_id = ? WHERE id = ?", (heir[0], race_id))
            return race_row(await self._one(conn, SELECT_RACE, (race_id,)))

        return await self._write(op)

    async def race_players(self, race_id: int) -> list[RacePlayer]:
        rows = await self._read(
            lambda conn: self._all(
                conn,
                f"SELECT {PLAYER_COLUMNS} FROM race_players WHERE race_id = ? ORDER BY joined_at, user_id",
                (race_id,),
            )
        )
        return [race_rows.player_row(r, DECODE) for r in rows]

    async def race_games(self, race_id: int) -> list[Any]:
        rows = await self._read(
            lambda conn: self._all(
                conn,
                f"SELECT {GAME_COLUMNS} FROM games WHERE id IN "
                "(SELECT game_id FROM race_players WHERE race_id = ? AND game_id IS NOT NULL) ORDER BY id",
                (race_id,),
            )
        )
        return [game_row(r) for r in rows]

    async def start_race(self, race_id: int, min_players: int, now: dt.datetime) -> RaceRow | None:
        async def op(conn: Conn) -> RaceRow | None:
            race = await self._one(conn, SELECT_RACE, (race_id,))
            if race is None or race[9] != "lobby":
                return None
            (players,) = await self._one(
                conn, "SELECT count(*) FROM race_players WHERE race_id = ?", (race_id,)
            )
            if players < min_players:
                sql = f"UPDATE races SET status = 'cancelled', cancelled_by = 'too_few', finished_at = ? WHERE id = ? RETURNING {RACE_COLUMNS}"
                return race_row(await self._one(conn, sql, (to_ms(now), race_id)))
            ends = race_rows.ends(now, race[12])
            row = await self._one(
                conn,
                "UPDATE races SET status = 'running', started_at = ?, ends_at = ? WHERE id = ? "
                f"RETURNING {RACE_COLUMNS}",
                (to_ms(now), to_ms(ends), race_id),
            )
            return race_row(row)

        return await self._write(op)

    async def cancel_race(self, race_id: int, now: dt.datetime) -> RaceRow | None:
        async def op(conn: Conn) -> RaceRow | None:
            row = await self._one(
                conn,
                "UPDATE races SET status = 'cancelled', cancelled_by = 'creator', finished_at = ? WHERE id = ? "
                "AND status = 'lobby' "
                f"RETURNING {RACE_COLUMNS}",
                (to_ms(now), race_id),
            )
            return None if row is None else race_row(row)

        return await self._write(op)

    async def set_race_game(self, race_id: int, user_id: int, game_id: int) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "UPDATE race_players SET game_id = ? WHERE race_id = ? AND user_id = ?",
                (game_id, race_id, user_id),
            )

        await self._write(op)

    async def finish_race(
        self, race_id: int, places: list[tuple[int, int]], now: dt.datetime
    ) -> RaceRow | None:
        async def op(conn: Conn) -> RaceRow | None:
            row = await self._one(
                conn,
                "UPDATE races SET status = 'finished', finished_at = ? WHERE id = ? AND status = 'running' "
                f"RETURNING {RACE_COLUMNS}",
                (to_ms(now), race_id),
            )
            if row is None:
                return None
            await conn.executemany(
                "UPDATE race_players SET place = ? WHERE race_id = ? AND user_id = ?",
                [(place, race_id, user) for user, place in places],
            )
            return race_row(row)

        return await self._write(op)

    async def claim_race_result(self, race_id: int, now: dt.datetime, stale_before: dt.datetime) -> bool:
        async def op(conn: Conn) -> bool:
            row = await self._one(
                conn,
                "UPDATE races SET result_claimed_at = ? WHERE id = ? AND status = 'finished' "
                "AND result_message_id IS NULL AND (result_claimed_at IS NULL OR result_claimed_at <= ?) "
                "RETURNING id",
                (to_ms(now), race_id, to_ms(stale_before)),
            )
            return row is not None

        return await self._write(op)

    async def record_race_result(self, race_id: int, message_id: int) -> RaceRow | None:
        async def op(conn: Conn) -> RaceRow | None:
            row = await self._one(
                conn,
                "UPDATE races SET result_message_id = ? WHERE id = ? AND result_claimed_at IS NOT NULL "
                f"RETURNING {RACE_COLUMNS}",
                (message_id, race_id),
            )
            return None if row is None else race_row(row)

        return await self._write(op)

    async def settle_race(self, race_id: int) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute("UPDATE races SET settled = 1 WHERE id = ?", (race_id,))

        await self._write(op)

    async def unsettled_races(self) -> list[RaceRow]:
        rows = await self._read(
            lambda conn: self._all(conn, f"SELECT {RACE_COLUMNS} FROM races WHERE settled = 0 ORDER BY id")
        )
        return [race_row(r) for r in rows]

    async def race_of_game(self, game_id: int) -> RaceRow | None:
        row = await self._read(
            lambda conn: self._one(
                conn,
                f"SELECT {RACE_COLUMNS} FROM races WHERE id = "
                "(SELECT race_id FROM race_players WHERE game_id = ?)",
                (game_id,),
            )
        )
        return None if row is None else race_row(row)

    async def open_race_of(self, user_id: int, kind: str) -> RaceRow | None:
        columns = ", ".join(f"r.{c.strip()}" for c in RACE_COLUMNS.split(","))
        row = await self._read(
            lambda conn: self._one(
                conn,
                f"SELECT {columns} FROM race_players p JOIN races r ON r.id = p.race_id "
                f"WHERE p.user_id = ? AND r.kind = ? AND r.status IN ('lobby', 'running') AND {STILL_IN} "
                "ORDER BY r.id LIMIT 1",
                (user_id, kind),
            )
        )
        return None if row is None else race_row(row)

    async def race_record(self, user_id: int, kind: str, guild_id: int | None) -> RaceRecord | None:
        where = "" if guild_id is None else " AND r.guild_id = ?"
        params: tuple[Any, ...] = (user_id, kind) if guild_id is None else (user_id, kind, guild_id)
        row = await self._read(
            lambda conn: self._one(
                conn,
                f"SELECT p.user_id, count(*), sum({RACE_WON}) FROM race_players p "
                f"JOIN races r ON r.id = p.race_id {WITH_GAME} WHERE p.user_id = ? AND r.kind = ? "
                f"AND r.status = 'finished' AND p.game_id IS NOT NULL AND {COUNTED}{where} GROUP BY p.user_id",
                params,
            )
        )
        return None if row is None else record_row(row)

    async def race_leaderboard(
        self, kind: str, scope: tuple[str, int], limit: int, offset: int
    ) -> list[RaceRecord]:
        column, value = scope
        rows = await self._read(
            lambda conn: self._all(
                conn,
                f"SELECT p.user_id, count(*) AS played, sum({RACE_WON}) AS won FROM race_players p "
                f"JOIN races r ON r.id = p.race_id {WITH_GAME} WHERE r.{column} = ? AND r.kind = ? "
                f"AND r.status = 'finished' AND p.game_id IS NOT NULL AND {COUNTED} GROUP BY p.user_id "
                "ORDER BY won DESC, played, p.user_id LIMIT ? OFFSET ?",
                (value, kind, limit, offset),
            )
        )
        return [record_row(r) for r in rows]
