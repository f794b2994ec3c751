-- Schema version 5: any game kind the engine registers can be stored.
--
-- Version 1 listed the kinds in a CHECK on games.kind, so a third game would
-- have needed a migration; storage now checks kinds against the engine's
-- registry (storage/validate.py) instead. SQLite cannot drop a CHECK, so the
-- table is rebuilt by SQLite's documented procedure, with foreign keys off
-- (results refer to games); the migrator then checks that none was broken:
-- migrator: foreign keys off
CREATE TABLE games_new (
    id           INTEGER PRIMARY KEY,
    kind         TEXT    NOT NULL CHECK (kind <> ''),
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

INSERT INTO games_new (id, kind, code, cells, owner_id, guild_id, channel_id, message_id, moves, action_count,
                       status, score, move_count, started_at, updated_at, finished_at, daily_date, version)
SELECT id, kind, code, cells, owner_id, guild_id, channel_id, message_id, moves, action_count,
       status, score, move_count, started_at, updated_at, finished_at, daily_date, version
FROM games;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

CREATE UNIQUE INDEX games_one_active ON games (owner_id, kind) WHERE status = 'active';
