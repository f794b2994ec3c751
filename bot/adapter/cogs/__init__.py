"""One cog per concern: each game's start command, playing, the daily challenge, rankings."""
