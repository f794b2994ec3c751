"""``/klondike``: start a game of Klondike, drawing one card or three from the stock."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cogs.starting import start_game
from bot.games.klondike.front import DRAWS

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot


class Klondike(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot

    @app_commands.command(name="klondike", description="Start a game of Klondike (the classic solitaire)")
    @app_commands.describe(
        draw="Cards turned from the stock at a time: 1 (default) or 3, harder",
        code="Replay a deal by its code, e.g. KL1-D3-AAAAA24",
    )
    @app_commands.choices(draw=[app_commands.Choice(name=str(n), value=n) for n in DRAWS])
    async def klondike(
        self,
        interaction: discord.Interaction,
        draw: app_commands.Choice[int] | None = None,
        code: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Deal a new game (or the deal of ``code``) and post its board."""
        await start_game(interaction, "klondike", cells=draw.value if draw else None, code=code)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Klondike(cast("BoulangerBot", bot)))
