"""Running the bot as a service: settings, logging, the graceful stop, health and metrics,
backups and the migrations' status (what an operator or a supervisor deals with)."""
