"""A minimal discord.py bot used by the fake's own tests (in-process, or `python -m` for kill tests).

It exercises each way a bot answers: a PNG with a persistent button and select, an edit from a
button, an ephemeral reply, a "thinking" defer then followup, autocomplete, and a command too slow
for the 3 s deadline. Run as a module it reads the same environment as the real bot.
"""

from __future__ import annotations

import asyncio
import io
import os
import zlib

import discord
from discord import app_commands
from discord.ext import commands


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A tiny valid PNG, made without Pillow so the demo bot has no other dependency."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class BoardView(discord.ui.View):
    """Persistent (timeout=None, fixed custom_ids), so it keeps working after a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="demo:again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        count = int((interaction.message.content or "0").split()[-1]) + 1 if interaction.message else 1
        await interaction.response.edit_message(
            content=f"edited {count}",
            attachments=[discord.File(io.BytesIO(png(30, 20, (0, 0, 255))), "board.png")],
        )

    @discord.ui.button(label="Quietly", custom_id="demo:quiet")
    async def quiet(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # type 6, then an edit through the channel route
        await interaction.message.edit(content="edited through the channel")

    @discord.ui.select(
        custom_id="demo:colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"colour {select.values[0]}")


class NameModal(discord.ui.Modal, title="Your name"):
    who = discord.ui.TextInput(label="Name", custom_id="demo:who", max_length=40)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.who.value}", ephemeral=True)


def make_bot(guild_id: int, *, ready_timeout: float = 0.05) -> commands.Bot:
    """The demo bot; its commands sync to `guild_id` in `setup_hook`."""
    bot = commands.Bot(
        command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=ready_timeout
    )
    bot.late_errors = []  # errors the slow command got back from Discord

    @bot.tree.command(description="Deal a board")
    @app_commands.describe(cells="Free cells")
    async def deal(interaction: discord.Interaction, cells: app_commands.Range[int, 1, 4] = 4) -> None:
        file = discord.File(io.BytesIO(png(40, 30, (200, 0, 0))), "board.png")
        await interaction.response.send_message(f"cells {cells} moves 0", file=file, view=BoardView())

    @bot.tree.command(description="A secret")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you see this", ephemeral=True)

    @bot.tree.command(description="Think, then answer")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("thought about it")

    @bot.tree.command(description="Too slow for Discord")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(3.5)
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            bot.late_errors.append(exc)

    @bot.tree.command(description="Ask for a name")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    async def fruit_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        fruits = ["apple", "apricot", "banana", "cherry"]
        return [app_commands.Choice(name=f.title(), value=f) for f in fruits if f.startswith(current)]

    @bot.tree.command(description="Pick a fruit")
    @app_commands.autocomplete(fruit=fruit_names)
    async def pick(interaction: discord.Interaction, fruit: str) -> None:
        await interaction.response.send_message(f"picked {fruit}")

    async def setup_hook() -> None:
        bot.add_view(BoardView())
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook
    return bot


def main() -> None:
    """Entry point for `python -m tests.fakediscord.demo_bot` (same environment as the real bot)."""
    import yarl

    if base := os.environ.get("BOULANGER_DISCORD_API_BASE"):
        discord.http.Route.BASE = base
    if gateway := os.environ.get("BOULANGER_DISCORD_GATEWAY"):
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    bot = make_bot(int(os.environ["DEV_GUILD_ID"]))
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
