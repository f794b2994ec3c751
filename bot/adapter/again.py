"""Under a finished board: play again (a new deal of the same kind and cells, today's daily),
watch the replay, and for a lost deal that can be explained, how it could have been won.
Today's daily button is also the one under the daily post (``bot.adapter.cogs.daily``).

All state is in the custom ids, so the buttons work after a restart. Starting a
game from here goes through the client's ``start_game`` (``bot.adapter.cogs.starting``,
reached through the interaction: it posts boards that carry these buttons), which asks
before ending a game in progress, exactly as the slash commands do.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from typing import Any

import discord

from bot.adapter.errors import report
from bot.adapter.game_buttons import GameButtonBase
from bot.adapter.interactions import service_of, solver_of, starter_of
from bot.adapter.replays import ReplayButton
from bot.games import GameFront, front_by_letter, front_for
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play.feedback import UserFeedback
from bot.play.service import Board
from bot.running.inflight import Tracked

log = logging.getLogger(__name__)


class AgainButton(
    Tracked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"a:(?P<letter>[a-z]):(?P<option>[0-9a-z]{1,8})",
):
    """ "New deal": a fresh game of the same kind and option (free cells), for whoever presses it.

    The option is its front's token (``GameFront.option_token``; ``0`` for none): the ids
    posted when it was always one digit of free cells read the same."""

    def __init__(self, letter: str, option: str, label: str = "New deal") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.success, custom_id=f"a:{letter}:{option}"
            )
        )
        self.letter = letter
        self.option = option

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AgainButton:
        return cls(match["letter"], match["option"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            front = front_by_letter(self.letter)
            await starter_of(interaction).start_game(
                interaction, front.kind, cells=front.parse_option(self.option)
            )
        except Exception as exc:
            await report(interaction, exc)


class DailyButton(
    Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"d:(?P<kind>[a-z]):(?P<day>[0-9]{8})"
):
    """The Play button under a daily post: starts today's challenge for whoever presses it."""

    def __init__(self, letter: str, day: str, label: str = "Play") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=f"d:{letter}:{day}")
        )
        self.letter = letter
        self.day = day  # YYYYMMDD; only a marker: a press always starts today's challenge

    @classmethod
    def of(cls, front: GameFront[Any], day: dt.date, label: str) -> DailyButton:
        return cls(front.letter, day.strftime("%Y%m%d"), label)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DailyButton:
        return cls(match["kind"], match["day"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            try:
                dt.datetime.strptime(self.day, "%Y%m%d")  # a marker, but a forged one is refused
            except ValueError:
                raise UserFeedback("error.unknown_button") from None
            await starter_of(interaction).start_game(
                interaction, front_by_letter(self.letter).kind, daily=True
            )
        except Exception as exc:
            await report(interaction, exc)


class WinnableButton(GameButtonBase, template=r"w:(?P<gid>[0-9]{1,20})"):
    """ "How could it be won?": the perfect-information answer for a lost deal, privately."""

    prefix = "w"
    default_label = "How could it be won?"

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
        AgainButton(
            front.letter, front.option_token(front.cells_of(row.variant)) or "0", tr("button.new_deal")
        )
    ]
    if board.open_daily is not None:
        label = tr("button.play_daily")
        items.append(DailyButton.of(front, board.open_daily, label))
    if row.status == "won" and front.has_replay:
        items.append(ReplayButton(row.id, tr("button.replay")))
    if row.status != "won" and front.explains_losses:
        items.append(WinnableButton(row.id, tr("button.how_winnable")))
    return items
