"""Under a finished board: play again (a new deal of the same kind and cells, today's daily),
watch the replay, and for a lost deal that can be explained, how it could have been won.

All state is in the custom ids, so the buttons work after a restart. Starting a
game from here goes through ``start_game``, which asks before ending a game in
progress, exactly as the slash commands do.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.adapter.cogs.daily import DailyButton
from bot.adapter.cogs.starting import start_game
from bot.adapter.errors import report
from bot.adapter.interactions import service_of, solver_of
from bot.adapter.views import ReplayButton
from bot.games import front_by_letter, front_for
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play.feedback import UserFeedback
from bot.play.service import Board

log = logging.getLogger(__name__)


class AgainButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"a:(?P<letter>[a-z]):(?P<cells>[0-9])"
):
    """ "New deal": a fresh game of the same kind and free cells, for whoever presses it."""

    def __init__(self, letter: str, cells: int, label: str = "New deal") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.success, custom_id=f"a:{letter}:{cells}"
            )
        )
        self.letter = letter
        self.cells = cells

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AgainButton:
        return cls(match["letter"], int(match["cells"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            kind = front_by_letter(self.letter).kind
            await start_game(interaction, kind, cells=self.cells or None)
        except Exception as exc:
            await report(interaction, exc)


class WinnableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"w:(?P<gid>[0-9]{1,20})"):
    """ "How could it be won?": the perfect-information answer for a lost deal, privately."""

    def __init__(self, game_id: int, label: str = "How could it be won?") -> None:
        super().__init__(discord.ui.Button(label=label[:80], custom_id=f"w:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WinnableButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            tr = await player_translator(interaction)
            row, _ = await service_of(interaction).owned(interaction.user.id, self.game_id)
            if row.is_active:
                raise UserFeedback("error.no_such_game")
            await interaction.response.defer(ephemeral=True, thinking=True)  # a search of seconds
            note = await front_for(row.kind).after_game(tr, row, solver_of(interaction))
            await interaction.followup.send(note or tr("after.unknown"), ephemeral=True)
        except Exception as exc:
            await report(interaction, exc)


def finished_items(tr: Translator, board: Board) -> list[discord.ui.Item[Any]]:
    """The buttons of a finished board, in the order a player looks for them."""
    row, front = board.row, board.front
    items: list[discord.ui.Item[Any]] = [
        AgainButton(front.letter, front.cells_of(row.variant) or 0, tr("button.new_deal"))
    ]
    if board.open_daily is not None:
        label = tr("button.play_daily")
        items.append(DailyButton.of(front, board.open_daily, label))
    if row.status == "won" and front.has_replay:
        items.append(ReplayButton(row.id, tr("button.replay")))
    if row.status != "won" and front.explains_losses:
        items.append(WinnableButton(row.id, tr("button.how_winnable")))
    return items
