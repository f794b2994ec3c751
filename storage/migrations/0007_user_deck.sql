-- The deck a player chose with /settings: 'two' (red and black) or 'four' (four colours);
-- NULL is the default two-colour deck.
ALTER TABLE user_settings ADD COLUMN deck TEXT CHECK (deck IS NULL OR deck IN ('two', 'four'));
