"""``python -m bot invite``: the two links: one adds the bot to a server, with exactly the
permissions it uses; the other installs the app to a player's own account (its commands then
work in their DMs, group DMs and servers that have not added the bot; see ``bot.adapter.places``).

The application id comes from Discord (``GET /oauth2/applications/@me`` with the
bot token), so the link is always for the token's own application.

Why each permission (an audit of ``bot/``):

* **View Channel** -- see the channels it posts in (the daily channel, boards it edits).
* **Send Messages** -- the daily challenge post (``bot/adapter/cogs/daily.py``), sent as a plain
  channel message, not as an interaction reply.
* **Read Message History** -- find its own daily post in the channel after a crash
  between sending and recording it (``Daily._find_post``).
* **Attach Files** -- board pictures (PNG) and replays (GIF); a board is also edited
  outside an interaction (``replies.edit_board_message``) with a new picture.
* **Embed Links** -- the leaderboard and stats replies are embeds.

Replies to slash commands and buttons need no channel permission of their own. The user
install asks for no permission at all (``applications.commands`` only, ``integration_type=1``):
where only it is present the bot answers through interactions and never calls a channel.
No privileged intent is used: the bot asks for the ``guilds`` intent only.
"""

from __future__ import annotations

import urllib.parse

import discord

SCOPES = ("bot", "applications.commands")
USER_SCOPES = ("applications.commands",)
GUILD_INSTALL, USER_INSTALL = 0, 1  # Discord's integration types


def permissions() -> discord.Permissions:
    """Everything the bot needs in a channel, and nothing more."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        read_message_history=True,
        attach_files=True,
        embed_links=True,
    )


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server (as a guild install, with its permissions)."""
    url = discord.utils.oauth_url(application_id, permissions=permissions(), scopes=SCOPES)
    return f"{url}&integration_type={GUILD_INSTALL}"


def user_install_url(application_id: int) -> str:
    """The link that installs the app to the player's own account (no bot user, no permission)."""
    query = urllib.parse.urlencode(
        {"client_id": application_id, "scope": " ".join(USER_SCOPES), "integration_type": USER_INSTALL}
    )
    return f"https://discord.com/oauth2/authorize?{query}"


async def application_id(token: str) -> int:
    """The token's application, asked of Discord (``GET /oauth2/applications/@me``)."""
    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(token)
        info = await client.application_info()
        return info.id
