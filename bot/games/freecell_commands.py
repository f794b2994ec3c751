"""``/freecell``: start a game of FreeCell (a Microsoft deal by its number, or a random one the
solver has won)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cogs.starting import start_game
from engine.freecell import MS_DEALS

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot


class FreeCell(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="freecell", description="Start a game of FreeCell (Microsoft's deals by number)"
    )
    @app_commands.describe(
        cells="Free cells: 4 (default), 3, 2 or 1 — fewer is much harder",
        deal="Microsoft's deal number, 1 to 1000000 (e.g. 11982)",
        code="Replay a deal by its code, e.g. FC1-C4-MS11982 (or #11982)",
        any_deal="Deal any number, even one that cannot be won (default: only winnable deals)",
    )
    @app_commands.choices(cells=[app_commands.Choice(name=str(n), value=n) for n in (4, 3, 2, 1)])
    async def freecell(
        self,
        interaction: discord.Interaction,
        cells: app_commands.Choice[int] | None = None,
        deal: app_commands.Range[int, MS_DEALS.low, MS_DEALS.high] | None = None,
        code: app_commands.Range[str, 1, 64] | None = None,
        any_deal: bool = False,
    ) -> None:
        """Deal a new game (a proven-winnable deal unless a number or code is given) and post it."""
        count = cells.value if cells else None
        typed = f"#{deal}" if deal is not None and code is None else code
        await start_game(interaction, "freecell", cells=count, code=typed, any_deal=any_deal)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FreeCell(cast("BoulangerBot", bot)))
