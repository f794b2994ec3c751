"""Which game a player's page opens on in a channel: their seat.

Discord gives an Activity launched from a message nothing but its place (the SDK's
``instanceId``, whose channel the server asks Discord for), so the game a page opens on is
remembered here, per player and channel:

* the chat's "Play on the cards" button on a board (``bot.adapter``) seats the presser at that
  board's game in its channel, then answers with the launch-activity callback (type 12): the
  page Discord opens in that channel opens on that game;
* the page itself, whenever it shows a game in an instance, seats its player there, so a page
  reloaded in the same channel (a desktop player popping the Activity out gets a new instance
  id: Discord's known behaviour) comes back to the game it showed, not to an empty page.

Kept in memory only, bounded (``MAX_SEATS``, the least recently used forgotten first) and for
``SEAT_SECONDS``: after a restart, or long after, a page opens on the player's latest game.
The server checks ownership of the game on every use: a seat never shows another's game.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

MAX_SEATS = 8192  # (player, channel) pairs remembered
SEAT_SECONDS = 6 * 3600.0  # a seat older than this is forgotten


class Seats:
    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seats: OrderedDict[tuple[int, int], tuple[int, float]] = OrderedDict()

    def seat(self, player_id: int, channel_id: int, game_id: int) -> None:
        """``player_id``'s page in ``channel_id`` shows (or is to open on) ``game_id``."""
        key = (player_id, channel_id)
        self._seats[key] = (game_id, self.clock())
        self._seats.move_to_end(key)
        while len(self._seats) > MAX_SEATS:
            self._seats.popitem(last=False)

    def game(self, player_id: int, channel_id: int) -> int | None:
        """The game ``player_id`` sits at in ``channel_id``, None if none (or forgotten)."""
        found = self._seats.get((player_id, channel_id))
        if found is None:
            return None
        if self.clock() - found[1] >= SEAT_SECONDS:
            del self._seats[(player_id, channel_id)]
            return None
        return found[0]

    def leave(self, player_id: int, channel_id: int, game_id: int) -> None:
        """Forget the seat if it still names ``game_id`` (that game is no longer to be shown)."""
        found = self._seats.get((player_id, channel_id))
        if found is not None and found[0] == game_id:
            del self._seats[(player_id, channel_id)]
