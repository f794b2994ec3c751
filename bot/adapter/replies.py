"""Sending and editing board messages, shared by the cogs and the button handler."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Literal, TypeVar

import discord

from bot.adapter import invalid_requests
from bot.adapter.errors import send
from bot.adapter.interactions import solver_of
from bot.adapter.views import board_content, board_file, board_view, share_line
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play.service import Board, GameService, Started

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
    try:
        await send_new_board(interaction, service, started.board, note, followup=followup)
    finally:  # posted or not, a /move waiting for this board must not wait any longer
        service.boards.posted(started.board.row.id, None, None)
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
    if board.private:  # a race's board: only its player sees it (no message to record or edit)
        service.boards.showing(board.row.id, board.row.version)
        await send(interaction, payload["content"], file=file, view=view, ephemeral=True)
        return
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
    service.boards.showing(board.row.id, board.row.version)
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


async def edit_in_place(
    interaction: discord.Interaction, board: Board, service: GameService | None = None
) -> None:
    """Replace the pressed board's picture, text and buttons (the button's own message)."""
    tr = await player_translator(interaction)
    payload = board_payload(tr, board)
    kwargs = {"content": payload["content"], "attachments": [board_file(tr, board)], "view": payload["view"]}
    if service is not None:
        service.boards.showing(board.row.id, board.row.version)
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
    except BaseException:
        if service is not None:
            service.boards.unknown(board.row.id)
        raise
    await send_share_line(interaction, board)


Edited = Literal["edited", "gone", "failed", "none"]


async def update_board_message(
    interaction: discord.Interaction,
    service: GameService,
    board: Board,
    where: tuple[int | None, int | None] | None = None,
) -> Edited:
    """Edit the game's board message (``where``: channel and message, default the row's) to
    ``board``: "edited"; "gone" if the message no longer exists (or may not be edited);
    "failed" when Discord kept refusing (5xx, rate limits); "none" when it has no message."""
    row = board.row
    channel_id, message_id = where or (row.channel_id, row.message_id)
    if not message_id or not channel_id:
        return "none"
    tr = await player_translator(interaction)
    payload = board_payload(tr, board)
    service.boards.showing(row.id, row.version)
    try:
        channel = interaction.client.get_partial_messageable(channel_id)
        await channel.get_partial_message(message_id).edit(
            content=payload["content"], attachments=[board_file(tr, board)], view=payload["view"]
        )
    except (discord.NotFound, discord.Forbidden) as exc:
        service.boards.unknown(row.id)
        log.info("board message %s of game %s is gone: %s", message_id, row.id, exc)
        return "gone"
    except discord.HTTPException as exc:
        service.boards.unknown(row.id)
        log.warning("could not edit board message %s of game %s: %s", message_id, row.id, exc)
        return "failed"
    return "edited"


async def edit_board_message(interaction: discord.Interaction, service: GameService, board: Board) -> bool:
    """Update the game's board message directly; False if that could not be done."""
    return await update_board_message(interaction, service, board) == "edited"


async def say_saved_not_shown(interaction: discord.Interaction) -> None:
    """The move is stored but its board could not be drawn in Discord: say so, privately."""
    tr = await player_translator(interaction)
    try:
        await send(interaction, tr("reply.saved_not_shown"), ephemeral=True)
    except discord.HTTPException:
        log.warning("interaction %s: could not say that the move was saved", interaction.id)


async def after_failed_edit(
    interaction: discord.Interaction, service: GameService, board: Board, error: discord.HTTPException
) -> None:
    """A press was saved but editing its board (the press's answer) failed: update the board
    message another way and tell the player, privately, that the move was saved."""
    log.warning(
        "interaction %s: the board edit failed after game %s was saved: %s",
        interaction.id,
        board.row.id,
        error,
    )
    pressed = interaction.message  # the board that was pressed (the row may not know it yet)
    where = (pressed.channel.id, pressed.id) if pressed is not None else None
    edited = await update_board_message(interaction, service, board, where)
    if edited != "edited" or not interaction.response.is_done():
        await say_saved_not_shown(interaction)


async def refresh_stale_board(interaction: discord.Interaction, service: GameService, row: Any) -> None:
    """After a press on an out-of-date board: bring that board message up to the stored state
    (unless it is already being brought there), or take the buttons off a message that is no
    longer the game's board."""
    pressed = interaction.message
    if pressed is None:
        return
    if pressed.id != row.message_id:
        await strip_buttons(interaction.client, pressed.channel.id, pressed.id)
        return
    if service.boards.shown(row.id) == row.version:
        return  # a double click: its first press is updating the board
    try:
        board = await service.show(interaction.user.id, row.kind)
    except Exception as exc:  # the game ended meanwhile, storage trouble: the stale answer stands
        log.info("could not redraw stale board of game %s: %s", row.id, exc)
        return
    if board.row.id == row.id:
        await update_board_message(interaction, service, board)


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
