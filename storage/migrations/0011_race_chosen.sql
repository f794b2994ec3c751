-- Schema version 11: a race on a deal its creator chose (a typed code) is a friendly race.
--
-- Only the creator knew that deal before the start (everyone else sees its code in
-- the result), so they may have practised it: such a race is played and shown as
-- any other, but counts for no one's races played or won. Races from before this
-- version count, as they did.
ALTER TABLE races ADD COLUMN chosen INTEGER NOT NULL DEFAULT 0 CHECK (chosen IN (0, 1));
