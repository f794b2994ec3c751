"""Running the bot: settings, logging without secrets, where it may connect, shards, the invite
link and opening its database. Operator-facing modules belong here."""
