"""The replays drawn so far and the one drawing slot: each replay drawn once, one at a time.

No Discord here (``bot.adapter.replays`` is the button):

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
  sent; its size is remembered so it is not drawn again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

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
