"""The Replay button's guard rails: who may draw a replay, one at a time, each drawn once.

An animated replay of a long game is the most expensive thing the bot draws (every
action is a frame), so:

* only the game's owner may have it drawn; anyone may watch it once it exists;
* at most one replay is drawn at a time in the process; a second request meanwhile is
  told to try again in a moment (not queued: a queue would hold the memory anyway);
* each finished game's GIF is kept in a small in-memory LRU with a hard byte budget
  (``CACHE_BYTES``, every entry's bookkeeping counted too, at most ``CACHE_ENTRIES``), so
  a second press re-sends it without drawing (a won game never changes). Memory, not
  disk: after a restart the owner draws it again, which the quota allows. Nothing else
  is kept per replay: the game's row is read, not replayed into the service's cache.
  Replay memory is that budget plus the one replay being drawn (its output capped at
  ``renderer.replay.MAX_BYTES``, two boards alive): ``benchmarks/replay_memory.py``
  measures it over 500 long replays (docs/BENCHMARKS.md);
* a GIF over ``MAX_UPLOAD`` (8 MiB, Discord's upload limit without boosts) is not
  sent; its size is remembered so it is not drawn again;
* each press that uploads uses the player's ``replay`` quota (``bot.adapter.cooldowns``);
* a game of more than ``MAX_REPLAY_ACTIONS`` actions is not drawn (see there).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.play.feedback import UserFeedback

log = logging.getLogger(__name__)

MAX_UPLOAD = 8 * 1024 * 1024
# The renderer streams frames (at most 400, memory independent of the game's length) under
# a byte cap, so any game the service accepts (``service.MAX_ACTIONS``) can be drawn.
MAX_REPLAY_ACTIONS = 5_000
CACHE_BYTES = 32 * 1024 * 1024
CACHE_ENTRIES = 256
ENTRY_BYTES = 256  # what one entry costs besides its GIF (dict slot, key, bytes header), counted
TOO_BIG = b""  # cached marker: drawn once, too large to send


class Replays:
    """The replays drawn so far (LRU by bytes) and the one-at-a-time drawing slot."""

    def __init__(
        self, *, cache_bytes: int = CACHE_BYTES, max_upload: int = MAX_UPLOAD, entries: int = CACHE_ENTRIES
    ) -> None:
        self.cache_bytes = cache_bytes
        self.entries = entries
        self.max_upload = max_upload
        self._cache: OrderedDict[int, bytes] = OrderedDict()
        self._size = 0
        self._drawing = asyncio.Lock()
        self.drawn = 0  # how many replays this process has drawn (for tests and logs)

    @property
    def busy(self) -> bool:
        return self._drawing.locked()

    @property
    def cached_bytes(self) -> int:
        """What the cache holds, bookkeeping included: never more than ``cache_bytes``."""
        return self._size

    def cached(self, game_id: int) -> bytes | None:
        """The game's GIF if it was drawn (``TOO_BIG`` if it could not be sent), else None."""
        gif = self._cache.get(game_id)
        if gif is not None:
            self._cache.move_to_end(game_id)
        return gif

    def check_sendable(self, gif: bytes) -> bytes:
        if gif is TOO_BIG or len(gif) > self.max_upload:
            raise UserFeedback("replay.too_big", mib=self.max_upload // (1024 * 1024))
        return gif

    async def draw(self, game_id: int, render: Callable[[], Awaitable[bytes]]) -> bytes:
        """Draw the game's replay (the caller checked ``busy`` and the owner), cache and return it."""
        if self._drawing.locked():
            raise UserFeedback("replay.busy")
        async with self._drawing:
            found = self.cached(game_id)  # drawn while this press waited for the slot
            if found is not None:
                return found
            gif = await render()
            self.drawn += 1
            if len(gif) > self.max_upload:
                log.warning("replay of game %s is %d bytes, over the upload cap", game_id, len(gif))
                gif = TOO_BIG
            self._keep(game_id, gif)
            return gif

    def _keep(self, game_id: int, gif: bytes) -> None:
        cost = len(gif) + ENTRY_BYTES
        if cost > self.cache_bytes:
            return
        old = self._cache.pop(game_id, None)
        if old is not None:
            self._size -= len(old) + ENTRY_BYTES
        self._cache[game_id] = gif
        self._size += cost
        while self._size > self.cache_bytes or len(self._cache) > self.entries:
            _, dropped = self._cache.popitem(last=False)
            self._size -= len(dropped) + ENTRY_BYTES


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
    from bot.adapter import cooldowns
    from bot.adapter.interactions import service_of
    from bot.games import front_for
    from bot.languages.locale import player_translator

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
