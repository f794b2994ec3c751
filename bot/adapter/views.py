"""The board message: its text, its picture and its buttons.

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
from typing import Any

import discord

import storage
from bot.adapter.errors import report
from bot.adapter.interactions import board_handler
from bot.adapter.replays import send_replay
from bot.games import ButtonSpec
from bot.games.base import HINT
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play.service import Board

log = logging.getLogger(__name__)

CUSTOM_ID = r"g:(?P<gid>[0-9]+):(?P<ver>[0-9]+):(?P<sel>[0-9a-d]?):(?P<act>[a-z0-9]{1,2})"
FILENAME = "board.png"


ALT_TEXT_LIMIT = 1024  # Discord's longest attachment description


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


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"r:(?P<gid>[0-9]+)"):
    """Under a won board: its player has the animation drawn; then anyone may watch it."""

    def __init__(self, game_id: int, label: str = "Replay") -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary, custom_id=f"r:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:  # the owner draws it (one at a time, cached, capped); then anyone may watch it
            await send_replay(interaction, self.game_id)
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
        from bot.adapter.again import finished_items  # it starts games: imported late (no cycle)

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


def board_content(tr: Translator, board: Board) -> str:
    """The text above the picture: game, code (not a race's), score, moves, last move, state."""
    game, row, front = board.game, board.row, board.front
    held = front.cells_of(row.variant)
    cells = f" · {tr.n('board.cells', held)}" if held else ""
    daily = f" · {tr('board.daily', date=row.daily_date.isoformat())}" if row.daily_date else ""
    code = f" · `{row.code}`" if not board.private else ""
    lines = [
        f"**{front.title(tr)}**{cells}{daily}{code}",
        tr("board.status", score=game.score) + " · " + tr.n("board.moves", game.move_count),
    ]
    if board.played == "undo":
        lines.append(tr("board.undone"))
    elif board.played and game.last_action:
        lines.append(tr("board.last", move=front.describe_action(tr, game.last_action)))
    if board.selection:
        lines.append(tr(front.key("board.selected"), place=front.selected_place(tr, board.selection)))
    if row.status == "won":
        lines.append(tr(front.key("board.won"), moves=game.move_count, score=game.score))
    elif row.status in ("lost", "resigned"):
        lines.append(tr(f"board.ended.{row.status}", score=game.score))
    if board.result is not None:
        effort = front.effort_words(tr, board.result, undos=True)
        counted = counted_key(board.result)
        lines.extend(line for line in (" · ".join(effort), tr(counted) if counted else "") if line)
    if row.daily_date is not None and board.result is not None and not board.result.counts_for_daily:
        lines.append(tr("share.not_counted"))
    elif row.source == "practice" and not row.is_active:
        lines.append(tr("board.practice"))  # a chosen deal: off the main leaderboards
    elif board.notice:
        lines.append(tr(board.notice, **board.notice_params))
    return "\n".join(lines)


def counted_key(result: storage.FinishedGame) -> str | None:
    """What a finished game counts for, when it counts: a first daily attempt, a stock deal.
    (A later daily attempt and a practice game say so on their own lines.)"""
    if result.counts_for_daily:
        return "result.counted.daily"
    if result.source == "stock":
        return "result.counted.stock"
    return None


def share_line(tr: Translator, board: Board) -> str | None:
    """A spoiler-safe one-line result of a finished daily game: outcome, moves, cards home, time,
    hints and undos, and whether it counted; never a card or a move."""
    row, game, front = board.row, board.game, board.front
    if row.daily_date is None or row.is_active:
        return None
    key = front.share_key(row.status == "won")
    squares = front.share_squares(tr, game)
    line = tr(
        key,
        date=row.daily_date.isoformat(),
        moves=game.move_count,
        score=game.score,
        home=game.cards_home,
        squares=squares,
    ).rstrip()
    if board.result is None:
        return line
    line = " · ".join([line, *front.effort_words(tr, board.result, undos=True)])
    if board.result.counts_for_daily:
        return f"{line} {tr('share.counted')}"
    return f"{line} {tr('share.not_counted')}"  # a later attempt: only the first finished one counts
