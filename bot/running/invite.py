"""``python -m bot invite``: the link that adds the bot to a server, with exactly the permissions it uses.

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

Replies to slash commands and buttons need no channel permission of their own.
No privileged intent is used: the bot asks for the ``guilds`` intent only.
"""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")


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
    return discord.utils.oauth_url(application_id, permissions=permissions(), scopes=SCOPES)


async def application_id(token: str) -> int:
    """The token's application, asked of Discord (``GET /oauth2/applications/@me``)."""
    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(token)
        info = await client.application_info()
        return info.id
