"""The bot ``benchmarks/floor.py`` measures: discord.py doing nothing but answer, no game.

``/deal`` posts a board-sized message (the picture from ``BOULANGER_FLOOR_PNG``, 18 buttons
in four rows and a select of 12 choices, as a Jeu du Boulanger board has); any button edits
it with the same picture and components, through discord.py's own ``edit_message`` and a
persistent view. With ``BOULANGER_FLOOR_CARD=1`` the message is the real bot's board form
instead: one Components V2 card (a ``LayoutView``: container, text, media gallery, the
buttons and select as ``DynamicItem``s registered with the client, rebuilt for every answer)
sent through the same public ``edit_message``. No engine, no database, no drawing:
what a discord.py bot pays per press on this machine at the same pace, under uvloop like the
real bot (``BOULANGER_EVENT_LOOP=asyncio``: asyncio's).

    BotProcess(fake, module="benchmarks.floor_bot", env={"BOULANGER_FLOOR_PNG": path})
"""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path
from typing import Any

import discord
import yarl
from discord.ext import commands

PICTURE = (
    Path(os.environ.get("BOULANGER_FLOOR_PNG", "")).read_bytes()
    if os.environ.get("BOULANGER_FLOOR_PNG")
    else b""
)
BUTTONS = 18  # a Baker's board: 8 columns, 4 cells, foundation, home, undo, hint, clear...
CHOICES = 12


def menu_select(row: int | None = None) -> discord.ui.Select[Any]:
    """The board's "Another move…" menu, as long as the real one."""
    return discord.ui.Select(
        custom_id="floor:menu",
        placeholder="Another move…",
        options=[
            discord.SelectOption(label=f"7♥ from column {i} to cell a", value=f"{i}a", description=f"{i}a")
            for i in range(CHOICES)
        ],
        row=row,
    )


class Board(discord.ui.View):
    """Persistent (no timeout, fixed ids), like the real board's controls."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        for i in range(BUTTONS):
            button: discord.ui.Button[Board] = discord.ui.Button(
                label=f"{i} · 10♥", custom_id=f"floor:{i}", row=min(i // 5, 3)
            )
            button.callback = self.press  # type: ignore[method-assign]
            self.add_item(button)
        self.add_item(menu_select(row=4))

    async def press(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content="Board", attachments=[discord.File(io.BytesIO(PICTURE), "board.png")], view=Board()
        )


CARD = os.environ.get("BOULANGER_FLOOR_CARD") == "1"


class Key(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"floor:(?P<n>[0-9]+)"):
    """A card's button, as the real board's: all it needs is in its custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"{n} · 10♥", custom_id=f"floor:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> Key:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(
            view=card(), attachments=[discord.File(io.BytesIO(PICTURE), "board.png")]
        )


class Menu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"floor:menu"):
    def __init__(self) -> None:
        super().__init__(menu_select())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> Menu:
        return cls()


def card() -> discord.ui.LayoutView:
    """The board as the bot sends it now: one container, its text, picture and controls."""
    keys = [Key(i) for i in range(BUTTONS)]
    rows = [discord.ui.ActionRow(*keys[i : i + 5]) for i in range(0, BUTTONS, 5)]
    view = discord.ui.LayoutView(timeout=None)
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
        discord.MediaGalleryItem("attachment://board.png", description="Board")
    )
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("Board"),
            gallery,
            *rows,
            discord.ui.ActionRow(Menu()),
            accent_colour=0xC8893B,
        )
    )
    return view


def make_bot(guild_id: int) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

    @bot.tree.command(description="Deal a board")
    async def deal(interaction: discord.Interaction) -> None:
        file = discord.File(io.BytesIO(PICTURE), "board.png")
        if CARD:
            await interaction.response.send_message(file=file, view=card())
        else:
            await interaction.response.send_message("Board", file=file, view=Board())

    async def setup_hook() -> None:
        if CARD:
            bot.add_dynamic_items(Key, Menu)
        else:
            bot.add_view(Board())
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def _run(bot: commands.Bot) -> None:
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


def main() -> None:
    if base := os.environ.get("BOULANGER_DISCORD_API_BASE"):
        discord.http.Route.BASE = base
    if gateway := os.environ.get("BOULANGER_DISCORD_GATEWAY"):
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    bot = make_bot(int(os.environ["DEV_GUILD_ID"]))
    factory: Any = None
    if os.environ.get("BOULANGER_EVENT_LOOP", "uvloop") == "uvloop":
        import uvloop

        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_run(bot))


if __name__ == "__main__":
    main()
