-- Races (issue #17; SQLite: 0010_races.sql): several players play the same deal at the
-- same time. A race is a lobby, then running, then finished or cancelled; ``settled``
-- turns true once its last message work is done (the result posted, the lobby shown
-- as cancelled), so a restarted bot knows what to resume.
CREATE TABLE races (
    id                bigserial   PRIMARY KEY,
    guild_id          bigint,
    channel_id        bigint      NOT NULL,
    message_id        bigint,
    kind              text        NOT NULL,
    cells             integer,
    code              text        NOT NULL,
    creator_id        bigint      NOT NULL,
    language          text,
    status            text        NOT NULL DEFAULT 'lobby'
                      CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    created_at        timestamptz NOT NULL,
    starts_at         timestamptz NOT NULL,
    time_limit        integer     NOT NULL CHECK (time_limit > 0),
    started_at        timestamptz,
    ends_at           timestamptz,
    finished_at       timestamptz,
    result_claimed_at timestamptz,
    result_message_id bigint,
    -- Why a cancelled race was: its creator, too few players at the start, everyone left.
    cancelled_by      text CHECK (cancelled_by IN ('creator', 'too_few', 'empty')),
    settled           boolean     NOT NULL DEFAULT false
);
CREATE INDEX races_unsettled ON races (settled, status);
CREATE INDEX races_channel ON races (channel_id, kind, status);

CREATE TABLE race_players (
    race_id   bigint      NOT NULL REFERENCES races (id),
    user_id   bigint      NOT NULL,
    joined_at timestamptz NOT NULL,
    game_id   bigint      REFERENCES games (id),
    place     integer,
    PRIMARY KEY (race_id, user_id)
);
CREATE INDEX race_players_user ON race_players (user_id, race_id);
CREATE UNIQUE INDEX race_players_game ON race_players (game_id) WHERE game_id IS NOT NULL;
