"""Running the bot: settings, logging without secrets, where it may connect, shards, the invite
link and opening its database; and as a service: the graceful stop, health and metrics over HTTP,
backups and the migrations' status. Operator-facing modules belong here."""
