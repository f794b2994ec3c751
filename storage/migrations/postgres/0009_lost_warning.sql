-- "This deal can no longer be won" on the board (issue 28; SQLite: 0013_lost_warning.sql).
--
-- user_settings.lost_warning: the player's /settings choice, NULL = the default (on), false off.
-- games.warned, results.warned: the board warned that this game's deal could no longer be
-- won. The warning is not help: it changes no rank.
ALTER TABLE user_settings ADD COLUMN lost_warning boolean;
ALTER TABLE games ADD COLUMN warned boolean NOT NULL DEFAULT false;
ALTER TABLE results ADD COLUMN warned boolean NOT NULL DEFAULT false;
