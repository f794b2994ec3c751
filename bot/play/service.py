"""What players do to their games, without Discord: the service the cogs, the Activity and the
console all call.

Every operation takes the acting user's id, checks ownership and the game's version, applies
the move in the engine and commits it to storage *before* returning, so anything the player
is told has been saved. Moves on one game are serialised by a per-game asyncio lock; two
processes on one database are kept apart by storage's version check.

``GameService`` plays (press, move, undo, a page's proposed move, resign, show) and hands the
rest to its parts: ``games`` (locks, engine states, damaged games: ``bot.play.games``),
``deals`` (stock and daily: ``bot.play.deals``), ``starter`` (``bot.play.starting``),
``advisor`` (hints and verdicts: ``bot.play.advice``) and ``drawing`` (``bot.play.board``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Literal

import engine
import storage
from bot.games import front_of
from bot.games.base import Press, Verdict
from bot.play import game_settings
from bot.play.advice import Advisor, HintAnswer, lost_undos
from bot.play.board import Board, Drawing
from bot.play.boards import BoardMessages
from bot.play.deals import Deals
from bot.play.error_words import of_game
from bot.play.feedback import UserFeedback
from bot.play.games import RACE_SOURCE, DamagedGame, DamagedGameEnded, Games, is_private
from bot.play.render_pool import RenderPool
from bot.play.solving import Solver
from bot.play.starting import (
    GameInProgress,
    Started,
    Starter,
    StartRequest,
    at_stake,
    check_code_kind,
    deal_source,
)
from bot.play.verdicts import Verdicts

__all__ = [
    "RACE_SOURCE",
    "Board",
    "DamagedGame",
    "DamagedGameEnded",
    "GameInProgress",
    "GameService",
    "HintAnswer",
    "StaleBoard",
    "StartRequest",
    "Started",
    "at_stake",
    "check_code_kind",
    "deal_source",
    "is_private",
]

log = logging.getLogger(__name__)

# Longest action log a game may have: a replay draws every action, a load replays them all.
MAX_ACTIONS = 5000


class StaleBoard(UserFeedback):
    """A press on a board drawn at an earlier version; ``row`` is the game as stored now."""

    def __init__(self, row: storage.GameRow) -> None:
        super().__init__("error.stale_board")
        self.row = row


class GameService:
    """Start, play, undo, hint, resign and show games; daily codes; the winnable stock."""

    def __init__(
        self,
        store: storage.Store,
        *,
        solver: Solver | None = None,
        hint_seconds: float = 2.0,
        clock: Callable[[], dt.datetime] | None = None,
        pictures: RenderPool | None = None,
    ) -> None:
        self.solver = solver
        self.games = Games(store, clock or (lambda: dt.datetime.now(dt.UTC)))
        self.drawing = Drawing(self.games, pictures or RenderPool(0))  # the event loop unless a pool
        self.boards = BoardMessages()  # which message shows each board (bot.play.boards)
        self.deals = Deals(self.games, solver)
        self.starter = Starter(self.games, self.deals, self.drawing, self.boards, solver)
        self.advisor = Advisor(self.games, solver, hint_seconds)
        # The parts' ways in, for the callers (the cogs, the Activity, the console, the races).
        self.load = self.games.load
        self.stored = self.games.stored
        self.owned = self.games.owned
        self.find = self.games.find
        self.active_engine_games = self.games.active_engine_games
        self.game_for_move = self.games.game_for_move
        self.stop_background = self.games.stop_background
        self.start = self.starter.start
        self.check_can_start = self.starter.check_can_start
        self.daily_code = self.deals.daily_code
        self.is_todays_daily = self.deals.is_todays_daily
        self.race_deal = self.deals.race_deal
        self.top_up_soon = self.deals.top_up_soon
        self.top_up_all = self.deals.top_up_all
        self.hint = self.advisor.hint
        self.settle = self.advisor.settle
        self.replay = self.drawing.replay

    @property
    def store(self) -> storage.Store:
        return self.games.store

    @property
    def clock(self) -> Callable[[], dt.datetime]:
        """The time every part reads (a test may move it on)."""
        return self.games.clock

    @clock.setter
    def clock(self, clock: Callable[[], dt.datetime]) -> None:
        self.games.clock = clock

    @property
    def verdicts(self) -> Verdicts:
        return self.games.verdicts

    @property
    def watchers(self) -> list[Callable[[storage.GameRow], Awaitable[None]]]:
        """Called with every game row a move, undo or ending committed (the race keeper listens)."""
        return self.games.watchers

    async def render(self, row: storage.GameRow, game: engine.Game[Any], *, selection: str = "") -> bytes:
        """The board picture of ``row``'s ``game`` (``Drawing.render``)."""
        return await self.drawing.render(row, game, selection=selection)

    # -- playing --------------------------------------------------------------------
    async def play(self, user_id: int, game_id: int, notation: str, *, version: int | None = None) -> Board:
        """Play one move (or ``"undo"``); committed before this returns."""
        async with self.games.lock(game_id):
            if version is not None:
                quick = await self._apply_cached(user_id, game_id, version, notation)
                if quick is not None:
                    return quick
            row, game = await self._checked(user_id, game_id, version)
            try:
                return await self._apply(row, game, notation)
            except storage.VersionConflict as exc:  # another process moved it after the load
                raise StaleBoard(exc.current) from None

    async def _apply_cached(self, user_id: int, game_id: int, version: int, notation: str) -> Board | None:
        """A move pressed on the board this process drew last, played without reading the
        game first (issue 26: one round trip to the database, the guarded write, whose
        version check refuses it if the game moved elsewhere: ``StaleBoard``). None when the
        cache cannot answer (not held at that version, not the owner's, finished, or the
        move is refused there): the caller reads the game and answers as usual."""
        cached = self.games.cached(game_id)
        if cached is None:
            return None
        row, game = cached
        if row.version != version or row.owner_id != user_id or not row.is_active:
            return None
        try:
            return await self._apply(row, game, notation)
        except engine.IllegalMove:
            return None  # nothing changed: the usual path says why, from the stored game
        except storage.VersionConflict as exc:  # another process moved it: an out-of-date board
            raise StaleBoard(exc.current) from None
        except storage.GameNotActive:
            raise UserFeedback("error.game_over") from None

    def _cached_meaning(self, game_id: int, sel: str, act: str) -> Press | None:
        """What a press means on the cached game, or None (not cached, or refused there: the
        usual path checks the owner first, then says why)."""
        cached = self.games.cached(game_id)
        if cached is None:
            return None
        try:
            return front_of(cached[1]).press(cached[1], sel, act)
        except (UserFeedback, engine.EngineError):
            return None

    async def propose(
        self,
        user_id: int,
        game_id: int,
        version: int,
        choose: Callable[[engine.Game[Any]], str],
        *,
        draw: bool = True,
    ) -> Board:
        """A move a page proposes (the Activity's drop, tap or Home): ``choose`` turns the
        position into the notation to play (or ``"undo"``), or raises ``UserFeedback`` /
        ``IllegalMove``. Under the game's lock, after the owner and version checks, so it is
        chosen on the very position it is played on; ``draw=False``: no picture (``png`` empty:
        the page draws the cards itself)."""
        async with self.games.lock(game_id):
            row, game = await self._checked(user_id, game_id, version)
            try:
                notation = choose(game)
            except engine.EngineError as exc:  # a front's refusal in the engine's terms
                of_game(exc, game.kind)
                raise
            return await self._apply(row, game, notation, draw=draw)

    async def press(self, user_id: int, game_id: int, version: int, sel: str, act: str) -> Board | HintAnswer:
        """A board button: select a source, play a move, undo, clear, end, or ask for a hint.

        One load of the game answers the owner check, the version check and the press; a
        move or an undo on the board this process drew last needs no load at all."""
        async with self.games.lock(game_id):
            quick = self._cached_meaning(game_id, sel, act)
            if quick is not None and quick.action in ("play", "undo"):
                notation = quick.value if quick.action == "play" else engine.UNDO
                played = await self._apply_cached(user_id, game_id, version, notation)
                if played is not None:
                    return played
            row, game = await self._checked(user_id, game_id, version)
            meaning = front_of(game).press(game, sel, act)
            if meaning.action == "play":
                return await self._apply(row, game, meaning.value)
            if meaning.action == "undo":
                return await self._apply(row, game, engine.UNDO)
            if meaning.action == "select":
                png = await self.render(row, game, selection=meaning.value)
                return Board(row, game, png, selection=meaning.value)
            if meaning.action == "clear":
                return Board(row, game, await self.render(row, game))
            if meaning.action == "resign":
                if not game.is_lost:  # End is offered only at a dead end; giving up is /resign
                    raise UserFeedback("error.moves_left")
                done = await self.games.finish(row, game, "resigned")
                return await self.drawing.board(done, game, await self.render(done, game))
        return await self.advisor.advise(row, game)

    async def _checked(
        self, user_id: int, game_id: int, version: int | None
    ) -> tuple[storage.GameRow, engine.Game[Any]]:
        row, game = await self.games.owned(user_id, game_id)
        if not row.is_active:
            raise UserFeedback("error.game_over")
        if version is not None and version != row.version:
            raise StaleBoard(row)
        return row, game

    async def _apply(
        self, row: storage.GameRow, game: engine.Game[Any], notation: str, *, draw: bool = True
    ) -> Board:
        """Engine first (an illegal move changes nothing), then storage, then the picture."""
        if len(row.moves) >= MAX_ACTIONS:
            raise UserFeedback("error.too_many_actions", limit=MAX_ACTIONS)
        front = front_of(game)
        before = front.mark(game)
        undo = notation.strip().lower() == engine.UNDO
        try:
            if undo:
                game.undo()
            else:
                await game_settings.apply(self.store, row.owner_id, front, game)  # e.g. auto-play off
                game.play(notation)
        except engine.EngineError as exc:
            of_game(exc, game.kind)  # its words: the refusing game's own first
            raise
        action = game.moves[-1]  # the canonical entry: a move, a batch (6h,ah) or "undo"
        new = await self._commit(row, game, action)
        if game.is_lost and new.is_active and front.dead_end_is_final:
            new = await self.games.finish(new, game, "lost")  # no move can ever be left: recorded now
        notice = "board.no_moves_left" if game.is_lost and new.is_active else None
        judged = await self.advisor.judge(row, new, game, before, undo=undo)
        pending = judged if callable(judged) else None  # a search: ``settle`` runs it after the answer
        undos = lost_undos(game, judged) if isinstance(judged, Verdict) else None
        if undos is not None:
            new = await self.advisor.record_warning(new)
        png = await self.render(new, game) if draw else b""
        board = await self.drawing.board(new, game, png, played=action, notice=notice, lost_undos=undos)
        return replace(board, pending=pending) if pending is not None else board

    async def _commit(self, row: storage.GameRow, game: engine.Game[Any], action: str) -> storage.GameRow:
        """Store ``action``, just played on ``game`` (a win ends the game); tell the watchers."""
        finish: Literal["won"] | None = "won" if game.is_won else None
        try:
            new = await self.store.append_move(
                row.id,
                row.version,
                action,
                score=game.score,
                move_count=game.move_count,
                finish=finish,
                home=game.cards_home,
            )
        except BaseException:
            self.games.forget(row.id)  # the cached game moved on without storage
            raise
        self.games.remember(new, game)
        await self.games.changed(new)
        if not new.is_active:
            self.games.forget(row.id)
            log.info("game %s won in %d moves (score %d)", row.id, game.move_count, game.score)
        return new

    async def undo(self, user_id: int, game_id: int, *, version: int | None = None) -> Board:
        return await self.play(user_id, game_id, engine.UNDO, version=version)

    async def resign(self, user_id: int, game_id: int) -> Board:
        """End the game (``DamagedGameEnded`` for one that no longer replays: no board to draw)."""
        async with self.games.lock(game_id):
            try:
                row, game = await self._checked(user_id, game_id, None)
            except DamagedGame as damaged:
                if damaged.row.owner_id != user_id:
                    raise UserFeedback("error.not_your_game", owner=f"<@{damaged.row.owner_id}>") from None
                if not damaged.row.is_active:
                    raise UserFeedback("error.game_over") from None
                raise DamagedGameEnded(await self.games.end_damaged(damaged.row)) from None
            done = await self.games.finish(row, game, "resigned")
            return await self.drawing.board(done, game, await self.render(done, game))

    async def end_game(self, game_id: int) -> storage.GameRow | None:
        """End a game as resigned, whoever owns it (a race's end); None if it was already over."""
        async with self.games.lock(game_id):
            row, game = await self.games.load(game_id)
            if not row.is_active:
                return None
            return await self.games.finish(row, game, "resigned")

    async def board_of(self, user_id: int, game_id: int) -> Board:
        """The player's board of one game, active or finished (a race's "My board")."""
        async with self.games.lock(game_id):
            row, game = await self.games.owned(user_id, game_id)
            return await self.drawing.board(row, game, await self.render(row, game))

    async def show(self, user_id: int, kind: str | None = None) -> Board:
        """The player's current board (for /board and after a restart)."""
        row = await self.games.find(user_id, kind)
        async with self.games.lock(row.id):  # a move must not change the game while it is drawn
            row, game = await self.games.load(row.id)
            return Board(row, game, await self.render(row, game))

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        await self.store.set_message(game_id, channel_id, message_id)
        self.boards.posted(game_id, channel_id, message_id)
