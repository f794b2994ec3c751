-- Schema version 2: per-player summaries so all-time leaderboards and stats
-- cost an index walk of one page instead of a scan of every result.
--
-- One row per (scope, scope_id, kind, cells, user): how many games the player
-- finished there, how many they won, and their best result by the ranking
-- rules (rank_key, then finished_at, then game_id). Scopes: 'p' everywhere
-- (scope_id 0), 'g' a guild, 'c' a channel. cells -1 means every cell count
-- (Calculation only has -1). Kept up to date in the transaction that writes
-- each history row; rebuilt here from the history.
CREATE TABLE player_bests (
    scope       TEXT    NOT NULL CHECK (scope IN ('p', 'g', 'c')),
    scope_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    cells       INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    played      INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    rank_key    INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    PRIMARY KEY (scope, scope_id, kind, cells, user_id)
) WITHOUT ROWID;

CREATE INDEX player_bests_rank ON player_bests (scope, scope_id, kind, cells, rank_key, finished_at, game_id);

INSERT INTO player_bests (scope, scope_id, kind, cells, user_id, played, won, rank_key, finished_at, game_id)
SELECT scope, scope_id, kind, cells, user_id, played, won, rank_key, finished_at, game_id FROM (
    SELECT s.scope, s.scope_id, s.kind, s.cells, s.user_id, s.rank_key, s.finished_at, s.game_id,
           row_number() OVER g AS n,
           count(*) OVER (PARTITION BY s.scope, s.scope_id, s.kind, s.cells, s.user_id) AS played,
           sum(s.status = 'won') OVER (PARTITION BY s.scope, s.scope_id, s.kind, s.cells, s.user_id) AS won
    FROM (
        SELECT 'p' AS scope, 0 AS scope_id, kind, -1 AS cells, user_id, rank_key, finished_at, game_id, status
            FROM results
        UNION ALL
        SELECT 'p', 0, kind, cells, user_id, rank_key, finished_at, game_id, status
            FROM results WHERE cells IS NOT NULL
        UNION ALL
        SELECT 'g', guild_id, kind, -1, user_id, rank_key, finished_at, game_id, status
            FROM results WHERE guild_id IS NOT NULL
        UNION ALL
        SELECT 'g', guild_id, kind, cells, user_id, rank_key, finished_at, game_id, status
            FROM results WHERE guild_id IS NOT NULL AND cells IS NOT NULL
        UNION ALL
        SELECT 'c', channel_id, kind, -1, user_id, rank_key, finished_at, game_id, status
            FROM results WHERE channel_id IS NOT NULL
        UNION ALL
        SELECT 'c', channel_id, kind, cells, user_id, rank_key, finished_at, game_id, status
            FROM results WHERE channel_id IS NOT NULL AND cells IS NOT NULL
    ) AS s
    WINDOW g AS (PARTITION BY s.scope, s.scope_id, s.kind, s.cells, s.user_id
                 ORDER BY s.rank_key, s.finished_at, s.game_id)
) WHERE n = 1;

-- Period leaderboards (this week) read only these covering indexes; the
-- per-player best indexes of version 1 are replaced by player_bests.
DROP INDEX results_channel_best;
DROP INDEX results_guild_best;
DROP INDEX results_channel_time;
DROP INDEX results_guild_time;
DROP INDEX results_user;
CREATE INDEX results_channel_time
    ON results (channel_id, kind, finished_at, user_id, rank_key, game_id, status, cells);
CREATE INDEX results_guild_time
    ON results (guild_id, kind, finished_at, user_id, rank_key, game_id, status, cells);
CREATE INDEX results_user ON results (user_id, kind, finished_at);
