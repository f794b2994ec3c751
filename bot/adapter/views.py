"""The board message's picture and buttons (its text: ``bot.play.board_text``).

Buttons are ``DynamicItem``s whose custom id carries everything needed to act
on them after a restart: the game id, the game's version when the board was
drawn (a click on an out-of-date board is refused as stale), the selected
source (two-click play) and the action. Which buttons a board has, and what
they mean, is its game front's (``bot.games``): this module only turns the
front's ``ButtonSpec``s into components (at most 5 rows of 5).
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any, Protocol, runtime_checkable

import discord

from bot.adapter.again import finished_items
from bot.adapter.errors import report
from bot.games import ButtonSpec
from bot.games.base import HINT
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play.service import Board

log = logging.getLogger(__name__)

# The selection slot takes any one letter or digit: which places a selection may hold is
# each front's (``GameFront.selections``, checked on the press), so ids posted before stay valid.
CUSTOM_ID = r"g:(?P<gid>[0-9]+):(?P<ver>[0-9]+):(?P<sel>[0-9a-z]?):(?P<act>[a-z0-9]{1,2})"
FILENAME = "board.png"


ALT_TEXT_LIMIT = 1024  # Discord's longest attachment description


@runtime_checkable
class BoardHandler(Protocol):
    """The bot's handlers of board components (``BoulangerBot`` implements them; reached through
    the client, so these buttons need not import it)."""

    async def on_board_press(self, interaction: discord.Interaction[Any], button: GameButton) -> None: ...

    async def on_board_choice(self, interaction: discord.Interaction[Any], menu: MoveMenu) -> None: ...


def board_handler(interaction: discord.Interaction[Any]) -> BoardHandler:
    client = interaction.client
    if not isinstance(client, BoardHandler):
        raise RuntimeError("this client does not handle board components")
    return client


def board_file(tr: Translator, board: Board) -> discord.File:
    """The picture, with alt text saying the game, the score and the position in words."""
    alt = board.front.alt_text(tr, board.game)
    if len(alt) > ALT_TEXT_LIMIT:
        alt = alt[: ALT_TEXT_LIMIT - 1] + "…"
    return discord.File(io.BytesIO(board.png), filename=FILENAME, description=alt)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID):
    """One button of a board; all state lives in its custom id."""

    def __init__(
        self,
        game_id: int,
        version: int,
        sel: str,
        act: str,
        *,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                disabled=disabled,
                row=row,
                custom_id=f"g:{game_id}:{version}:{sel}:{act}",
            )
        )
        self.game_id = game_id
        self.version = version
        self.sel = sel
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(int(match["gid"]), int(match["ver"]), match["sel"], match["act"])

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Resolve the player's language (the picture drawn next uses it); the service checks
        the owner and the version with the one load of the game the press needs."""
        await player_translator(interaction)
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await board_handler(interaction).on_board_press(interaction, self)
        except Exception as exc:
            await report(interaction, exc)


async def report_text(interaction: discord.Interaction, text: str) -> None:
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not refuse interaction %s", interaction.id)


# -- building boards -------------------------------------------------------------------
def board_view(tr: Translator, board: Board) -> discord.ui.View | None:
    """The buttons for a board; None once the game is over (nothing left to press)."""
    view = discord.ui.View(timeout=None)
    if board.finished:
        for item in finished_items(tr, board):
            view.add_item(item)
        return view if view.children else None
    for spec in board.front.buttons(tr, board.game, board.selection):
        if spec.act == HINT and board.private:
            continue  # a race's board: no Hint (the service refuses a stale one)
        view.add_item(game_button(board, spec))
    options = board.front.move_menu(tr, board.game)
    if options:
        view.add_item(MoveMenu.of(board, tr("board.other_move"), options))
    return view


class MoveMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"m:(?P<gid>[0-9]{1,20}):(?P<ver>[0-9]{1,10})"
):
    """Row five of a board: every other useful move, one choice away (the value is its notation)."""

    def __init__(
        self, game_id: int, version: int, placeholder: str = "…", options: list[tuple[str, str]] | None = None
    ) -> None:
        choices = [
            discord.SelectOption(label=words[:100], value=notation[:100], description=notation[:100])
            for notation, words in (options or [("-", "-")])
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"m:{game_id}:{version}", placeholder=placeholder[:150], options=choices, row=4
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    def of(cls, board: Board, placeholder: str, options: list[tuple[str, str]]) -> MoveMenu:
        return cls(board.row.id, board.row.version, placeholder, options)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveMenu:
        return cls(int(match["gid"]), int(match["ver"]))

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await player_translator(interaction)  # the picture drawn next is in the player's language
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await board_handler(interaction).on_board_choice(interaction, self)
        except Exception as exc:
            await report(interaction, exc)


STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def game_button(board: Board, spec: ButtonSpec) -> GameButton:
    sel = board.selection if spec.keeps_selection else ""
    return GameButton(
        board.row.id,
        board.row.version,
        sel,
        spec.act,
        label=spec.label,
        style=STYLES[spec.style],
        disabled=spec.disabled,
        row=spec.row,
    )
