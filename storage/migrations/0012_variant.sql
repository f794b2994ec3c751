-- Schema version 12: a game's option is an opaque per-game variant, not free cells.
--
-- Storage no longer knows what free cells are: each game's front names its own
-- option as a short text (Jeu du Boulanger: its cell count, "4"; a game without
-- one, such as Calculation: ""). Every row keeps its meaning: a cell count n
-- becomes 'n', no cells (NULL; 0 in the deal stock, which meant "no free cells")
-- becomes '', and the summaries' "every cell count" (-1) becomes '*' ("every
-- variant", which no game's variant may be). (PostgreSQL: postgres/0008_variant.sql.)
DROP INDEX results_channel_time;
DROP INDEX results_guild_time;

ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT '';
UPDATE games SET variant = CAST(cells AS TEXT) WHERE cells IS NOT NULL;
ALTER TABLE games DROP COLUMN cells;

ALTER TABLE results ADD COLUMN variant TEXT NOT NULL DEFAULT '';
UPDATE results SET variant = CAST(cells AS TEXT) WHERE cells IS NOT NULL;
ALTER TABLE results DROP COLUMN cells;

ALTER TABLE races ADD COLUMN variant TEXT NOT NULL DEFAULT '';
UPDATE races SET variant = CAST(cells AS TEXT) WHERE cells IS NOT NULL;
ALTER TABLE races DROP COLUMN cells;

CREATE INDEX results_channel_time
    ON results (channel_id, kind, finished_at, user_id, rank_key, game_id, status, variant, source);
CREATE INDEX results_guild_time
    ON results (guild_id, kind, finished_at, user_id, rank_key, game_id, status, variant, source);

-- The variant is part of these two tables' keys: rebuilt (nothing refers to them).
CREATE TABLE player_bests_new (
    scope       TEXT    NOT NULL CHECK (scope IN ('p', 'g', 'c')),
    scope_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    played      INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    rank_key    INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    best_score  INTEGER NOT NULL DEFAULT 0,
    won_seconds INTEGER NOT NULL DEFAULT 0,
    timed_wins  INTEGER NOT NULL DEFAULT 0,
    fastest     INTEGER,
    PRIMARY KEY (scope, scope_id, kind, variant, source, user_id)
) WITHOUT ROWID;
INSERT INTO player_bests_new (scope, scope_id, kind, variant, source, user_id, played, won, rank_key,
                              finished_at, game_id, best_score, won_seconds, timed_wins, fastest)
SELECT scope, scope_id, kind, CASE WHEN cells = -1 THEN '*' ELSE CAST(cells AS TEXT) END, source, user_id,
       played, won, rank_key, finished_at, game_id, best_score, won_seconds, timed_wins, fastest
    FROM player_bests;
DROP TABLE player_bests;
ALTER TABLE player_bests_new RENAME TO player_bests;
CREATE INDEX player_bests_rank
    ON player_bests (scope, scope_id, kind, variant, source, rank_key, finished_at, game_id);

CREATE TABLE winnable_deals_new (
    kind     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    deal     INTEGER NOT NULL,
    added_at INTEGER NOT NULL,
    taken_at INTEGER,
    PRIMARY KEY (kind, variant, deal)
);
INSERT INTO winnable_deals_new (kind, variant, deal, added_at, taken_at)
SELECT kind, CASE WHEN cells = 0 THEN '' ELSE CAST(cells AS TEXT) END, deal, added_at, taken_at
    FROM winnable_deals;
DROP TABLE winnable_deals;
ALTER TABLE winnable_deals_new RENAME TO winnable_deals;
CREATE INDEX winnable_deals_free ON winnable_deals (kind, variant, deal) WHERE taken_at IS NULL;
