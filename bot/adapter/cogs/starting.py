"""Starting a game, shared by every game's start command and the daily buttons."""

from __future__ import annotations

from typing import Any

import discord

import engine
from bot.adapter import cooldowns, replies
from bot.adapter.confirm import Request, question
from bot.adapter.errors import send
from bot.adapter.interactions import service_of
from bot.games import front_for
from bot.languages.locale import player_translator
from bot.play.service import GameInProgress, Started, check_code_kind


async def start_game(
    interaction: discord.Interaction[Any],
    kind: str,
    *,
    cells: int | None = None,
    code: str | None = None,
    any_deal: bool = False,
    daily: bool = False,
) -> None:
    """Check the code first (a bad one is refused before anything happens), then deal and post.

    A game of this kind in progress with something at stake is not ended silently: the
    player is asked (ephemerally) and the new game starts only from the question's button.
    """
    service = service_of(interaction)
    front = front_for(kind)
    cooldowns.hit(interaction, cooldowns.START)  # every way of starting draws from one quota
    tr = await player_translator(interaction)  # before dealing: the picture is drawn in it
    # A bare number (``11982``, ``#11982``) is a deal of this game, for a game that numbers them.
    parsed = engine.parse_code(code, kind=kind, cells=cells) if code else None  # CodeError → the ladder
    if parsed is not None:
        check_code_kind(front, parsed)
    elif not daily:
        cells = front.check_cells(cells)
    request = Request(kind, cells=cells, code=parsed, any_deal=any_deal, daily=daily)
    try:
        await service.check_can_start(interaction.user.id, kind)  # quick: ask before any deferral
        started: Started = await replies.within_deadline(
            interaction,
            service.start(
                request.for_player(interaction.user.id, interaction.guild_id, interaction.channel_id)
            ),
        )
    except GameInProgress as exc:
        content, view = question(tr, exc, request)
        await send(interaction, content, view=view, ephemeral=True)
        return
    await replies.post_started(interaction, service, started)
