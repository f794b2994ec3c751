"""Python steps of migrations: what a schema change needs that SQL cannot compute.

A step runs right after its migration's SQL, in the same transaction, so a
database is never left half upgraded and no step runs twice. Steps are named
after their migration's file stem, shared by both dialects (SQLite's
``0009_time_help_home.sql`` and PostgreSQL's ``0005_time_help_home.sql``),
and written once against ``Sql``: the backend adapts it to its driver.

``time_help_home`` (schema 9): the new ``home`` (cards on the foundations)
and ``undos`` of every stored game come from replaying its action log in the
engine; then every result's ``rank_key`` is recomputed with the new rules
(``engine.Finish``) and the per-player summaries are rebuilt from the
history. Old games have no first-move time, so their results stay untimed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import engine
from engine import Finish
from storage import ranking
from storage.rows import PLAYED, played_sql, split_moves

# Rows read and written per round trip while upgrading.
BATCH = 1000


class Sql(Protocol):
    """The migration's connection, inside its transaction. SQL uses ``?`` placeholders."""

    async def rows(self, sql: str, *params: Any) -> Sequence[Sequence[Any]]: ...

    async def many(self, sql: str, params: Sequence[Sequence[Any]]) -> None: ...

    async def run(self, sql: str) -> None: ...


def game_facts(kind: str, code: str, moves: str, status: str, score: int) -> tuple[int | None, int]:
    """(cards home, undos) of a stored game; home is None if the engine cannot replay it
    (a kind no longer registered, a log an older rule accepted). The replay is skipped
    when the status and score tell the cards home (a win, a Calculation game)."""
    actions = split_moves(moves)
    undos = sum(1 for a in actions if a.lower() == engine.UNDO)
    cls = engine.GAMES.get(kind)
    if cls is None:
        return None, undos
    known = cls.cards_home_of(status, score)
    if known is not None:
        return known, undos
    try:
        return engine.replay(code, actions).cards_home, undos
    except engine.EngineError:
        return None, undos


async def _fill_games(sql: Sql) -> None:
    last = -1
    while True:
        found = await sql.rows(
            "SELECT id, kind, code, moves, status, score FROM games WHERE id > ? ORDER BY id LIMIT ?",
            last,
            BATCH,
        )
        if not found:
            return
        updates = [(*game_facts(*facts), game_id) for game_id, *facts in found]
        await sql.many("UPDATE games SET home = ?, undos = ? WHERE id = ?", updates)
        last = found[-1][0]


async def _rekey_results(sql: Sql) -> None:
    await sql.run(
        "UPDATE results SET home = (SELECT g.home FROM games g WHERE g.id = results.game_id), "
        "undos = coalesce((SELECT g.undos FROM games g WHERE g.id = results.game_id), 0)"
    )
    last = -1
    while True:
        found = await sql.rows(
            "SELECT game_id, kind, status, score, move_count, home, seconds, hints FROM results "
            "WHERE game_id > ? ORDER BY game_id LIMIT ?",
            last,
            BATCH,
        )
        if not found:
            return
        keys = [
            (ranking.rank_key(kind, Finish(status, score, moves, home, seconds, hints)), game_id)
            for game_id, kind, status, score, moves, home, seconds, hints in found
        ]
        await sql.many("UPDATE results SET rank_key = ? WHERE game_id = ?", keys)
        last = found[-1][0]


