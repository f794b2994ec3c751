"""``/climb``: start a game of Climb (its start command until the game record builds it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cogs.starting import start_game


class Climb(commands.Cog):
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="climb", description="Start a game of Climb")
    async def climb(self, interaction: discord.Interaction, code: str | None = None) -> None:
        await start_game(interaction, "climb", code=code)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Climb(bot))
