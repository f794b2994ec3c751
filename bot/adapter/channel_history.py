"""Our own recent message in a channel, found by a button's custom id.

A post that reached Discord but was never recorded (the process died between the send
and the write, or every answer to it was lost) is found here instead of posted twice;
the enforced nonce only covers retries within Discord's few-minute window."""

from __future__ import annotations

import logging
from collections.abc import Set

import discord

from bot.adapter.layouts import custom_ids

log = logging.getLogger(__name__)

RECENT = 50  # messages read back: a post due now is among the channel's latest


async def find_own_post(client: discord.Client, channel_id: int, markers: Set[str]) -> int | None:
    """The id of the newest message of ours in the channel carrying one of ``markers`` (in the
    old form's rows or anywhere in a v2 card)."""
    me = client.user.id if client.user else None
    try:
        async for message in client.get_partial_messageable(channel_id).history(limit=RECENT):
            if message.author.id != me:
                continue
            if not markers.isdisjoint(custom_ids(message.components)):
                return message.id
    except discord.HTTPException as exc:
        log.warning("could not read channel %s to look for an earlier post: %s", channel_id, exc)
    return None
