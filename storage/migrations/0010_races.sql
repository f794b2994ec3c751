-- Races (issue #17): several players play the same deal at the same time. (PostgreSQL:
-- postgres/0006_races.sql.) A race is a lobby, then running, then finished or
-- cancelled; ``settled`` turns 1 once its last message work is done (the result
-- posted, the lobby shown as cancelled), so a restarted bot knows what to resume.
CREATE TABLE races (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER,
    channel_id        INTEGER NOT NULL,
    message_id        INTEGER,
    kind              TEXT    NOT NULL,
    cells             INTEGER,
    code              TEXT    NOT NULL,
    creator_id        INTEGER NOT NULL,
    language          TEXT,
    status            TEXT    NOT NULL DEFAULT 'lobby'
                      CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    created_at        INTEGER NOT NULL,
    starts_at         INTEGER NOT NULL,
    time_limit        INTEGER NOT NULL CHECK (time_limit > 0),
    started_at        INTEGER,
    ends_at           INTEGER,
    finished_at       INTEGER,
    result_claimed_at INTEGER,
    result_message_id INTEGER,
    -- Why a cancelled race was: its creator, too few players at the start, everyone left.
    cancelled_by      TEXT CHECK (cancelled_by IN ('creator', 'too_few', 'empty')),
    settled           INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX races_unsettled ON races (settled, status);
CREATE INDEX races_channel ON races (channel_id, kind, status);

CREATE TABLE race_players (
    race_id   INTEGER NOT NULL REFERENCES races (id),
    user_id   INTEGER NOT NULL,
    joined_at INTEGER NOT NULL,
    game_id   INTEGER REFERENCES games (id),
    place     INTEGER,
    PRIMARY KEY (race_id, user_id)
);
CREATE INDEX race_players_user ON race_players (user_id, race_id);
CREATE UNIQUE INDEX race_players_game ON race_players (game_id) WHERE game_id IS NOT NULL;
