"""Starting a game, shared by the Jeu du Boulanger and Calculation cogs."""

from __future__ import annotations

from typing import Any

import discord

import engine
from bot import replies
from bot.errors import UserFeedback
from bot.locale import player_translator
from bot.service import Started


async def start_game(interaction: discord.Interaction, kind: str, **options: Any) -> None:
    """Check the code first (a bad one is refused before anything happens), then deal and post."""
    service = interaction.client.service  # type: ignore[attr-defined]
    tr = await player_translator(interaction)  # before dealing: the picture is drawn in it
    code = options.get("code")
    if code:
        parsed = engine.parse_code(code)  # engine.CodeError → the error ladder
        if parsed.kind != kind:
            raise UserFeedback(f"error.code_other_game.{parsed.kind}", code=str(parsed))
    started: Started = await replies.within_deadline(
        interaction,
        service.start(
            interaction.user.id,
            kind,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            **options,
        ),
    )
    notes = []
    if started.replaced is not None:
        notes.append(tr("start.replaced", code=started.replaced.code))
    if not started.verified:
        notes.append(tr("start.unverified"))
    await replies.send_new_board(interaction, service, started.board, "\n".join(f"-# {n}" for n in notes))
    old = started.replaced
    if old is not None and old.message_id:
        await replies.strip_buttons(interaction.client, old.channel_id, old.message_id)  # that game is over
