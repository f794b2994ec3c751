"""Sending and editing board messages, shared by the cogs and the button handler."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Literal, TypeVar

import discord

from bot.adapter import invalid_requests, places
from bot.adapter.errors import send
from bot.adapter.interactions import solver_of
from bot.adapter.views import alt_text, board_file, board_layout, serves_cards, without_controls
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


def board_text(tr: Translator, board: Board, note: str = "") -> str:
    """The card's status line (``board_content``), after a note on what a start replaced."""
    text = board_content(tr, board)
    return f"{note}\n{text}" if note else text


async def show_board(
    interaction: discord.Interaction, tr: Translator, board: Board, text: str, *, picture: bool = True
) -> None:
    """The interaction's own message becomes ``board`` (the pressed board, or the deferred
    answer). ``content=None`` clears the text of a message still in the old form, which the
    Components V2 flag may only be added to without it; ``picture=False`` keeps the picture."""
    alt = alt_text(tr, board)
    view = board_layout(tr, board, text, alt, cards=serves_cards(interaction.client))
    kwargs: dict[str, Any] = {"content": None, "view": view}
    if picture:
        kwargs["attachments"] = [board_file(board, alt)]
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


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
    alt = alt_text(tr, board)
    view = board_layout(tr, board, board_text(tr, board, note), alt, cards=serves_cards(interaction.client))
    file = board_file(board, alt)
    if board.private:  # a race's board: only its player sees it (no message to record or edit)
        service.boards.showing(board.row.id, board.row.version)
        await send(interaction, file=file, view=view, ephemeral=True)
        return
    message: discord.Message | discord.WebhookMessage
    if followup:
        message = await interaction.followup.send(file=file, view=view, wait=True)
    elif interaction.response.is_done():
        message = await interaction.edit_original_response(content=None, attachments=[file], view=view)
    else:
        await interaction.response.send_message(file=file, view=view)
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
    webhook = token_webhook(client, token)
    try:
        message = await webhook.fetch_message(message_id)
        await webhook.edit_message(message_id, view=without_controls(message))
    except discord.HTTPException as exc:
        log.info("could not remove old buttons from message %s: %s", message_id, exc)


async def strip_buttons(client: discord.Client, channel_id: int | None, message_id: int) -> None:
    """Take the controls off a board's previous message (they moved to a new one)."""
    if channel_id is None or invalid_requests.paused(client):  # tidying can wait
        return
    try:
        message = await client.get_partial_messageable(channel_id).fetch_message(message_id)
        await message.edit(view=without_controls(message))
    except discord.HTTPException as exc:
        log.info("could not remove old buttons from message %s: %s", message_id, exc)


async def strip_pressed(interaction: discord.Interaction, message: discord.Message) -> None:
    """Take the controls off a pressed message that is no longer its game's board."""
    try:
        await message.edit(view=without_controls(message))
    except discord.HTTPException as exc:
        log.info("could not remove old buttons from message %s: %s", message.id, exc)


Edited = Literal["edited", "gone", "failed", "none"]


async def update_board_message(
    interaction: discord.Interaction,
    service: GameService,
    board: Board,
    where: tuple[int | None, int | None] | None = None,
    *,
    picture: bool = True,
) -> Edited:
    """Edit the game's board message (``where``: channel and message, default the row's) to
    ``board`` (``picture=False``: its text and controls, the picture kept): "edited"; "gone" if the message no longer exists (or may not be edited);
    "failed" when Discord kept refusing (5xx, rate limits); "none" when it has no message (or
    one without channel whose interaction token is spent: ``BoardMessages.handle``)."""
    row = board.row
    channel_id, message_id = where or (row.channel_id, row.message_id)
    token = service.boards.handle(row.id, message_id) if channel_id is None else None
    if not message_id or not (channel_id or token):
        return "none"
    tr = await player_translator(interaction)
    return await edit_board(interaction.client, service, board, tr, where, picture=picture)


async def edit_board(
    client: discord.Client,
    service: GameService,
    board: Board,
    tr: Translator,
    where: tuple[int | None, int | None] | None = None,
    *,
    picture: bool = True,
) -> Edited:
    """``update_board_message`` without an interaction (an Activity move: ``bot.adapter.activity``),
    in the words of ``tr``."""
    row = board.row
    channel_id, message_id = where or (row.channel_id, row.message_id)
    token = service.boards.handle(row.id, message_id) if channel_id is None else None
    if not message_id or not (channel_id or token):
        return "none"
    service.boards.showing(row.id, row.version)
    alt = alt_text(tr, board)
    view = board_layout(tr, board, board_text(tr, board), alt, cards=serves_cards(client))
    edit: dict[str, Any] = {"content": None, "view": view}
    if picture:
        edit["attachments"] = [board_file(board, alt)]
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
