"""The games this process holds: their locks, their engine states, the damaged ones, endings.

Every part of the service reads and ends games through one ``Games``: moves on one game are
serialised by its asyncio lock, an engine state is replayed from storage only when the cached
one is not at the stored version, a game that no longer replays is marked once and offered to
its player to end, and every committed change is told to the watchers (the race keeper).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Literal

import engine
import storage
from bot.games import front_for, fronts
from bot.play.feedback import UserFeedback
from bot.play.verdicts import Verdicts

log = logging.getLogger(__name__)

Ending = Literal["won", "lost", "resigned"]
CACHE_SIZE = 512
# Storage's ``games.source`` of a race's games.
RACE_SOURCE = "race"
# Games whose board only their player sees: a race's (everyone has the same deal).
PRIVATE_SOURCES = frozenset({RACE_SOURCE})


class DamagedGame(UserFeedback):
    """The stored game no longer replays (its moves were edited or damaged): it is marked and
    kept for the operator; the player is offered to end it (``/resign``) and start anew."""

    def __init__(self, row: storage.GameRow) -> None:
        super().__init__("error.damaged_game")
        self.row = row


class DamagedGameEnded(UserFeedback):
    """A damaged game was ended at its player's request (its record kept as it is)."""

    def __init__(self, row: storage.GameRow) -> None:
        super().__init__("game.damaged_ended")
        self.row = row


def is_private(row: storage.GameRow) -> bool:
    """A race's game, while everyone has the same deal: its board is shown to its player only
    (others must not copy the moves), it gets no hint (the solver would race for the player)
    and never shows the deal's code (a racer must not paste it into the solver; the race's
    result shows it)."""
    return row.source in PRIVATE_SOURCES


