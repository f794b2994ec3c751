"""Leaderboards, player stats, daily results and the daily codes on SQLite."""

from __future__ import annotations

import datetime as dt
from typing import Any

from storage import validate as v
from storage.interface import SOURCES, FinishedGame, LeaderboardEntry
from storage.rows import MAIN_SOURCE, PLAYED, SUMMARY_COLUMNS, Summary, combine_stats, leaderboard_page
from storage.sqlite.base import SqliteBase
from storage.sqlite.inthread import Conn
from storage.sqlite.rows import (
    ALL_VARIANTS,
    DECODE,
    RANK_ORDER,
    RESULT_COLUMNS,
    SUMMARY_WHERE,
    prefixed,
    result_row,
    summary_params,
    to_ms,
)


def _where(board: v.Board) -> tuple[str, list[Any]]:
    """WHERE clause and parameters selecting the results a leaderboard ranks."""
    clauses = ["kind = ?"]
    params: list[Any] = [board.kind]
    if board.channel_id is not None:
        clauses.append("channel_id = ?")
        params.append(board.channel_id)
    elif board.guild_id is not None:
        clauses.append("guild_id = ?")
        params.append(board.guild_id)
    if board.variant is not None:
        clauses.append("variant = ?")
        params.append(board.variant)
    if board.since is not None:
        clauses.append("finished_at >= ?")
        params.append(to_ms(board.since))
    if board.daily is not None:
        clauses.append("counts_for_daily = 1 AND daily_date = ?")
        params.append(board.daily.isoformat())
    if board.code is not None:
        clauses.append("code = ?")
        params.append(board.code)
    elif board.daily is None:
        clauses.append("source = ?")
        params.append(MAIN_SOURCE)
    clauses.append(PLAYED)  # a game ended before its first move is ranked nowhere
    return " AND ".join(clauses), params


class RankingsMixin(SqliteBase):
    async def leaderboard(self, board: v.Board, limit: int, offset: int) -> list[LeaderboardEntry]:
        if board.summarised:
            # One page of the per-player summaries, in index order.
            sql = (
                f"SELECT {prefixed('r', RESULT_COLUMNS)}, b.played, b.won FROM player_bests b "
                f"JOIN results r ON r.game_id = b.game_id WHERE {SUMMARY_WHERE} "
                "ORDER BY b.rank_key, b.finished_at, b.game_id LIMIT ? OFFSET ?"
            )
            params = summary_params(board.kind, board.channel_id, board.guild_id, board.variant)
        elif board.is_global:
            # The global daily board: a player has one counted attempt a day (results_daily_first),
            # so the page is read straight off results_daily_rank in rank order, skipping the
            # offset in the index alone, then the page's rows.
            where, params = _where(board)
            sql = (
                f"WITH page AS (SELECT game_id, rank_key, finished_at FROM results WHERE {where} "
                f"  ORDER BY {RANK_ORDER} LIMIT ? OFFSET ?"
                f") SELECT {prefixed('r', RESULT_COLUMNS)}, 1, r.status = 'won' FROM page "
                "JOIN results r ON r.game_id = page.game_id "
                "ORDER BY page.rank_key, page.finished_at, page.game_id"
            )
        else:
            where, params = _where(board)
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
                f") SELECT {prefixed('r', RESULT_COLUMNS)}, page.played, page.won FROM page "
                "JOIN results r ON r.game_id = page.game_id "
                "ORDER BY page.rank_key, page.finished_at, page.game_id"
            )
        rows = await self._read(lambda conn: self._all(conn, sql, (*params, limit, offset)))
        return leaderboard_page(rows, offset, DECODE)

    async def leaderboard_size(self, board: v.Board) -> int:
        if board.summarised:
            sql = f"SELECT count(*) FROM player_bests b WHERE {SUMMARY_WHERE}"
            params = summary_params(board.kind, board.channel_id, board.guild_id, board.variant)
        elif board.is_global:  # one counted attempt per player
            where, params = _where(board)
            sql = f"SELECT count(*) FROM results WHERE {where}"
        else:
            where, params = _where(board)
            sql = f"SELECT count(DISTINCT user_id) FROM results WHERE {where}"
        row = await self._read(lambda conn: self._one(conn, sql, params))
        return int(row[0])

    async def player_stats(
        self, user_id: int, kind: str, scope: tuple[str, int]
    ) -> tuple[Summary, list[dt.date]]:
        async def op(conn: Conn) -> tuple[list[Any], list[Any]]:
            summaries = await self._all(
                conn,
                f"SELECT b.source, {prefixed('b', SUMMARY_COLUMNS)}, {prefixed('r', RESULT_COLUMNS)} "
                "FROM player_bests b JOIN results r ON r.game_id = b.game_id "
                # Every source named, so the primary key (… variant, source, user_id) finds the
                # player's rows rather than a scan of the scope's players (10 ms at 100,000 results).
                "WHERE b.scope = ? AND b.scope_id = ? AND b.kind = ? AND b.variant = ? "
                f"AND b.source IN ({', '.join('?' * len(SOURCES))}) AND b.user_id = ?",
                (*scope, kind, ALL_VARIANTS, *SOURCES, user_id),
            )
            days = await self._all(
                conn,
                "SELECT daily_date FROM results INDEXED BY results_daily_first "
                "WHERE user_id = ? AND kind = ? AND counts_for_daily = 1",
                (user_id, kind),
            )
            return summaries, days

        summaries, days = await self._read(op)
        return combine_stats(summaries, DECODE), [dt.date.fromisoformat(d[0]) for d in days]

    async def daily_results(
        self, kind: str, date: dt.date, guild_id: int | None, limit: int, offset: int
    ) -> list[FinishedGame]:
        where = "kind = ? AND daily_date = ? AND counts_for_daily = 1"
        params: list[Any] = [kind, date.isoformat()]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._read(
            lambda conn: self._all(
                conn,
                f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} ORDER BY {RANK_ORDER} LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        )
        return [result_row(r) for r in rows]

    async def daily_code(self, kind: str, date: dt.date) -> str | None:
        row = await self._read(
            lambda conn: self._one(
                conn, "SELECT code FROM daily_codes WHERE kind = ? AND date = ?", (kind, date.isoformat())
            )
        )
        return None if row is None else str(row[0])

    async def set_daily_code(self, kind: str, date: dt.date, code: str, now: dt.datetime) -> str:
        params = (kind, date.isoformat())

        async def op(conn: Conn) -> str:
            await conn.execute(
                "INSERT INTO daily_codes (kind, date, code, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (kind, date) DO NOTHING",
                (*params, code, to_ms(now)),
            )
            row = await self._one(conn, "SELECT code FROM daily_codes WHERE kind = ? AND date = ?", params)
            return str(row[0])

        return await self._write(op)
