-- Time, help and progress on the record, and race games (SQLite: 0009_time_help_home.sql).
--
-- games: hints (asked for), undos (taken), home (cards on the foundations now,
-- kept by every move), first_move_at (when the clock of the game started).
-- results: the same facts as the game ended, seconds = first move -> finish.
-- player_bests: won_seconds and timed_wins (the average winning time), fastest.
-- The source CHECK gains 'race' (a race game). home is NULL on existing rows:
-- the upgrade step after the migrations (storage/upgrade.py) replays those games,
-- fills in home and undos, recomputes every rank_key and rebuilds player_bests.
ALTER TABLE games DROP CONSTRAINT games_source_check;
ALTER TABLE games ADD CONSTRAINT games_source_check CHECK (source IN ('stock', 'daily', 'practice', 'race'));
ALTER TABLE games ADD COLUMN hints bigint NOT NULL DEFAULT 0 CHECK (hints >= 0);
ALTER TABLE games ADD COLUMN undos bigint NOT NULL DEFAULT 0 CHECK (undos >= 0);
ALTER TABLE games ADD COLUMN home integer;
ALTER TABLE games ADD COLUMN first_move_at timestamptz;
-- An old game in progress with moves starts its clock at its start.
UPDATE games SET first_move_at = started_at WHERE status = 'active' AND moves <> '';

ALTER TABLE results DROP CONSTRAINT results_source_check;
ALTER TABLE results ADD CONSTRAINT results_source_check
    CHECK (source IN ('stock', 'daily', 'practice', 'race'));
ALTER TABLE results ADD COLUMN hints bigint NOT NULL DEFAULT 0 CHECK (hints >= 0);
ALTER TABLE results ADD COLUMN undos bigint NOT NULL DEFAULT 0 CHECK (undos >= 0);
ALTER TABLE results ADD COLUMN home integer;
ALTER TABLE results ADD COLUMN seconds bigint CHECK (seconds IS NULL OR seconds >= 0);

ALTER TABLE player_bests ADD COLUMN won_seconds bigint NOT NULL DEFAULT 0;
ALTER TABLE player_bests ADD COLUMN timed_wins bigint NOT NULL DEFAULT 0;
ALTER TABLE player_bests ADD COLUMN fastest bigint;
