"""Which message shows a game's board, and at which version: no Discord, held by the service.

* A new game's board is posted just after the game is stored; a ``/move`` arriving in
  between must edit that board, not post a second one. ``expect`` marks the game as
  "board being posted" when it is created, ``posted`` (from ``set_message``) resolves
  it, and ``wait_posted`` lets the command wait a bounded time for it.
* ``shown`` remembers the version each board message was last (being) edited to, so a
  stale press only redraws a board that is really behind (not one a double click's
  first press is already updating).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict

MAX_GAMES = 4096
POST_WAIT = 2.0  # seconds a command waits for a new board's message


class BoardMessages:
    def __init__(self) -> None:
        self._pending: OrderedDict[int, asyncio.Future[tuple[int | None, int | None]]] = OrderedDict()
        self._shown: OrderedDict[int, int] = OrderedDict()
        self._posted: OrderedDict[int, tuple[int, int]] = OrderedDict()

    # -- a new board being posted --------------------------------------------------------
    def expect(self, game_id: int) -> None:
        """The game's first board is about to be posted."""
        try:
            future = asyncio.get_running_loop().create_future()
        except RuntimeError:  # no event loop (a synchronous caller): nothing can wait anyway
            return
        self._pending[game_id] = future
        while len(self._pending) > MAX_GAMES:
            _, old = self._pending.popitem(last=False)
            if not old.done():
                old.set_result((None, None))

    def posted(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        """The board is posted (or will not be: ``None``); wake whoever waits for it."""
        future = self._pending.pop(game_id, None)
        if future is not None and not future.done():
            future.set_result((channel_id, message_id))
        if channel_id is not None and message_id is not None:
            self._posted[game_id] = (channel_id, message_id)
            self._posted.move_to_end(game_id)
            while len(self._posted) > MAX_GAMES:
                self._posted.popitem(last=False)

    def last_posted(self, game_id: int) -> tuple[int, int] | None:
        """Where this process last posted the game's board (a row read just before may not know)."""
        return self._posted.get(game_id)

    def pending(self, game_id: int) -> bool:
        future = self._pending.get(game_id)
        return future is not None and not future.done()

    async def wait_posted(self, game_id: int, timeout: float = POST_WAIT) -> tuple[int | None, int | None]:
        """(channel id, message id) of the board being posted, or (None, None)."""
        future = self._pending.get(game_id)
        if future is None:
            return None, None
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        return None, None

    # -- which version a board message shows -----------------------------------------------
    def showing(self, game_id: int, version: int) -> None:
        self._shown[game_id] = version
        self._shown.move_to_end(game_id)
        while len(self._shown) > MAX_GAMES:
            self._shown.popitem(last=False)

    def shown(self, game_id: int) -> int | None:
        return self._shown.get(game_id)

    def unknown(self, game_id: int) -> None:
        """An edit failed: the board message may show anything."""
        self._shown.pop(game_id, None)
