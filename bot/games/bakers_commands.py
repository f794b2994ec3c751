"""``/boulanger``: start a game of Jeu du Boulanger."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cogs.starting import start_game

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot


class Bakers(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot

    @app_commands.command(name="boulanger", description="Start a game of Jeu du Boulanger (Baker's Game)")
    @app_commands.describe(
        cells="Free cells: 4 (default), 2 or 1 — fewer is much harder",
        code="Replay a deal by its code, e.g. BK1-C4-AAAAA24",
        any_deal="Deal any shuffle, even one that cannot be won (default: only winnable deals)",
    )
    @app_commands.choices(
        cells=[app_commands.Choice(name=str(n), value=n) for n in (4, 2, 1)],
    )
    async def boulanger(
        self,
        interaction: discord.Interaction,
        cells: app_commands.Choice[int] | None = None,
        code: app_commands.Range[str, 1, 64] | None = None,
        any_deal: bool = False,
    ) -> None:
        """Deal a new game (a proven-winnable deal unless asked otherwise) and post its board."""
        await start_game(
            interaction, "bakers", cells=cells.value if cells else None, code=code, any_deal=any_deal
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Bakers(cast("BoulangerBot", bot)))