# Every summary a result counts in (rows.summary_keys), folded per player: counts and sums,
# and the best game by (rank_key, finished_at, game_id). Portable SQLite / PostgreSQL.
REBUILD_SUMMARIES = """
INSERT INTO player_bests (scope, scope_id, kind, cells, source, user_id, played, won, rank_key, finished_at,
                          game_id, best_score, won_seconds, timed_wins, fastest)
SELECT scope, scope_id, kind, cells, source, user_id, played, won, rank_key, finished_at, game_id, top,
       won_seconds, timed_wins, fastest FROM (
    SELECT s.scope, s.scope_id, s.kind, s.cells, s.source, s.user_id, s.rank_key, s.finished_at, s.game_id,
           row_number() OVER g AS n,
           count(*) OVER k AS played,
           sum(CASE WHEN s.status = 'won' THEN 1 ELSE 0 END) OVER k AS won,
           max(s.score) OVER k AS top,
           coalesce(sum(CASE WHEN s.status = 'won' THEN s.seconds END) OVER k, 0) AS won_seconds,
           sum(CASE WHEN s.status = 'won' AND s.seconds IS NOT NULL THEN 1 ELSE 0 END) OVER k AS timed_wins,
           min(CASE WHEN s.status = 'won' THEN s.seconds END) OVER k AS fastest
    FROM (
        SELECT 'p' AS scope, 0 AS scope_id, kind, -1 AS cells, source, user_id, rank_key, finished_at, game_id,
               status, score, seconds
            FROM results
        UNION ALL
        SELECT 'p', 0, kind, cells, source, user_id, rank_key, finished_at, game_id, status, score, seconds
            FROM results WHERE cells IS NOT NULL
        UNION ALL
        SELECT 'g', guild_id, kind, -1, source, user_id, rank_key, finished_at, game_id, status, score, seconds
            FROM results WHERE guild_id IS NOT NULL
        UNION ALL
        SELECT 'g', guild_id, kind, cells, source, user_id, rank_key, finished_at, game_id, status, score,
               seconds
            FROM results WHERE guild_id IS NOT NULL AND cells IS NOT NULL
        UNION ALL
        SELECT 'c', channel_id, kind, -1, source, user_id, rank_key, finished_at, game_id, status, score,
               seconds
            FROM results WHERE channel_id IS NOT NULL
        UNION ALL
        SELECT 'c', channel_id, kind, cells, source, user_id, rank_key, finished_at, game_id, status, score,
               seconds
            FROM results WHERE channel_id IS NOT NULL AND cells IS NOT NULL
    ) AS s
    WINDOW k AS (PARTITION BY s.scope, s.scope_id, s.kind, s.cells, s.source, s.user_id),
           g AS (PARTITION BY s.scope, s.scope_id, s.kind, s.cells, s.source, s.user_id
                 ORDER BY s.rank_key, s.finished_at, s.game_id)
) AS ranked WHERE n = 1
"""


async def time_help_home(sql: Sql) -> None:
    await _fill_games(sql)
    await _rekey_results(sql)
    await sql.run("DELETE FROM player_bests")
    await sql.run(REBUILD_SUMMARIES)


# REBUILD_SUMMARIES for the schema from 12 on, where a game's option is an opaque variant
# (storage.rows.summary_keys): "every variant" is '*', a game without one has ''.
VARIANT_SUMMARIES = (
    REBUILD_SUMMARIES.replace("cells", "variant")
    .replace("-1", "'*'")
    .replace("variant IS NOT NULL", "variant <> ''")
)


async def uncount_unplayed(sql: Sql) -> None:
    """Games ended before their first move leave the summaries and the daily: the daily's counted
    attempt goes to the player's first played one that day, and the summaries are rebuilt."""
    await sql.run(f"UPDATE results SET counts_for_daily = (1 = 0) WHERE NOT {PLAYED}")
    await sql.run(
        "UPDATE results SET counts_for_daily = (1 = 1) WHERE daily_date IS NOT NULL "
        f"AND {PLAYED} AND game_id = (SELECT r.game_id FROM results r WHERE r.user_id = results.user_id "
        "AND r.kind = results.kind AND r.daily_date = results.daily_date "
        f"AND {played_sql('r')} ORDER BY r.finished_at, r.game_id LIMIT 1) "
        "AND NOT EXISTS (SELECT 1 FROM results c WHERE c.user_id = results.user_id AND c.kind = results.kind "
        "AND c.daily_date = results.daily_date AND c.counts_for_daily = (1 = 1))"
    )
    await sql.run("DELETE FROM player_bests")
    await sql.run(
        VARIANT_SUMMARIES.replace("FROM results", f"FROM (SELECT * FROM results WHERE {PLAYED}) AS results")
    )


STEPS: dict[str, Callable[[Sql], Awaitable[None]]] = {
    "time_help_home": time_help_home,
    "uncount_unplayed": uncount_unplayed,
}


def step_for(migration_name: str) -> Callable[[Sql], Awaitable[None]] | None:
    """The Python step of a migration file (``0009_time_help_home.sql``), if it has one."""
    stem = migration_name.removesuffix(".sql").split("_", 1)[-1]
    return STEPS.get(stem)
