"""Presses whose custom id matches none of the bot's buttons: answered, never ignored.

discord.py dispatches a component press to the ``DynamicItem`` whose template matches
its custom id and silently drops the rest; a forged id (or one from a retired kind of
button) would leave the player with "This interaction failed". The bot's
``on_interaction`` hands every component press here: one that no registered template
matches gets the usual private "unknown button" answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.adapter.errors import report
from bot.play.feedback import UserFeedback


def is_ours(custom_id: object, templates: Sequence[re.Pattern[str]]) -> bool:
    return isinstance(custom_id, str) and any(t.fullmatch(custom_id) for t in templates)


async def answer_unknown(interaction: discord.Interaction, templates: Sequence[re.Pattern[str]]) -> None:
    if interaction.type is not discord.InteractionType.component:
        return
    data = cast("dict[str, Any]", interaction.data or {})
    custom_id = data.get("custom_id")
    if is_ours(custom_id, templates):
        return
    await report(interaction, UserFeedback("error.unknown_button"))
