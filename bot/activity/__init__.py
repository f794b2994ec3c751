"""The Activity: a web page Discord shows in a channel or call, where players move the cards
themselves, on the bot's own game service (``server``) with Discord's OAuth2 (``auth``).

No discord.py here: the bot hands in what needs its client (``bot.adapter.activity``)."""
