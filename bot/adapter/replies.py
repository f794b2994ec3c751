"""Sending and editing board messages, shared by the cogs and the button handler."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Literal, TypeVar

import discord

from bot.adapter import callbacks, invalid_requests, places
from bot.adapter.errors import send
from bot.adapter.interactions import solver_of
from bot.adapter.views import BoardView, board_file, board_view
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play.board_text import board_content, share_line
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
    if old is not None and old.message_id:  # that game is over
        await strip_old_board(interaction, service, old.id, old.channel_id, old.message_id)


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
    old_handle = service.boards.handle(board.row.id, old_message)
    service.boards.showing(board.row.id, board.row.version)
    channel_id: int | None = message.channel.id
    if not places.reaches_channel(interaction):  # the player's install only: no channel calls,
        channel_id = None  # the message is edited through interactions (bot.adapter.places)
        service.boards.through(board.row.id, message.id, interaction.token)
    await service.set_message(board.row.id, channel_id, message.id)
    if old_message and old_message != message.id:
        if old_channel is None and old_handle is not None:
            await strip_through(interaction.client, old_handle, old_message)
        else:
            await strip_buttons(interaction.client, old_channel, old_message)


async def strip_old_board(
    interaction: discord.Interaction,
    service: GameService,
    game_id: int,
    channel_id: int | None,
    message_id: int,
) -> None:
    """Take the buttons off a game's board: through its channel, or its interaction while it lasts."""
    handle = service.boards.handle(game_id, message_id)
    if channel_id is None and handle is not None:
        await strip_through(interaction.client, handle, message_id)
    else:
        await strip_buttons(interaction.client, channel_id, message_id)


def token_webhook(client: discord.Client, token: str) -> discord.Webhook:
    """The interaction's webhook: edits the messages that interaction made or answered."""
    assert client.application_id is not None
    return discord.Webhook.partial(client.application_id, token, client=client)


async def strip_through(client: discord.Client, token: str, message_id: int) -> None:
    try:
        await token_webhook(client, token).edit_message(message_id, view=None)
    except discord.HTTPException as exc:
        log.info("could not remove old buttons from message %s: %s", message_id, exc)


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
    picture, view = board_file(tr, board), payload["view"]
    kwargs = {"content": payload["content"], "attachments": [picture], "view": view}
    if service is not None:
        service.boards.showing(board.row.id, board.row.version)
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        elif isinstance(view, BoardView):  # a board in play: the same edit, for less CPU
            await callbacks.update_message(
                interaction,
                content=payload["content"],
                components=view.components,
                picture=board.png,
                filename=picture.filename,
                description=picture.description,
            )
        else:
            await interaction.response.edit_message(**kwargs)
    except BaseException:
        if service is not None:
            service.boards.unknown(board.row.id)
        raise
    pressed = interaction.message
    if service is not None and pressed is not None and not places.reaches_channel(interaction):
        service.boards.through(board.row.id, pressed.id, interaction.token)  # a fresh 15 minutes
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
    "failed" when Discord kept refusing (5xx, rate limits); "none" when it has no message (or
    one without channel whose interaction token is spent: ``BoardMessages.handle``)."""
    row = board.row
    channel_id, message_id = where or (row.channel_id, row.message_id)
    token = service.boards.handle(row.id, message_id) if channel_id is None else None
    if not message_id or not (channel_id or token):
        return "none"
    tr = await player_translator(interaction)
    return await edit_board(interaction.client, service, board, tr, where)


async def edit_board(
    client: discord.Client,
    service: GameService,
    board: Board,
    tr: Translator,
    where: tuple[int | None, int | None] | None = None,
) -> Edited:
    """``update_board_message`` without an interaction (an Activity move: ``bot.adapter.activity``),
    in the words of ``tr``."""
    row = board.row
    channel_id, message_id = where or (row.channel_id, row.message_id)
    token = service.boards.handle(row.id, message_id) if channel_id is None else None
    if not message_id or not (channel_id or token):
        return "none"
    payload = board_payload(tr, board)
    service.boards.showing(row.id, row.version)
    edit = {"content": payload["content"], "attachments": [board_file(tr, board)], "view": payload["view"]}
    try:
        if token is not None:  # no channel to call: through the interaction that made or last used it
            await token_webhook(client, token).edit_message(message_id, **edit)
        else:
            assert channel_id is not None
            channel = client.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(**edit)
    except (discord.NotFound, discord.Forbidden) as exc:
        service.boards.unknown(row.id)
        log.info("board message %s of game %s is gone: %s", message_id, row.id, exc)
        return "gone"
    except discord.HTTPException as exc:
        service.boards.unknown(row.id)
        if token is not None and exc.status == 401:  # the token expired: post the board anew
            log.info("the interaction of board message %s of game %s expired", message_id, row.id)
            return "gone"
        log.warning("could not edit board message %s of game %s: %s", message_id, row.id, exc)
        return "failed"
    return "edited"


def can_edit(service: GameService, row: Any) -> bool:
    """Can the game's board message be edited now (through its channel, or its live interaction)?"""
    if row.message_id and row.channel_id:
        return True
    if service.boards.last_posted(row.id):
        return True
    return service.boards.handle(row.id, row.message_id) is not None


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
    reachable = pressed is not None and places.reaches_channel(interaction)
    where = (pressed.channel.id, pressed.id) if pressed is not None and reachable else None
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
        if places.reaches_channel(interaction):  # else its interaction cannot edit it either
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


async def warn_when_decided(
    interaction: discord.Interaction,
    service: GameService,
    board: Board,
    where: tuple[int | None, int | None] | None = None,
) -> None:
    """After the board is answered: when the search its move started finds the deal can no
    longer be won, the board message says so (its text only: picture and buttons stay).

    ``where``: the board message's channel and id; None for a press, whose own message is
    the board (edited through the interaction, which works wherever it was pressed). Nothing
    is edited once a newer board is shown (the newer move decides its own position)."""
    if board.pending is None:
        return
    warned = await service.settle(board)
    if warned is None or service.boards.shown(board.row.id) != board.row.version:
        return
    tr = await player_translator(interaction)
    content = board_content(tr, warned)
    try:
        if where is None:
            await interaction.edit_original_response(content=content)
        elif where[0] is not None and where[1] is not None:
            channel = interaction.client.get_partial_messageable(where[0])
            await channel.get_partial_message(where[1]).edit(content=content)
    except discord.HTTPException as exc:
        log.info("could not add the lost-deal warning to game %s's board: %s", board.row.id, exc)
