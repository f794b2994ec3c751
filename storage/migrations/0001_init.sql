-- Boulanger schema, version 1.
-- Times are UTC milliseconds since the Unix epoch; daily dates are 'YYYY-MM-DD'
-- (UTC days); Discord ids are INTEGER snowflakes (they fit in 64 bits).

-- One row per game. ``moves`` is the engine's action log joined by single
-- spaces (notations never contain spaces); ``action_count`` is the number of
-- entries, a cross-check against half-written rows. ``version`` increases by
-- one on every change to moves or status (optimistic concurrency).
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    kind         TEXT    NOT NULL CHECK (kind IN ('bakers', 'calculation')),
    code         TEXT    NOT NULL,
    cells        INTEGER,
    owner_id     INTEGER NOT NULL,
    guild_id     INTEGER,
    channel_id   INTEGER,
    message_id   INTEGER,
    moves        TEXT    NOT NULL DEFAULT '',
    action_count INTEGER NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    status       TEXT    NOT NULL DEFAULT 'active'
                         CHECK (status IN ('active', 'won', 'lost', 'resigned')),
    score        INTEGER NOT NULL DEFAULT 0,
    move_count   INTEGER NOT NULL DEFAULT 0,
    started_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    finished_at  INTEGER,
    daily_date   TEXT,
    version      INTEGER NOT NULL DEFAULT 1,
    CHECK ((status = 'active') = (finished_at IS NULL))
);

-- The database, not the bot, guarantees one active game per player per kind.
CREATE UNIQUE INDEX games_one_active ON games (owner_id, kind) WHERE status = 'active';

-- The score history: one row per finished game, copied from the game when it
-- ends. ``rank_key`` orders results within a kind (lower is better, see
-- storage/ranking.py); ties break by finished_at, then game_id.
-- ``counts_for_daily`` marks a player's first finished attempt at a daily
-- challenge; the partial unique index makes a second one impossible.
CREATE TABLE results (
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
    counts_for_daily INTEGER NOT NULL DEFAULT 0 CHECK (counts_for_daily IN (0, 1))
);

-- Leaderboards: per player best within a channel / guild, all time or since a time.
CREATE INDEX results_channel_best ON results (channel_id, kind, user_id, rank_key, finished_at, game_id);
CREATE INDEX results_channel_time ON results (channel_id, kind, finished_at);
CREATE INDEX results_guild_best ON results (guild_id, kind, user_id, rank_key, finished_at, game_id);
CREATE INDEX results_guild_time ON results (guild_id, kind, finished_at);
-- Player stats and best game.
CREATE INDEX results_user ON results (user_id, kind, rank_key, finished_at, game_id);
-- Daily challenge: first attempts only, unique per player; ranked per date.
CREATE UNIQUE INDEX results_daily_first ON results (user_id, kind, daily_date) WHERE counts_for_daily = 1;
CREATE INDEX results_daily_rank ON results (kind, daily_date, rank_key, finished_at, game_id)
    WHERE counts_for_daily = 1;

CREATE TABLE guild_settings (
    guild_id         INTEGER PRIMARY KEY,
    daily_channel_id INTEGER,
    post_minute      INTEGER NOT NULL DEFAULT 0 CHECK (post_minute BETWEEN 0 AND 1439),
    language         TEXT,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX guild_settings_daily ON guild_settings (daily_channel_id) WHERE daily_channel_id IS NOT NULL;

CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    language   TEXT,
    updated_at INTEGER NOT NULL
);

-- A row is a claim to post a guild's daily challenge for a date; message_id is
-- set once the post is sent. The primary key makes a double post impossible.
CREATE TABLE daily_posts (
    guild_id   INTEGER NOT NULL,
    date       TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    claimed_at INTEGER NOT NULL,
    posted_at  INTEGER,
    PRIMARY KEY (guild_id, date)
);

-- The day's challenge code per kind, written once.
CREATE TABLE daily_codes (
    kind       TEXT    NOT NULL,
    date       TEXT    NOT NULL,
    code       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (kind, date)
);

-- The solver's stock of proven-winnable deal numbers (cells 0 = not a Baker's
-- Game cell count, e.g. Calculation). A taken deal stays, marked, so it is
-- never handed out twice.
CREATE TABLE winnable_deals (
    kind     TEXT    NOT NULL,
    cells    INTEGER NOT NULL,
    deal     INTEGER NOT NULL,
    added_at INTEGER NOT NULL,
    taken_at INTEGER,
    PRIMARY KEY (kind, cells, deal)
);
CREATE INDEX winnable_deals_free ON winnable_deals (kind, cells, deal) WHERE taken_at IS NULL;
