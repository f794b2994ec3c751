"""The board message's picture and buttons (its text: ``bot.play.board_text``).

Buttons carry in their custom id everything needed to act on them after a restart:
the game id, the game's version when the board was drawn (a click on an out-of-date
board is refused as stale), the selected source (two-click play) and the action.
Which buttons a board has, and what they mean, is its game front's (``bot.games``):
this module only turns the front's ``ButtonSpec``s into components (at most 5 rows
of 5), sent as plain payloads (``BoardView``); a press is turned back into a
``GameButton`` or ``MoveMenu`` by its custom id (``bot.adapter.forged``).
"""

from __future__ import annotations

import io
import logging
import re
from collections import OrderedDict
from typing import Any, Protocol, runtime_checkable

import discord

from bot.adapter.again import finished_items
from bot.adapter.errors import report
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
class BoardView(discord.ui.View):
    """A board's buttons and menu as the component payloads Discord receives (issue 26).

    No ``discord.ui`` item is built for them: a ``Button`` or ``Select`` apiece cost more
    than the rest of the reply's bookkeeping, and a view of ``DynamicItem``s is stored and
    re-registered by discord.py on every send and rebuilt from the message on every press.
    Board presses are dispatched by the bot itself (``bot.adapter.forged``), by custom id."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components


# Boards drawn lately, by game, version, code and action log (the position), selection,
# language and privacy: a stale press's redraw, the lost-deal warning's edit and a retried
# edit send the same components again.
DrawnKey = tuple[int, int, str, tuple[str, ...], str, str, bool]
_DRAWN: OrderedDict[DrawnKey, list[dict[str, Any]]] = OrderedDict()
DRAWN_KEPT = 256


def board_view(tr: Translator, board: Board) -> discord.ui.View | None:
    """The buttons for a board; None once the game is over (nothing left to press)."""
    if board.finished:
        view = discord.ui.View(timeout=None)
        for item in finished_items(tr, board):
            view.add_item(item)
        return view if view.children else None
    row = board.row
    key = (row.id, row.version, row.code, row.moves, board.selection, tr.locale, board.private)
    components = _DRAWN.get(key)
    if components is None:
        components = board_components(tr, board)
        _DRAWN[key] = components
        while len(_DRAWN) > DRAWN_KEPT:
            _DRAWN.popitem(last=False)
    else:
        _DRAWN.move_to_end(key)
    return BoardView(components)


def board_components(tr: Translator, board: Board) -> list[dict[str, Any]]:
    """The action rows of an active board, as discord.py would send its ``GameButton``s and
    ``MoveMenu`` (same fields, same order: rows by number, buttons in the front's order)."""
    rows: dict[int, list[dict[str, Any]]] = {}
    prefix = f"g:{board.row.id}:{board.row.version}:"
    for spec in board.front.buttons(tr, board.game, board.selection):
        if spec.act == HINT and board.private:
            continue  # a race's board: no Hint (the service refuses a stale one)
        sel = board.selection if spec.keeps_selection else ""
        rows.setdefault(spec.row, []).append(
            {
                "type": 2,
                "style": STYLES[spec.style].value,
                "disabled": spec.disabled,
                "label": spec.label[:80] or "\u200b",
                "custom_id": f"{prefix}{sel}:{spec.act}",
            }
        )
    options = board.front.move_menu(tr, board.game)
    if options:
        rows.setdefault(MENU_ROW, []).append(menu_component(board, tr("board.other_move"), options))
    for row in rows.values():
        if len(row) > 5:
            raise ValueError("a board row holds at most five buttons")
    return [{"type": 1, "components": rows[n]} for n in sorted(rows)]


MENU_ROW = 4


def menu_component(board: Board, placeholder: str, options: list[tuple[str, str]]) -> dict[str, Any]:
    """The "Another move…" menu as discord.py sends a ``MoveMenu`` (the value is the notation)."""
    return {
        "type": 3,
        "custom_id": f"m:{board.row.id}:{board.row.version}",
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
        "placeholder": placeholder[:150],
        "options": [
            {"label": words[:100], "value": notation[:100], "default": False, "description": notation[:100]}
            for notation, words in options[:25]
        ],
    }


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
