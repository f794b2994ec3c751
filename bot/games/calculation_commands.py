"""``/calculation``: start a game of Calculation (Broken Intervals)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cogs.starting import start_game

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot


class Calculation(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot

    @app_commands.command(name="calculation", description="Start a game of Calculation (Broken Intervals)")
    @app_commands.describe(code="Replay a deal by its code, e.g. CA1-AAAAA24")
    async def calculation(
        self, interaction: discord.Interaction, code: app_commands.Range[str, 1, 64] | None = None
    ) -> None:
        """Deal a new game (any shuffle: almost all can be won with perfect play) and post its board."""
        await start_game(interaction, "calculation", code=code)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Calculation(cast("BoulangerBot", bot)))
