"""Leaderboards, player stats, daily results and the daily codes on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any

from storage import rows
from storage import validate as v
from storage.interface import SOURCES, FinishedGame, LeaderboardEntry
from storage.postgres.base import DECODE, PostgresBase, from_text, to_text
from storage.rows import (
    ALL_VARIANTS,
    MAIN_SOURCE,
    RANK_ORDER,
    RESULT_COLUMNS,
    SUMMARY_COLUMNS,
    Summary,
    combine_stats,
    prefixed,
    result_row,
    summary_scope,
)

SUMMARY_WHERE = "b.scope = $1 AND b.scope_id = $2 AND b.kind = $3 AND b.variant = $4 AND b.source = $5"


def _where(board: v.Board) -> tuple[str, list[Any]]:
    """WHERE clause and parameters ($1, $2...) selecting the results a leaderboard ranks."""
    params: list[Any] = []
    clauses: list[str] = []

    def add(clause: str, value: object) -> None:
        params.append(value)
        clauses.append(clause.format(f"${len(params)}"))

    add("kind = {}", board.kind)
    if board.channel_id is not None:
        add("channel_id = {}", board.channel_id)
    elif board.guild_id is not None:
        add("guild_id = {}", board.guild_id)
    if board.variant is not None:
        add("variant = {}", board.variant)
    if board.since is not None:
        add("finished_at >= {}", board.since)
    if board.daily is not None:
        add("counts_for_daily AND daily_date = {}", board.daily)
    if board.code is not None:
        add("code = {}", to_text(board.code))
    elif board.daily is None:
        add("source = {}", MAIN_SOURCE)
    return " AND ".join(clauses), params


def _summary(board: v.Board) -> list[Any]:
    scope, scope_id, variant = summary_scope(board.channel_id, board.guild_id, board.variant)
    return [scope, scope_id, board.kind, variant, MAIN_SOURCE]


class RankingsMixin(PostgresBase):
    async def leaderboard(self, board: v.Board, limit: int, offset: int) -> list[LeaderboardEntry]:
        if board.summarised:
            # One page of the per-player summaries, in index order.
            sql = (
                f"SELECT {prefixed('r', RESULT_COLUMNS)}, b.played, b.won FROM player_bests b "
                f"JOIN results r ON r.game_id = b.game_id WHERE {SUMMARY_WHERE} "
                "ORDER BY b.rank_key, b.finished_at, b.game_id LIMIT $6 OFFSET $7"
            )
            params = _summary(board)
        elif board.is_global:
            # The global daily board: a player has one counted attempt a day (results_daily_first),
            # so the page is read straight off results_daily_rank in rank order, skipping the
            # offset in the index alone (an index-only scan), then the page's rows.
            where, params = _where(board)
            n = len(params)
            sql = (
                f"WITH page AS (SELECT game_id, rank_key, finished_at FROM results WHERE {where} "
                f"  ORDER BY {RANK_ORDER} LIMIT ${n + 1} OFFSET ${n + 2}"
                f") SELECT {prefixed('r', RESULT_COLUMNS)}, 1, (r.status = 'won')::int FROM page "
                "JOIN results r ON r.game_id = page.game_id "
                "ORDER BY page.rank_key, page.finished_at, page.game_id"
            )
        else:
            where, params = _where(board)
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
        return rows.leaderboard_page(found, offset, DECODE)

    async def leaderboard_size(self, board: v.Board) -> int:
        if board.summarised:
            sql = f"SELECT count(*) FROM player_bests b WHERE {SUMMARY_WHERE}"
            params = _summary(board)
        elif board.is_global:  # one counted attempt per player
            where, params = _where(board)
            sql = f"SELECT count(*) FROM results WHERE {where}"
        else:
            where, params = _where(board)
            sql = f"SELECT count(DISTINCT user_id) FROM results WHERE {where}"
        async with self._transaction(write=False) as conn:
            return int(await conn.fetchval(sql, *params))

    async def player_stats(
        self, user_id: int, kind: str, scope: tuple[str, int]
    ) -> tuple[Summary, list[dt.date]]:
        async with self._transaction(write=False) as conn:
            summaries = await conn.fetch(
                f"SELECT b.source, {prefixed('b', SUMMARY_COLUMNS)}, {prefixed('r', RESULT_COLUMNS)} "
                "FROM player_bests b JOIN results r ON r.game_id = b.game_id "
                # Every source named, so the primary key (… variant, source, user_id) finds the
                # player's rows rather than a scan of the scope's players.
                "WHERE b.scope = $1 AND b.scope_id = $2 AND b.kind = $3 AND b.variant = $4 "
                "AND b.source = ANY($6::text[]) AND b.user_id = $5",
                *scope,
                kind,
                ALL_VARIANTS,
                user_id,
                list(SOURCES),
            )
            days = await conn.fetch(
                "SELECT daily_date FROM results WHERE user_id = $1 AND kind = $2 AND counts_for_daily",
                user_id,
                kind,
            )
        return combine_stats(summaries, DECODE), [d[0] for d in days]

    async def daily_results(
        self, kind: str, date: dt.date, guild_id: int | None, limit: int, offset: int
    ) -> list[FinishedGame]:
        where = "kind = $1 AND daily_date = $2 AND counts_for_daily"
        params: list[Any] = [kind, date]
        if guild_id is not None:
            params.append(guild_id)
            where += " AND guild_id = $3"
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
        async with self._transaction(write=False) as conn:
            code = await conn.fetchval(
                "SELECT code FROM daily_codes WHERE kind = $1 AND date = $2", kind, date
            )
        return None if code is None else from_text(code)

    async def set_daily_code(self, kind: str, date: dt.date, code: str, now: dt.datetime) -> str:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO daily_codes (kind, date, code, created_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (kind, date) DO NOTHING",
                kind,
                date,
                to_text(code),
                now,
            )
            stored = await conn.fetchval(
                "SELECT code FROM daily_codes WHERE kind = $1 AND date = $2", kind, date
            )
        return from_text(stored)
