-- A race on a deal its creator chose (a typed code) is a friendly race: only the creator
-- knew the deal before the start, so it counts for no one's races played or won. Races
-- from before this version count, as they did. (SQLite: 0011_race_chosen.sql.)
ALTER TABLE races ADD COLUMN chosen boolean NOT NULL DEFAULT false;
