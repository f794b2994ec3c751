"""Where a command runs and what the bot may do there: a server that added it, its own DM with a
player, or only through the player's own install (a group DM, a server without the bot).

Discord lets an app be installed two ways (``integration_types``: 0 a server, 1 a user) and
offers each command in contexts (``contexts``: 0 a server, 1 the bot's DM, 2 other DMs and group
DMs). Commands for one player are offered everywhere; the admins' are for servers that added the
bot. Where the bot is only the player's install it is no member of the channel: it may answer
and edit through the interaction (its token lasts 15 minutes) but never call a channel endpoint
(post, edit, read history there), so such a board's message is stored without its channel
(``replies.send_new_board``) and every channel call checks ``reaches_channel`` first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.play.feedback import UserFeedback
from bot.running.invite import invite_url

T = TypeVar("T")

#: The default of every command (``BoulangerBot``'s tree): both installs, every context.
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)

#: Commands about a server (its races, its daily post): offered in servers only, in both
#: installs, so that where the bot is only the player's install they answer why not.
in_servers = app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
#: Admin commands of a server that added the bot: nowhere else.
server_install = app_commands.allowed_installs(guilds=True, users=False)


def reaches_channel(interaction: discord.Interaction[Any]) -> bool:
    """May the bot call channel endpoints for the interaction's channel? In a server only when it
    is a member (its gateway told it of the guild: on the shard that gets the guild's
    interactions); outside servers only in its own DM with the player."""
    if interaction.guild_id is not None:
        return interaction.client.get_guild(interaction.guild_id) is not None
    return bool(interaction.context.dm_channel)


def bot_in_server(interaction: discord.Interaction[Any]) -> bool:
    """Is this a server the bot was added to (not a DM, not a server it is no member of)?"""
    return interaction.guild_id is not None and reaches_channel(interaction)


def require_server_bot(interaction: discord.Interaction[Any], feature: str) -> None:
    """Refuse, in one line saying why and how, a feature that needs the bot in the server:
    ``feature`` is ``race`` or ``daily_channel`` (offered in servers only) or ``board``
    (channel, server and race boards; outside servers too: ``where.board.private``)."""
    if bot_in_server(interaction):
        return
    key = f"where.{feature}" if interaction.guild_id is not None else f"where.{feature}.private"
    raise UserFeedback(key, link=invite_url(interaction.application_id))


def needs_server_bot(feature: str) -> Callable[[T], T]:
    """``require_server_bot`` as a command check: it runs before the options are converted (a
    channel option cannot be where the bot is no member). The refusal reaches the error ladder
    as a ``CheckFailure`` caused by the ``UserFeedback``."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        try:
            require_server_bot(interaction, feature)
        except UserFeedback as refused:
            raise app_commands.CheckFailure(refused.key) from refused
        return True

    return app_commands.check(predicate)
