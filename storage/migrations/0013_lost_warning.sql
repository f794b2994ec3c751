-- Schema version 13: "this deal can no longer be won" on the board (issue 28).
--
-- user_settings.lost_warning: the player's /settings choice, NULL = the default (on), 0 off.
-- games.warned, results.warned: the board warned that this game's deal could no longer be
-- won (1). The warning is not help: it changes no rank (PostgreSQL: postgres/0009_lost_warning.sql).
ALTER TABLE user_settings ADD COLUMN lost_warning INTEGER CHECK (lost_warning IS NULL OR lost_warning IN (0, 1));
ALTER TABLE games ADD COLUMN warned INTEGER NOT NULL DEFAULT 0 CHECK (warned IN (0, 1));
ALTER TABLE results ADD COLUMN warned INTEGER NOT NULL DEFAULT 0 CHECK (warned IN (0, 1));