class Games:
    """The store and what this process keeps of its games between actions."""

    def __init__(self, store: storage.Store, clock: Callable[[], dt.datetime]) -> None:
        self.store = store
        self.clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Active games by id: the row last read or written and its engine state.
        self._games: OrderedDict[int, tuple[storage.GameRow, engine.Game[Any]]] = OrderedDict()
        self.background: set[asyncio.Task[Any]] = set()
        self.stopped = False  # stop_background: no background task starts any more
        self._damaged: set[int] = set()  # games found not to replay (marked once: _found_damaged)
        self.verdicts = Verdicts()  # whether each game can still be won (bot.play.verdicts)
        # Called with every game row a move, undo or ending committed (the race keeper listens).
        self.watchers: list[Callable[[storage.GameRow], Awaitable[None]]] = []

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def spawn(self, work: Coroutine[Any, Any, None], name: str | None = None) -> None:
        """Run ``work`` in the background, kept until done (``stop_background`` cancels it)."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def stop_background(self) -> None:
        """The bot is stopping: cancel the background work under way and start no refill."""
        self.stopped = True
        for task in self.background:
            task.cancel()

    # -- the engine states -------------------------------------------------------------
    def engine_game(self, row: storage.GameRow) -> engine.Game[Any]:
        """The engine state of ``row``: cached by version, else replayed from code + moves."""
        cached = self._games.get(row.id)
        if cached is not None and cached[0].version == row.version:
            self._games.move_to_end(row.id)
            return cached[1]
        try:
            game = engine.replay(row.code, row.moves)
        except Exception as exc:  # the stored record no longer replays: say so, once
            self._found_damaged(row, exc)
            raise DamagedGame(row) from None
        if row.is_active:  # a finished game takes no more moves: not worth the memory
            self.remember(row, game)
        return game

    def cached(self, game_id: int) -> tuple[storage.GameRow, engine.Game[Any]] | None:
        """The row and engine state this process last read or wrote of the game, if kept."""
        return self._games.get(game_id)

    def remember(self, row: storage.GameRow, game: engine.Game[Any]) -> None:
        self._games[row.id] = (row, game)
        self._games.move_to_end(row.id)
        while len(self._games) > CACHE_SIZE:
            self._games.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """Drop the cached state (the game ended, or moved on without storage)."""
        self._games.pop(game_id, None)

    # -- damaged games -----------------------------------------------------------------
    def _found_damaged(self, row: storage.GameRow, exc: Exception) -> None:
        """Log and mark a damaged game the first time this process meets it (not on every action)."""
        if row.id in self._damaged:
            return
        self._damaged.add(row.id)
        reason = f"{type(exc).__name__}: {exc}"
        log.error(
            "game %s (%s, owner %s) no longer replays from its stored moves (%s): marked damaged, kept "
            "for the operator; its player is offered to end it",
            row.id,
            row.code,
            row.owner_id,
            reason,
        )
        self.spawn(self._mark_damaged(row.id, reason))

    async def _mark_damaged(self, game_id: int, reason: str) -> None:
        try:
            await self.store.mark_damaged(game_id, reason)
        except storage.StorageError as exc:
            log.warning("could not mark game %s damaged: %s", game_id, exc)

    async def end_damaged(self, row: storage.GameRow) -> storage.GameRow:
        """End a damaged game as resigned with the score and move count it has stored."""
        done = await self.store.finish_game(
            row.id, row.version, "resigned", score=row.score, move_count=row.move_count
        )
        log.info("damaged game %s ended by its player (its moves kept as they are)", row.id)
        self.forget(row.id)
        await self.changed(done)
        return done

    # -- reading games -----------------------------------------------------------------
    async def load(self, game_id: int) -> tuple[storage.GameRow, engine.Game[Any]]:
        row = await self.stored(game_id)
        return row, self.engine_game(row)

    async def stored(self, game_id: int) -> storage.GameRow:
        """The game's row as stored, without replaying it (a replay, a finished game's page)."""
        try:
            return await self.store.get_game(game_id)
        except storage.GameNotFound:
            raise UserFeedback("error.no_such_game") from None

    async def owned(self, user_id: int, game_id: int) -> tuple[storage.GameRow, engine.Game[Any]]:
        row = await self.stored(game_id)
        if row.owner_id != user_id:  # before replaying it: a stranger learns nothing more
            raise UserFeedback("error.not_your_game", owner=f"<@{row.owner_id}>")
        return row, self.engine_game(row)

    async def find(self, user_id: int, kind: str | None = None) -> storage.GameRow:
        """The player's active game of ``kind``, or their most recent active game."""
        if kind is not None:
            front = front_for(kind)
            row = await self.store.active_game(user_id, front.kind)
            if row is None:
                raise UserFeedback(front.key("error.no_active_game"))
            return row
        rows = await self.store.active_games(user_id)
        if not rows:
            raise UserFeedback("error.no_active_game")
        return max(rows, key=lambda r: r.updated_at)

    async def active_engine_games(self, user_id: int) -> list[tuple[storage.GameRow, engine.Game[Any]]]:
        rows = await self.store.active_games(user_id)
        rows.sort(key=lambda r: r.updated_at, reverse=True)
        return [(row, self.engine_game(row)) for row in rows]

    async def game_for_move(self, user_id: int, notation: str) -> storage.GameRow:
        """Which active game a typed move is for: the one whose notation it looks like."""
        if notation.strip().lower() == engine.UNDO:
            return await self.find(user_id)
        rows = await self.store.active_games(user_id)
        rows.sort(key=lambda r: r.updated_at, reverse=True)
        for row in rows:
            if front_for(row.kind).claims_notation(notation):
                return row
        if not rows:
            raise UserFeedback("error.no_active_game")
        claimant = next((f for f in fronts() if f.claims_notation(notation)), None)
        if claimant is None:
            return rows[0]  # not any game's notation: let that game's engine say why
        raise UserFeedback(claimant.key("error.no_active_game"))

    # -- endings and changes -------------------------------------------------------------
    async def finish(self, row: storage.GameRow, game: engine.Game[Any], status: Ending) -> storage.GameRow:
        if status == "resigned" and game.is_lost:
            status = "lost"  # no legal move was left: record it as the loss it is
        done = await self.store.finish_game(
            row.id, row.version, status, score=game.score, move_count=game.move_count, home=game.cards_home
        )
        log.info("game %s ended: %s (score %d)", row.id, status, game.score)
        self.forget(row.id)
        self.verdicts.forget(row.id)
        await self.changed(done)
        return done

    async def changed(self, row: storage.GameRow) -> None:
        """Tell the watchers; one failing never undoes or hides the committed change."""
        for watcher in self.watchers:
            try:
                await watcher(row)
            except Exception:
                log.exception("a watcher of game %s failed", row.id)
