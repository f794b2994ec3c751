"""The discord.py adapter: the client, its cogs (slash commands), the board's buttons and menu,
replies and the error ladder. It turns interactions into calls on ``bot.play`` and answers."""
