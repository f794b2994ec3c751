-- A guild's daily post stops when Discord refuses its channel (403 no access, 404 deleted):
-- daily_disabled holds why; while it is set the guild's post is not due. Setting the daily
-- channel again clears it. (SQLite: 0006_daily_disabled.sql.)
ALTER TABLE guild_settings ADD COLUMN daily_disabled text;
