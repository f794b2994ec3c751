"""Leaderboards, player stats, daily results and the daily codes on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any

from storage import ranking, rows
from storage import validate as v
from storage.interface import FinishedGame, LeaderboardEntry, PlayerStats
from storage.postgres_base import DECODE, PostgresBase, from_text, to_text
from storage.rows import (
    ALL_CELLS,
    RANK_ORDER,
    RESULT_COLUMNS,
    prefixed,
    result_row,
    stats_scope,
    summary_scope,
)

SUMMARY_WHERE = "b.scope = $1 AND b.scope_id = $2 AND b.kind = $3 AND b.cells = $4"


class RankingsMixin(PostgresBase):
    def _board(
        self,
        kind: str,
        channel_id: int | None,
        guild_id: int | None,
        period: str,
        cells: int | None,
        daily_date: dt.date | None,
        now: dt.datetime | None,
    ) -> tuple[v.Board, str, list[Any]]:
        """The checked request, and a WHERE clause and parameters selecting the results it ranks."""
        moment = self._now() if now is None else v.moment("now", now)
        board = v.board(kind, channel_id, guild_id, period, cells, daily_date, moment)
        params: list[Any] = [board.kind]
        clauses = ["kind = $1"]

        def add(clause: str, value: object) -> None:
            params.append(value)
            clauses.append(clause.format(f"${len(params)}"))

        if board.channel_id is not None:
            add("channel_id = {}", board.channel_id)
        else:
            add("guild_id = {}", board.guild_id)
        if board.cells is not None:
            add("cells = {}", board.cells)
        if board.since is not None:
            add("finished_at >= {}", board.since)
        if board.daily is not None:
            add("counts_for_daily AND daily_date = {}", board.daily)
        return board, " AND ".join(clauses), params

    @staticmethod
    def _summary(board: v.Board) -> list[Any]:
        scope, scope_id, cells = summary_scope(board.channel_id, board.guild_id, board.cells)
        return [scope, scope_id, board.kind, cells]

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
        board, where, params = self._board(kind, channel_id, guild_id, period, cells, daily_date, now)
        limit, offset = v.page(limit, offset)
        if board.period == "all":
            # One page of the per-player summaries, in index order.
            sql = (
                f"SELECT {prefixed('r', RESULT_COLUMNS)}, b.played, b.won FROM player_bests b "
                f"JOIN results r ON r.game_id = b.game_id WHERE {SUMMARY_WHERE} "
                "ORDER BY b.rank_key, b.finished_at, b.game_id LIMIT $5 OFFSET $6"
            )
            params = self._summary(board)
        else:
            n = len(params)
            # Each player's best in the period, then the page's rows.
            sql = (
                "WITH ranked AS ("
                "  SELECT game_id, rank_key, finished_at,"
                f"   row_number() OVER (PARTITION BY user_id ORDER BY {RANK_ORDER}) AS n,"
                "    count(*) OVER (PARTITION BY user_id) AS played,"
                "    count(*) FILTER (WHERE status = 'won') OVER (PARTITION BY user_id) AS won"
                f"  FROM results WHERE {where}"
                "), page AS ("
                f"  SELECT game_id, played, won, rank_key, finished_at FROM ranked WHERE n = 1 ORDER BY {RANK_ORDER}"
                f"   LIMIT ${n + 1} OFFSET ${n + 2}"
                f") SELECT {prefixed('r', RESULT_COLUMNS)}, page.played, page.won FROM page "
                "JOIN results r ON r.game_id = page.game_id "
                "ORDER BY page.rank_key, page.finished_at, page.game_id"
            )
        async with self._transaction(write=False) as conn:
            found = await conn.fetch(sql, *params, limit, offset)
        return rows.leaderboard(found, offset, DECODE)

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
        board, where, params = self._board(kind, channel_id, guild_id, period, cells, daily_date, now)
        if board.period == "all":
            sql = f"SELECT count(*) FROM player_bests b WHERE {SUMMARY_WHERE}"
            params = self._summary(board)
        else:
            sql = f"SELECT count(DISTINCT user_id) FROM results WHERE {where}"
        async with self._transaction(write=False) as conn:
            return int(await conn.fetchval(sql, *params))

    async def player_stats(
        self, user_id: int, kind: str, *, guild_id: int | None = None, today: dt.date | None = None
    ) -> PlayerStats:
        user = v.snowflake("user_id", user_id)
        kind = v.kind(kind)
        scope = stats_scope(v.snowflake("guild_id", guild_id, optional=True))
        today = v.day("today", today, optional=True) or self._now().date()
        async with self._transaction(write=False) as conn:
            summary = await conn.fetchrow(
                f"SELECT b.played, b.won, b.best_score, {prefixed('r', RESULT_COLUMNS)} FROM player_bests b "
                "JOIN results r ON r.game_id = b.game_id "
                "WHERE b.scope = $1 AND b.scope_id = $2 AND b.kind = $3 AND b.cells = $4 AND b.user_id = $5",
                *scope,
                kind,
                ALL_CELLS,
                user,
            )
            days = await conn.fetch(
                "SELECT daily_date FROM results WHERE user_id = $1 AND kind = $2 AND counts_for_daily",
                user,
                kind,
            )
        dates: list[dt.date] = [d[0] for d in days]
        current, longest = ranking.streaks(dates, today)
        return PlayerStats(
            user_id=user,
            kind=kind,
            played=summary[0] if summary else 0,
            won=summary[1] if summary else 0,
            best=result_row(summary[3:], DECODE) if summary else None,
            current_streak=current,
            best_streak=longest,
            last_daily=max(dates) if dates else None,
            best_score=summary[2] if summary else 0,
        )

    async def daily_results(
        self, kind: str, date: dt.date, *, guild_id: int | None = None, limit: int = 100, offset: int = 0
    ) -> list[FinishedGame]:
        params: list[Any] = [v.kind(kind), v.day("date", date)]
        where = "kind = $1 AND daily_date = $2 AND counts_for_daily"
        if guild_id is not None:
            params.append(v.snowflake("guild_id", guild_id))
            where += " AND guild_id = $3"
        limit, offset = v.page(limit, offset)
        n = len(params)
        async with self._transaction(write=False) as conn:
            found = await conn.fetch(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} ORDER BY {RANK_ORDER} "
                f"LIMIT ${n + 1} OFFSET ${n + 2}",
                *params,
                limit,
                offset,
            )
        return [result_row(r, DECODE) for r in found]

    async def daily_code(self, kind: str, date: dt.date) -> str | None:
        params = (v.kind(kind), v.day("date", date))
        async with self._transaction(write=False) as conn:
            code = await conn.fetchval("SELECT code FROM daily_codes WHERE kind = $1 AND date = $2", *params)
        return None if code is None else from_text(code)

    async def set_daily_code(self, kind: str, date: dt.date, code: str) -> str:
        params = (v.kind(kind), v.day("date", date))
        checked = v.code(code)
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO daily_codes (kind, date, code, created_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (kind, date) DO NOTHING",
                *params,
                to_text(checked),
                self._now(),
            )
            stored = await conn.fetchval(
                "SELECT code FROM daily_codes WHERE kind = $1 AND date = $2", *params
            )
        return from_text(stored)
