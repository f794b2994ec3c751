"""The Replay button: who may have a replay drawn, and sending it.

An animated replay of a long game is the most expensive thing the bot draws (every
action is a frame), so:

* only the game's owner may have it drawn; anyone may watch it once it exists;
* one at a time, each drawn once, nothing over the upload cap: ``bot.play.replay_cache``;
* each press that uploads uses the player's ``replay`` quota (``bot.adapter.cooldowns``);
* a game of more than ``MAX_REPLAY_ACTIONS`` actions is not drawn (see there).
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.adapter import cooldowns
from bot.adapter.errors import report
from bot.adapter.game_buttons import GameButtonBase
from bot.adapter.interactions import service_of
from bot.games import front_for
from bot.languages.locale import player_translator
from bot.play.feedback import UserFeedback
from bot.play.replay_cache import MAX_REPLAY_ACTIONS, Replays


def replays_of(interaction: discord.Interaction[Any]) -> Replays:
    """The bot's ``Replays`` (one is made on first use for a client without one)."""
    client: Any = interaction.client
    replays = getattr(client, "replays", None)
    if not isinstance(replays, Replays):
        replays = Replays()
        client.replays = replays
    return replays


async def send_replay(interaction: discord.Interaction[Any], game_id: int) -> None:
    """The Replay button: checks first (privately answered), then draw or re-send, publicly."""
    tr = await player_translator(interaction)
    service = service_of(interaction)
    replays = replays_of(interaction)
    row = await service.stored(game_id)  # the row only: no engine replay kept for a replay
    if row.status != "won" or not front_for(row.kind).has_replay:
        raise UserFeedback("error.replay_not_won")
    gif = replays.cached(row.id)
    if gif is None:
        if len(row.moves) > MAX_REPLAY_ACTIONS:
            raise UserFeedback("replay.too_long", limit=MAX_REPLAY_ACTIONS)
        if interaction.user.id != row.owner_id:
            raise UserFeedback("replay.owner_only", owner=f"<@{row.owner_id}>")
        if replays.busy:
            raise UserFeedback("replay.busy")
    else:
        replays.check_sendable(gif)
    cooldowns.hit(interaction, cooldowns.REPLAY)
    await interaction.response.defer(thinking=True)  # public: the animation is for the channel
    if gif is None:
        gif = await replays.draw(row.id, lambda: service.replay(row.id))
    file = discord.File(io.BytesIO(replays.check_sendable(gif)), filename="replay.gif")
    await interaction.followup.send(tr("reply.replay", user=interaction.user.mention), file=file)


class ReplayButton(GameButtonBase, template=r"r:(?P<gid>[0-9]+)"):
    """Under a won board: its player has the animation drawn; then anyone may watch it."""

    prefix = "r"
    default_label = "Replay"
    style = discord.ButtonStyle.primary

    async def callback(self, interaction: discord.Interaction) -> None:
        try:  # the owner draws it (one at a time, cached, capped); then anyone may watch it
            await send_replay(interaction, self.game_id)
        except Exception as exc:
            await report(interaction, exc)
