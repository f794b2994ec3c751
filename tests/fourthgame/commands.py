"""``/ladder``: start a game of Ladder (its start command until the game record builds it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cogs.starting import start_game


class Ladder(commands.Cog):
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="ladder", description="Start a game of Ladder")
    async def ladder(self, interaction: discord.Interaction, code: str | None = None) -> None:
        await start_game(interaction, "ladder", code=code)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Ladder(bot))
