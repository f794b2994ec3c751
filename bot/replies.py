"""Sending and editing board messages, shared by the cogs and the button handler."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot import invalid_requests
from bot.i18n import Translator
from bot.interactions import solver_of
from bot.locale import player_translator
from bot.service import Board, GameService, Started
from bot.views import board_content, board_file, board_view, share_line

log = logging.getLogger(__name__)

T = TypeVar("T")

# Answer directly when the work is done within this; otherwise defer first
# (Discord wants an acknowledgement within 3 s).
DEFER_AFTER = 1.5


async def within_deadline(
    interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False
) -> T:
    """Await ``work``; if it is slow, acknowledge the interaction first so it cannot expire."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=ephemeral)
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id)
    return await task


def board_payload(tr: Translator, board: Board) -> dict[str, Any]:
    return {"content": board_content(tr, board), "view": board_view(tr, board)}


async def post_started(
    interaction: discord.Interaction, service: GameService, started: Started, *, followup: bool = False
) -> None:
    """Post a new game's board (with a note on the game it replaced) and retire the old board."""
    tr = await player_translator(interaction)
    notes = []
    if started.replaced is not None:
        notes.append(tr("start.replaced", code=started.replaced.code))
    if not started.verified:
        notes.append(tr("start.unverified"))
    note = "\n".join(f"-# {n}" for n in notes)
    await send_new_board(interaction, service, started.board, note, followup=followup)
    old = started.replaced
    if old is not None and old.message_id:
        await strip_buttons(interaction.client, old.channel_id, old.message_id)  # that game is over


async def send_new_board(
    interaction: discord.Interaction,
    service: GameService,
    board: Board,
    note: str = "",
    *,
    followup: bool = False,
) -> None:
    """Post a board as the interaction's reply and remember its message (buttons move there).

    ``followup``: post it as a new public message instead (the interaction's own message is
    an ephemeral question that must not become the board)."""
    tr = await player_translator(interaction)
    payload = board_payload(tr, board)
    if note:
        payload["content"] = f"{note}\n{payload['content']}"
    view = payload["view"] or discord.utils.MISSING
    file = board_file(tr, board)
    message: discord.Message | discord.WebhookMessage
    if followup:
        message = await interaction.followup.send(payload["content"], file=file, view=view, wait=True)
    elif interaction.response.is_done():
        message = await interaction.edit_original_response(
            content=payload["content"], attachments=[file], view=view
        )
    else:
        await interaction.response.send_message(payload["content"], file=file, view=view)
        message = await interaction.original_response()
    old_channel, old_message = board.row.channel_id, board.row.message_id
    await service.set_message(board.row.id, message.channel.id, message.id)
    if old_message and old_message != message.id:
        await strip_buttons(interaction.client, old_channel, old_message)


async def strip_buttons(client: discord.Client, channel_id: int | None, message_id: int) -> None:
    """Take the buttons off a board's previous message (they moved to a new one)."""
    if channel_id is None or invalid_requests.paused(client):  # tidying can wait
        return
    try:
        channel = client.get_partial_messageable(channel_id)
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException as exc:
        log.info("could not remove old buttons from message %s: %s", message_id, exc)


async def edit_in_place(interaction: discord.Interaction, board: Board) -> None:
    """Replace the pressed board's picture, text and buttons (the button's own message)."""
    tr = await player_translator(interaction)
    payload = board_payload(tr, board)
    kwargs = {"content": payload["content"], "attachments": [board_file(tr, board)], "view": payload["view"]}
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
    await send_share_line(interaction, board)


async def edit_board_message(interaction: discord.Interaction, service: GameService, board: Board) -> bool:
    """After a typed command, update the game's board message; False if it could not be found."""
    row = board.row
    if not row.message_id or not row.channel_id:
        return False
    tr = await player_translator(interaction)
    payload = board_payload(tr, board)
    try:
        channel = interaction.client.get_partial_messageable(row.channel_id)
        await channel.get_partial_message(row.message_id).edit(
            content=payload["content"], attachments=[board_file(tr, board)], view=payload["view"]
        )
    except discord.HTTPException as exc:
        log.info("board message %s of game %s is gone: %s", row.message_id, row.id, exc)
        return False
    return True


async def send_share_line(interaction: discord.Interaction, board: Board) -> None:
    """After a game ends: the daily share line, and the game's own note (e.g. was it winnable)."""
    tr = await player_translator(interaction)
    line = share_line(tr, board)
    texts = [tr("share.intro") + f"\n```\n{line}\n```"] if line else []
    if board.finished:
        note = await board.front.after_game(tr, board.row, solver_of(interaction))
        if note:
            texts.append(note)
    for text in texts:
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send the after-game note for game %s", board.row.id)
