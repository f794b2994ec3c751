-- A game's option is an opaque per-game variant, not free cells: each game's front
-- names its own option as a short text (Jeu du Boulanger: its cell count, '4'; a
-- game without one, such as Calculation: ''). Every row keeps its meaning: a cell
-- count n becomes 'n', no cells (NULL; 0 in the deal stock, which meant "no free
-- cells") becomes '', and the summaries' "every cell count" (-1) becomes '*'
-- ("every variant", which no game's variant may be). Indexes and keys follow the
-- renamed columns. (SQLite: 0012_variant.sql.)
ALTER TABLE games ALTER COLUMN cells TYPE text USING coalesce(cells::text, '');
ALTER TABLE games ALTER COLUMN cells SET DEFAULT '';
ALTER TABLE games ALTER COLUMN cells SET NOT NULL;
ALTER TABLE games RENAME COLUMN cells TO variant;

ALTER TABLE results ALTER COLUMN cells TYPE text USING coalesce(cells::text, '');
ALTER TABLE results ALTER COLUMN cells SET DEFAULT '';
ALTER TABLE results ALTER COLUMN cells SET NOT NULL;
ALTER TABLE results RENAME COLUMN cells TO variant;

ALTER TABLE races ALTER COLUMN cells TYPE text USING coalesce(cells::text, '');
ALTER TABLE races ALTER COLUMN cells SET DEFAULT '';
ALTER TABLE races ALTER COLUMN cells SET NOT NULL;
ALTER TABLE races RENAME COLUMN cells TO variant;

ALTER TABLE player_bests ALTER COLUMN cells TYPE text
    USING CASE WHEN cells = -1 THEN '*' ELSE cells::text END;
ALTER TABLE player_bests RENAME COLUMN cells TO variant;

ALTER TABLE winnable_deals ALTER COLUMN cells TYPE text
    USING CASE WHEN cells = 0 THEN '' ELSE cells::text END;
ALTER TABLE winnable_deals RENAME COLUMN cells TO variant;
