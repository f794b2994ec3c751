"""Starting a game, shared by the Jeu du Boulanger and Calculation cogs and the daily post."""

from __future__ import annotations

from typing import Any

import discord

import engine
from bot import replies
from bot.confirm import Request, question
from bot.errors import UserFeedback, send
from bot.locale import player_translator
from bot.service import GameInProgress, Started


async def start_game(interaction: discord.Interaction, kind: str, **options: Any) -> None:
    """Check the code first (a bad one is refused before anything happens), then deal and post.

    A game of this kind in progress with something at stake is not ended silently: the
    player is asked (ephemerally) and the new game starts only from the question's button.
    """
    service = interaction.client.service  # type: ignore[attr-defined]
    tr = await player_translator(interaction)  # before dealing: the picture is drawn in it
    code = options.get("code")
    if code:
        parsed = engine.parse_code(code)  # engine.CodeError → the error ladder
        if parsed.kind != kind:
            raise UserFeedback(f"error.code_other_game.{parsed.kind}", code=str(parsed))
        options["code"] = str(parsed)
    request = Request(
        kind,
        cells=options.get("cells") if kind == "bakers" else None,
        code=options.get("code"),
        any_deal=bool(options.get("any_deal")),
        daily=bool(options.get("daily")),
    )
    try:
        await service.check_can_start(interaction.user.id, kind)  # quick: ask before any deferral
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
    except GameInProgress as exc:
        content, view = question(tr, exc, request)
        await send(interaction, content, view=view, ephemeral=True)
        return
    await replies.post_started(interaction, service, started)
