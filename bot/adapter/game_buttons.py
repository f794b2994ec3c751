"""A restart-proof button that names one game: ``<prefix>:<game id>``.

Several buttons act on one game and need nothing else (the board's "Play on the cards", a won
board's Replay, a lost board's "How could it be won?"): each is a ``GameButtonBase`` subclass
that gives its own ``template`` (the ids it answers, as registered with the client), its
``prefix``, its English ``default_label`` and, unless secondary, its ``style``, and writes only
its callback. The custom id
a button is posted with is ``f"{prefix}:{game_id}"`` and must stay so: buttons already posted
keep working after a restart only while their ids match the templates.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.running.inflight import Tracked

# The ids of every such button; each subclass registers its own, narrower, template.
GAME_ID = r"(?P<prefix>[a-z]+):(?P<gid>[0-9]{1,20})"


class GameButtonBase(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME_ID):
    """A button whose custom id carries a game's id (``game_id``); never registered itself."""

    prefix: ClassVar[str]
    default_label: ClassVar[str]  # a button rebuilt from its id to answer a press shows nothing
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, game_id: int, label: str | None = None) -> None:
        shown = (self.default_label if label is None else label)[:80]
        custom_id = f"{self.prefix}:{game_id}"
        super().__init__(discord.ui.Button(label=shown, style=self.style, custom_id=custom_id))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["gid"]))
