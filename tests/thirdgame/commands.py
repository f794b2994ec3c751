"""``/tower``: start a game of Tower (the start command of the third game's front)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cogs.starting import start_game


class Tower(commands.Cog):
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="tower", description="Start a game of Tower")
    async def tower(self, interaction: discord.Interaction, code: str | None = None) -> None:
        await start_game(interaction, "tower", code=code)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tower(bot))
