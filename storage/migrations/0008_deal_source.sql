-- Schema version 8: comparable games only. Every game and history row records
-- where its deal came from: 'stock' (a new deal from the winnable stock, or a
-- Calculation random deal), 'daily' (the daily challenge) or 'practice' (a
-- typed code or any_deal). Existing rows become 'stock', or 'daily' when they
-- have a daily date. (PostgreSQL: postgres/0004_deal_source.sql.)
ALTER TABLE games ADD COLUMN source TEXT NOT NULL DEFAULT 'stock'
    CHECK (source IN ('stock', 'daily', 'practice'));
UPDATE games SET source = 'daily' WHERE daily_date IS NOT NULL;
ALTER TABLE results ADD COLUMN source TEXT NOT NULL DEFAULT 'stock'
    CHECK (source IN ('stock', 'daily', 'practice'));
UPDATE results SET source = 'daily' WHERE daily_date IS NOT NULL;

-- The per-player summaries are kept per source too: the main leaderboards read
-- the 'stock' rows, stats add the sources up (best: every source but practice).
-- Rebuilt from the history, with the highest score of each summary.
DROP TABLE player_bests;
CREATE TABLE player_bests (
    scope       TEXT    NOT NULL CHECK (scope IN ('p', 'g', 'c')),
    scope_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    cells       INTEGER NOT NULL,
    source      TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    played      INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    rank_key    INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    best_score  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, scope_id, kind, cells, source, user_id)
) WITHOUT ROWID;

CREATE INDEX player_bests_rank
    ON player_bests (scope, scope_id, kind, cells, source, rank_key, finished_at, game_id);

INSERT INTO player_bests (scope, scope_id, kind, cells, source, user_id, played, won, rank_key, finished_at,
                          game_id, best_score)
SELECT scope, scope_id, kind, cells, source, user_id, played, won, rank_key, finished_at, game_id, top FROM (
    SELECT s.scope, s.scope_id, s.kind, s.cells, s.source, s.user_id, s.rank_key, s.finished_at, s.game_id,
           row_number() OVER g AS n,
           count(*) OVER k AS played,
           sum(s.status = 'won') OVER k AS won,
           max(s.score) OVER k AS top
    FROM (
        SELECT 'p' AS scope, 0 AS scope_id, kind, -1 AS cells, source, user_id, rank_key, finished_at, game_id,
               status, score
            FROM results
        UNION ALL
        SELECT 'p', 0, kind, cells, source, user_id, rank_key, finished_at, game_id, status, score
            FROM results WHERE cells IS NOT NULL
        UNION ALL
        SELECT 'g', guild_id, kind, -1, source, user_id, rank_key, finished_at, game_id, status, score
            FROM results WHERE guild_id IS NOT NULL
        UNION ALL
        SELECT 'g', guild_id, kind, cells, source, user_id, rank_key, finished_at, game_id, status, score
            FROM results WHERE guild_id IS NOT NULL AND cells IS NOT NULL
        UNION ALL
        SELECT 'c', channel_id, kind, -1, source, user_id, rank_key, finished_at, game_id, status, score
            FROM results WHERE channel_id IS NOT NULL
        UNION ALL
        SELECT 'c', channel_id, kind, cells, source, user_id, rank_key, finished_at, game_id, status, score
            FROM results WHERE channel_id IS NOT NULL AND cells IS NOT NULL
    ) AS s
    WINDOW k AS (PARTITION BY s.scope, s.scope_id, s.kind, s.cells, s.source, s.user_id),
           g AS (PARTITION BY s.scope, s.scope_id, s.kind, s.cells, s.source, s.user_id
                 ORDER BY s.rank_key, s.finished_at, s.game_id)
) WHERE n = 1;

-- This week's boards filter on source: the covering indexes carry it.
DROP INDEX results_channel_time;
DROP INDEX results_guild_time;
CREATE INDEX results_channel_time
    ON results (channel_id, kind, finished_at, user_id, rank_key, game_id, status, cells, source);
CREATE INDEX results_guild_time
    ON results (guild_id, kind, finished_at, user_id, rank_key, game_id, status, cells, source);
-- A deal's board (/leaderboard code:): every game of one code in a channel or guild.
CREATE INDEX results_channel_code ON results (channel_id, kind, code, user_id, rank_key, finished_at, game_id);
CREATE INDEX results_guild_code ON results (guild_id, kind, code, user_id, rank_key, finished_at, game_id);
