-- Schema version 9: time, help and progress on the record, and race games.
--
-- games: hints (asked for), undos (taken), home (cards on the foundations now,
-- kept by every move), first_move_at (when the clock of the game started).
-- results: the same facts as the game ended, seconds = first move -> finish.
-- player_bests: won_seconds and timed_wins (the average winning time), fastest.
-- The source CHECK gains 'race' (a race game, issue #17). SQLite cannot change
-- a CHECK, so games and results are rebuilt by SQLite's documented procedure,
-- with foreign keys off (the migrator checks none was broken afterwards).
-- home is NULL on the rows copied here: the upgrade step that runs after the
-- migrations (storage/upgrade.py) replays those games in the engine, fills in
-- home and undos, recomputes every rank_key with the new rules and rebuilds
-- player_bests. (PostgreSQL: postgres/0005_time_help_home.sql.)
-- migrator: foreign keys off
CREATE TABLE games_new (
    id            INTEGER PRIMARY KEY,
    kind          TEXT    NOT NULL CHECK (kind <> ''),
    code          TEXT    NOT NULL,
    cells         INTEGER,
    owner_id      INTEGER NOT NULL,
    guild_id      INTEGER,
    channel_id    INTEGER,
    message_id    INTEGER,
    moves         TEXT    NOT NULL DEFAULT '',
    action_count  INTEGER NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    status        TEXT    NOT NULL DEFAULT 'active'
                          CHECK (status IN ('active', 'won', 'lost', 'resigned')),
    score         INTEGER NOT NULL DEFAULT 0,
    move_count    INTEGER NOT NULL DEFAULT 0,
    started_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    daily_date    TEXT,
    version       INTEGER NOT NULL DEFAULT 1,
    source        TEXT    NOT NULL DEFAULT 'stock'
                          CHECK (source IN ('stock', 'daily', 'practice', 'race')),
    hints         INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0),
    undos         INTEGER NOT NULL DEFAULT 0 CHECK (undos >= 0),
    home          INTEGER,
    first_move_at INTEGER,
    CHECK ((status = 'active') = (finished_at IS NULL))
);

-- An old game in progress with moves starts its clock at its start.
INSERT INTO games_new (id, kind, code, cells, owner_id, guild_id, channel_id, message_id, moves, action_count,
                       status, score, move_count, started_at, updated_at, finished_at, daily_date, version,
                       source, first_move_at)
SELECT id, kind, code, cells, owner_id, guild_id, channel_id, message_id, moves, action_count,
       status, score, move_count, started_at, updated_at, finished_at, daily_date, version, source,
       CASE WHEN status = 'active' AND moves <> '' THEN started_at END
FROM games;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX games_one_active ON games (owner_id, kind) WHERE status = 'active';

CREATE TABLE results_new (
    game_id          INTEGER PRIMARY KEY REFERENCES games (id),
    kind             TEXT    NOT NULL,
    code             TEXT    NOT NULL,
    cells            INTEGER,
    user_id          INTEGER NOT NULL,
    guild_id         INTEGER,
    channel_id       INTEGER,
    status           TEXT    NOT NULL CHECK (status IN ('won', 'lost', 'resigned')),
    score            INTEGER NOT NULL,
    move_count       INTEGER NOT NULL,
    rank_key         INTEGER NOT NULL,
    finished_at      INTEGER NOT NULL,
    daily_date       TEXT,
    counts_for_daily INTEGER NOT NULL DEFAULT 0 CHECK (counts_for_daily IN (0, 1)),
    source           TEXT    NOT NULL DEFAULT 'stock'
                             CHECK (source IN ('stock', 'daily', 'practice', 'race')),
    hints            INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0),
    undos            INTEGER NOT NULL DEFAULT 0 CHECK (undos >= 0),
    home             INTEGER,
    seconds          INTEGER CHECK (seconds IS NULL OR seconds >= 0)
);

INSERT INTO results_new (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, move_count,
                         rank_key, finished_at, daily_date, counts_for_daily, source)
SELECT game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, move_count,
       rank_key, finished_at, daily_date, counts_for_daily, source
FROM results;

DROP TABLE results;
ALTER TABLE results_new RENAME TO results;

ALTER TABLE player_bests ADD COLUMN won_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_bests ADD COLUMN timed_wins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_bests ADD COLUMN fastest INTEGER;

-- The upgrade step (cards home, undos, every rank_key, player_bests) runs here, before the
-- history's indexes exist: re-keying a million rows is far quicker without them.
-- migrator: python step here

CREATE UNIQUE INDEX results_daily_first ON results (user_id, kind, daily_date) WHERE counts_for_daily = 1;
-- The daily board, of one channel, one server or everywhere (the global board walks this index).
CREATE INDEX results_daily_rank ON results (kind, daily_date, rank_key, finished_at, game_id)
    WHERE counts_for_daily = 1;
CREATE INDEX results_channel_time
    ON results (channel_id, kind, finished_at, user_id, rank_key, game_id, status, cells, source);
CREATE INDEX results_guild_time
    ON results (guild_id, kind, finished_at, user_id, rank_key, game_id, status, cells, source);
CREATE INDEX results_channel_code ON results (channel_id, kind, code, user_id, rank_key, finished_at, game_id);
CREATE INDEX results_guild_code ON results (guild_id, kind, code, user_id, rank_key, finished_at, game_id);
