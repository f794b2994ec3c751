"""The Activity's entry point command, kept in every bulk command sync.

Turning Activities on in the Developer Portal gives the application an entry point command
(type 4, ``PRIMARY_ENTRY_POINT``: "Launch", handled by Discord launching the Activity).
discord.py does not know that type, so its ``CommandTree.sync`` overwrites the global commands
with the tree's alone, and Discord refuses a bulk overwrite that leaves the entry point out
(error 50240). ``sync_global`` asks Discord for the commands it has, puts the tree's commands
and the entry point it already has (as it is: its name, words and handler are the operator's,
set in the portal) into one overwrite. With ``create``, an application that has none gets
one (``ENTRY_POINT``), launched by Discord.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.http import Route

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=30)
USER_AGENT = f"DiscordBot (https://github.com/Rapptz/discord.py {discord.__version__}) Boulanger"

PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2  # the entry point's handler: Discord launches the Activity itself
# What a bulk overwrite may carry of a command Discord returned (ApplicationCommandUpdateRequest).
KEPT = (
    "id",
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "contexts",
    "integration_types",
    "handler",
    "default_member_permissions",
    "nsfw",
)
ENTRY_POINT: dict[str, Any] = {
    "name": "launch",
    "type": PRIMARY_ENTRY_POINT,
    "handler": DISCORD_LAUNCH_ACTIVITY,
    "description": "Play solitaire on the cards themselves",
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}


def kept(command: dict[str, Any]) -> dict[str, Any]:
    return {key: command[key] for key in KEPT if command.get(key) is not None}


async def sync_global(
    tree: app_commands.CommandTree[Any], token: str, *, create: bool = False
) -> list[app_commands.AppCommand]:
    """Overwrite the global commands with the tree's, keeping the application's entry point.

    discord.py has no public method that sends a command it does not know, so the two calls
    are plain requests with the bot's token (to ``Route.BASE``, where discord.py sends its own);
    the commands are then read back through the tree."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    url = f"{Route.BASE}/applications/{client.application_id}/commands"
    headers = {"Authorization": f"Bot {token}", "User-Agent": USER_AGENT}
    async with aiohttp.ClientSession(headers=headers, timeout=TIMEOUT) as session:
        existing = await _json(await session.get(url))
        entries = [kept(dict(c)) for c in existing if c.get("type") == PRIMARY_ENTRY_POINT]
        if not entries and create:
            entries = [dict(ENTRY_POINT)]
            log.info("the application has no Activity entry point command: adding %r", ENTRY_POINT["name"])
        commands = tree.get_commands()
        translator = tree.translator
        if translator:
            payload = [await command.get_translated_payload(tree, translator) for command in commands]
        else:
            payload = [command.to_dict(tree) for command in commands]
        reply = await session.put(url, json=[*payload, *entries])
        if reply.status == 400:
            raise app_commands.CommandSyncFailure(discord.HTTPException(reply, await reply.json()), commands)
        await _json(reply)
    return [c for c in await tree.fetch_commands() if c.type.value != PRIMARY_ENTRY_POINT]


async def _json(reply: aiohttp.ClientResponse) -> Any:
    """The answer's JSON, or discord.py's error for its status."""
    async with reply:
        data = await reply.json() if reply.content_type == "application/json" else await reply.text()
        if reply.status == 403:
            raise discord.Forbidden(reply, data)
        if reply.status == 404:
            raise discord.NotFound(reply, data)
        if reply.status >= 500:
            raise discord.DiscordServerError(reply, data)
        if reply.status >= 300:
            raise discord.HTTPException(reply, data)
        return data
