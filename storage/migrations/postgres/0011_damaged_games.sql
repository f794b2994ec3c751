-- Games whose stored record no longer replays (its moves edited or damaged): marked once, by the
-- bot that found it, and kept as they are for the operator to look at (issue 25).
CREATE TABLE damaged_games (
    game_id   bigint PRIMARY KEY REFERENCES games (id),
    reason    text NOT NULL,
    marked_at timestamptz NOT NULL
);
