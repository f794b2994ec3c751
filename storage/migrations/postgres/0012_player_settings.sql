-- Schema version 12 (SQLite: 0016_player_settings.sql): a player's settings by name.
--
-- A game's front may declare settings of its own (a rule players can turn off, say); each
-- is stored here as one row under a name the front chooses ("<kind>.<setting>") and a short
-- text value. Storage only keeps and returns them: it knows no name. No row means the
-- front's default, so a setting added later needs no migration.
CREATE TABLE player_settings (
    user_id    bigint      NOT NULL,
    name       text        NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    value      text        NOT NULL CHECK (length(value) BETWEEN 1 AND 64),
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, name)
);
