"""A board's press and menu choice, end to end: the one home of what a board's controls do.

discord.py hands a press to the board's ``DynamicItem`` (``bot.adapter.views``), whose callback
calls ``Presses`` (the client's ``presses``). From there everything happens here: the call
into the service (which checks the owner and the version with the one load of the game the
press needs), the answer (the pressed message replaced by the new board, one
``interaction.response.edit_message``), a stale board refused and redrawn at the stored
position, a saved move whose edit failed shown another way, and later, once the search the
move started has decided, the "can no longer be won" line. "Play on the cards" (``launch``)
seats its owner at the board's game in the channel, then opens the Activity there.

discord.py drops a press whose custom id is not on the message it came with. Discord sends
the message as it is now, so a fast second tap (its button was on the board before the
first tap redrew it) is one of those: ``dropped`` (the client's ``on_interaction``) plays it
the board's way when the message is that game's board, and answers any other unknown or
misplaced id privately: acting on it could edit a message it does not belong to.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.adapter import cooldowns, places
from bot.adapter.errors import report
from bot.adapter.layouts import custom_ids
from bot.adapter.replies import (
    board_text,
    say_saved_not_shown,
    send_share_line,
    show_board,
    strip_pressed,
    update_board_message,
    within_deadline,
)
from bot.adapter.views import CUSTOM_ID, MENU_ID, CardsButton, GameButton, MoveMenu
from bot.games.base import HINT
from bot.languages.locale import player_translator
from bot.play.describe import hint_text
from bot.play.feedback import UserFeedback
from bot.play.service import Board, GameService, HintAnswer, StaleBoard
from bot.running import inflight

log = logging.getLogger(__name__)

BUTTON = re.compile(CUSTOM_ID)
MENU = re.compile(MENU_ID)
BUTTON_TYPE, SELECT_TYPE = discord.ComponentType.button.value, discord.ComponentType.string_select.value


class Presses:
    """The board's controls, answered (``views.BoardHandler``)."""

    def __init__(self, service: GameService, templates: list[re.Pattern[str]]) -> None:
        self.service = service
        self.templates = templates  # every restart-proof component's custom id (``dropped``)

    async def pressed(self, interaction: discord.Interaction[Any], button: GameButton) -> None:
        try:
            await self.press(interaction, button.game_id, button.version, button.sel, button.act)
        except Exception as exc:
            await report(interaction, exc)

    async def chosen(self, interaction: discord.Interaction[Any], menu: MoveMenu, values: list[str]) -> None:
        try:
            await self.choose(interaction, menu.game_id, menu.version, values)
        except Exception as exc:
            await report(interaction, exc)

    async def launch(self, interaction: discord.Interaction[Any], button: CardsButton) -> None:
        try:
            await open_cards(interaction, self.service, button.game_id)
        except Exception as exc:
            await report(interaction, exc)

    async def press(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, sel: str, act: str
    ) -> None:
        if act == HINT:  # a search may take seconds: think privately first
            cooldowns.hit(interaction, cooldowns.HINT)
            await interaction.response.defer(ephemeral=True, thinking=True)
        await player_translator(interaction)  # the words of the picture and the answer
        work = self.service.press(interaction.user.id, game_id, version, sel, act)
        try:
            answer = await within_deadline(interaction, work)
        except StaleBoard as stale:
            await refuse_stale(interaction, self.service, stale)
            return
        if isinstance(answer, HintAnswer):
            await send_hint(interaction, answer)
            return
        await self.answer(interaction, answer)

    async def choose(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, values: list[str]
    ) -> None:
        """A move chosen in the board's menu: played like a typed move, on that board's version."""
        if len(values) != 1 or not isinstance(values[0], str) or not values[0]:
            raise UserFeedback("error.bad_option")  # [null], [], two values: not what the menu sends
        await player_translator(interaction)
        work = self.service.play(interaction.user.id, game_id, values[0], version=version)
        try:
            board = await within_deadline(interaction, work)
        except StaleBoard as stale:
            await refuse_stale(interaction, self.service, stale)
            return
        await self.answer(interaction, board)

    async def answer(self, interaction: discord.Interaction[Any], board: Board) -> None:
        """The pressed message becomes the new board; then the lost-deal line when decided."""
        try:
            await edit_pressed(interaction, self.service, board)
        except discord.HTTPException as exc:
            # The move is saved; only its picture did not reach Discord (5xx, rate limit, the
            # interaction expired): update the board another way and say the move was saved.
            await after_failed_edit(interaction, self.service, board, exc)
            return
        await send_share_line(interaction, board)
        await warn_when_decided(interaction, self.service, board)

    # -- presses discord.py drops ------------------------------------------------------------
    async def dropped(self, interaction: discord.Interaction[Any]) -> None:
        """A component press discord.py will not dispatch gets an answer too; the ones it
        dispatches are left alone."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id, kind = data.get("custom_id"), data.get("component_type")
        if not isinstance(custom_id, str) or not any(t.fullmatch(custom_id) for t in self.templates):
            inflight.enter(interaction)
            await report(interaction, UserFeedback("error.unknown_button"))
            return
        placed = placed_types(interaction.message, custom_id)
        if kind in placed:
            return  # discord.py dispatches it to its item
        inflight.enter(interaction)
        button, menu = BUTTON.fullmatch(custom_id), MENU.fullmatch(custom_id)
        board = button or menu
        if not placed and board is not None and int(board["gid"]) in board_games(interaction.message):
            if button is not None and kind == BUTTON_TYPE:
                found = GameButton(int(button["gid"]), int(button["ver"]), button["sel"], button["act"])
                await self.pressed(interaction, found)
                return
            if menu is not None and kind == SELECT_TYPE:
                values = [v for v in data.get("values") or [] if isinstance(v, str)]
                await self.chosen(interaction, MoveMenu(int(menu["gid"]), int(menu["ver"])), values)
                return
        log.info("answered a press discord.py drops: %r (type %r) not on message", custom_id, kind)
        await report(interaction, UserFeedback("error.unknown_button"))


def components_of(message: discord.Message) -> list[Any]:
    """Every component on ``message``, nested ones included (rows, containers, sections)."""
    out: list[Any] = []
    todo: list[Any] = list(message.components)
    while todo:
        component = todo.pop()
        out.append(component)
        todo.extend(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            todo.append(accessory)
    return out


def placed_types(message: discord.Message | None, custom_id: str) -> set[int]:
    """The component types carrying ``custom_id`` on ``message``, as discord.py looks them up."""
    if message is None:
        return set()
    return {c.type.value for c in components_of(message) if getattr(c, "custom_id", None) == custom_id}


def board_games(message: discord.Message | None) -> set[int]:
    """The game ids of the board controls on ``message`` (one, on a board)."""
    found = set()
    for custom_id in custom_ids(message.components) if message is not None else ():
        match = BUTTON.fullmatch(custom_id) or MENU.fullmatch(custom_id)
        if match is not None:
            found.add(int(match["gid"]))
    return found


# -- the answers -------------------------------------------------------------------------------
async def open_cards(interaction: discord.Interaction[Any], service: GameService, game_id: int) -> None:
    """Open the Activity on the board's game: the presser is seated at it in this channel (the
    page Discord opens there shows that game), then the launch callback (type 12). Its owner
    only, as every other control of a board in play: the page never shows another's game.
    Refused (no Activity here, Discord will not launch it): one private line, the seat as it was."""
    await player_translator(interaction)
    server = getattr(interaction.client, "activity_server", None)
    channel_id = interaction.channel_id
    if server is None or channel_id is None:
        raise UserFeedback("error.cards_unavailable")
    await service.owned(interaction.user.id, game_id)  # not theirs, gone: the usual line
    seats, player = server.seats, interaction.user.id
    before = seats.game(player, channel_id)
    seats.seat(player, channel_id, game_id)
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        if before is None:
            seats.leave(player, channel_id, game_id)
        else:
            seats.seat(player, channel_id, before)
        log.info("could not launch the Activity from game %s's board: %s", game_id, exc)
        raise UserFeedback("error.cards_unavailable") from None


async def edit_pressed(interaction: discord.Interaction[Any], service: GameService, board: Board) -> None:
    """Replace the pressed message with ``board`` (a message still in the old form, content and
    buttons, becomes the card: its content is cleared as the flag is added)."""
    tr = await player_translator(interaction)
    service.boards.showing(board.row.id, board.row.version)
    try:
        await show_board(interaction, tr, board, board_text(tr, board))
    except BaseException:
        service.boards.unknown(board.row.id)
        raise
    pressed = interaction.message
    if pressed is not None and not places.reaches_channel(interaction):
        service.boards.through(board.row.id, pressed.id, interaction.token)  # a fresh 15 minutes


async def refuse_stale(
    interaction: discord.Interaction[Any], service: GameService, stale: StaleBoard
) -> None:
    """Say the board is out of date (nothing was played), then bring it up to the stored position."""
    await report(interaction, stale)
    await redraw_stale(interaction, service, stale.row)


async def redraw_stale(interaction: discord.Interaction[Any], service: GameService, row: Any) -> None:
    """After a refusal on an out-of-date board: bring the pressed message (or, for a command,
    the game's board message) up to the stored position, unless it is already being brought
    there, or take the controls off a message that is no longer the game's board."""
    pressed = interaction.message
    if pressed is not None and pressed.id != row.message_id:
        if places.reaches_channel(interaction):  # else its interaction cannot edit it either
            await strip_pressed(interaction, pressed)
        return
    if service.boards.shown(row.id) == row.version:
        return  # a double press: its first press is updating the board
    try:
        board = await service.show(interaction.user.id, row.kind)
    except Exception as exc:  # the game ended meanwhile, storage trouble: the stale answer stands
        log.info("could not redraw stale board of game %s: %s", row.id, exc)
        return
    if board.row.id == row.id:
        await update_board_message(interaction, service, board)


async def after_failed_edit(
    interaction: discord.Interaction[Any], service: GameService, board: Board, error: discord.HTTPException
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


async def warn_when_decided(
    interaction: discord.Interaction[Any],
    service: GameService,
    board: Board,
    where: tuple[int | None, int | None] | None = None,
) -> None:
    """After the board is answered: when the search its move started finds the deal can no
    longer be won, the board message says so (its text: the picture and controls stay).

    ``where``: the board message's channel and id; None for a press, whose own message is
    the board (edited through the interaction, which works wherever it was pressed). Nothing
    is edited once a newer board is shown (the newer move decides its own position)."""
    if board.pending is None:
        return
    warned = await service.settle(board)
    if warned is None or service.boards.shown(board.row.id) != board.row.version:
        return
    tr = await player_translator(interaction)
    try:
        if where is None:
            await show_board(interaction, tr, warned, board_text(tr, warned), picture=False)
        elif where[0] is not None and where[1] is not None:
            await update_board_message(interaction, service, warned, where, picture=False)
    except discord.HTTPException as exc:
        log.info("could not add the lost-deal warning to game %s's board: %s", board.row.id, exc)


async def send_hint(interaction: discord.Interaction[Any], answer: HintAnswer) -> None:
    tr = await player_translator(interaction)
    text = hint_text(tr, answer.game, answer.advice)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
