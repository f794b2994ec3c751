"""A game as its player should see it now (``Board``), and drawing it.

Pictures are drawn by the render pool (the event loop, or worker processes) in the current
language and the owner's deck; a finished board carries its result and whether the owner's
daily is still open today.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import engine
import storage
from bot.games import GameFront, front_for, front_of
from bot.games.base import Verdict
from bot.languages.language import current_language, picture_labels, user_deck
from bot.play import dailycodes
from bot.play.feedback import UserFeedback
from bot.play.games import Games, is_private
from bot.play.render_pool import RenderPool

# A replay must fit Discord's 8 MiB upload with room for the request around it.
REPLAY_MAX_BYTES = 7 * 1024 * 1024 + 512 * 1024
# The deal's source as a tag in the picture's header (``renderer.TAGS``); a stock deal has none.
PICTURE_TAGS = frozenset({"practice", "daily", "race"})


@dataclass(frozen=True)
class Board:
    """A game as the player should see it now: its row, engine state and picture."""

    row: storage.GameRow
    game: engine.Game[Any]
    png: bytes  # empty only for a race game just dealt (nobody sees it until they ask)
    selection: str = ""
    played: str | None = None  # notation of the move just played (or "undo")
    notice: str | None = None  # catalogue key of a note to show with the board
    notice_params: dict[str, Any] = field(default_factory=dict)
    result: storage.FinishedGame | None = None
    open_daily: dt.date | None = None  # a finished game's owner has not played this day's daily yet
    # The deal can no longer be won: the undos back to a position that can (the board warns).
    lost_undos: int | None = None
    # The search that decides whether this position can still be won, started by
    # ``GameService.settle`` once the board is answered (so it never delays the answer).
    pending: Callable[[], Awaitable[Verdict]] | None = field(default=None, compare=False, repr=False)

    @property
    def finished(self) -> bool:
        return not self.row.is_active

    @property
    def private(self) -> bool:
        """A race's board (``is_private``): shown to its player only, no hint, no code."""
        return is_private(self.row)

    @property
    def front(self) -> GameFront[Any]:
        return front_of(self.game)


class Drawing:
    """Boards and replays drawn for the games in ``games``, by ``pictures``."""

    def __init__(self, games: Games, pictures: RenderPool) -> None:
        self.games = games
        self.pictures = pictures

    async def render(self, row: storage.GameRow, game: engine.Game[Any], *, selection: str = "") -> bytes:
        """The board picture of ``row``'s ``game``, drawn in a worker thread or process so the
        event loop never waits on it; its header tells the deal's source and hides a race's code.
        Its deck is the owner's choice (read from the store's cache); its words are in the
        current language (``bot.languages.language``, the one context variable)."""
        front = front_of(game)
        highlight = front.highlight(selection) if selection else None
        language = current_language()
        labels = picture_labels(language, front.kind) if language != "en" else None  # words drawn
        deck = await user_deck(self.games.store, row.owner_id)  # the owner's choice, whoever asked
        tag = row.source if row.source in PICTURE_TAGS else None
        return await self.pictures.render(
            front, game, highlight=highlight, labels=labels, deck=deck, tag=tag, hide_code=is_private(row)
        )

    async def replay(self, game_id: int) -> bytes:
        """An animated GIF of a won game, one frame per action, for anyone to watch or share."""
        row = await self.games.stored(game_id)  # not replayed here: the renderer replays it
        front = front_for(row.kind)
        if row.status != "won" or not front.has_replay:
            raise UserFeedback("error.replay_not_won")
        language = current_language()
        labels = picture_labels(language, front.kind) if language != "en" else None
        return await self.pictures.render_replay(
            front, row.code, row.moves, labels=labels, max_bytes=REPLAY_MAX_BYTES
        )

    async def board(self, row: storage.GameRow, game: engine.Game[Any], png: bytes, **extra: Any) -> Board:
        """A board; a finished one with its result and whether today's daily is still open."""
        if row.is_active:
            return Board(row, game, png, **extra)
        store = self.games.store
        result = await store.get_result(row.id)
        daily = None
        front = front_of(game)
        if front.has_daily:
            today = dailycodes.utc_today(self.games.clock())
            stats = await store.player_stats(row.owner_id, row.kind, today=today)
            daily = today if stats.last_daily != today and row.daily_date != today else None
        return Board(row, game, png, result=result, open_daily=daily, **extra)
