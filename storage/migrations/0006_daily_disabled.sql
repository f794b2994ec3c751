-- Schema version 6: a guild's daily post stops when Discord refuses its channel.
--
-- A channel that answers 403 (no access) or 404 (deleted) would otherwise be
-- tried at every check, and Discord restricts an IP after 10,000 invalid
-- requests in 10 minutes. daily_disabled holds why (e.g. "403 Missing Access");
-- while it is set the guild's post is not due. Setting the daily channel again
-- clears it.
ALTER TABLE guild_settings ADD COLUMN daily_disabled TEXT;
