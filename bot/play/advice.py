"""Advice on a player's game: hints, and whether the deal can still be won (issue 28).

A hint asks the game's own hint worker in the solver's pool; one that told the player
something is help on the record. A hint in a position the lost-deal warning would call lost
says so instead (the warning's news: seen, not help), for every game with verdicts: a hint
player that samples the unseen cards may still offer moves there. After a move, ``judge``
says at once what follows from the last known verdict (``bot.play.verdicts``), or hands back
the search to run; ``settle`` runs it once the board is answered, so a search never delays
the answer to a press.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import engine
import storage
from bot.games import GameFront, front_of
from bot.games.base import Advice, Verdict
from bot.languages.language import warns_lost
from bot.play import game_settings
from bot.play.board import Board
from bot.play.feedback import UserFeedback
from bot.play.games import Games, is_private
from bot.play.solving import Solver
from bot.play.verdicts import VERDICT_NODES, VERDICT_SECONDS

log = logging.getLogger(__name__)

# Hints that told the player something about their game count as help: a move to play, or
# that the position is lost (with the undos that mend it). "Won" and "unknown" tell nothing.
COUNTED_ADVICE = frozenset({"move", "lost"})


@dataclass(frozen=True)
class HintAnswer:
    """A hint for a player's game, with the game it is for (to say the move in words)."""

    advice: Advice
    row: storage.GameRow
    game: engine.Game[Any]


def lost_undos(game: engine.Game[Any], verdict: Verdict) -> int | None:
    """The undos the warning names, when the position is proven lost and they are known
    and within reach (the undo history is bounded); else None: say nothing."""
    if verdict.status != "lost" or verdict.undos is None or game.is_won:
        return None
    return verdict.undos if 1 <= verdict.undos <= game.undo_depth else None


class Advisor:
    """Hints and verdicts for the games in ``games``, from ``solver`` (none: no advice)."""

    def __init__(self, games: Games, solver: Solver | None, hint_seconds: float) -> None:
        self.games = games
        self.solver = solver
        self.hint_seconds = hint_seconds
        self.verdict_seconds, self.verdict_nodes = VERDICT_SECONDS, VERDICT_NODES
        # Searches waiting for a worker wait here, not in the pool's queue, so that one whose
        # position was left meanwhile is never run (``_search``).
        self._verdict_slots = asyncio.Semaphore(solver.workers if solver is not None else 1)
        # One search a position: a hint asking while the board's search runs waits for its answer.
        self._positions: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def hint(self, user_id: int, game_id: int) -> HintAnswer:
        """The next move to try, from the game's own hint worker (solver or hint player)."""
        row, game = await self.games.owned(user_id, game_id)
        if not row.is_active:
            raise UserFeedback("error.game_over")
        return await self.advise(row, game)

    async def advise(self, row: storage.GameRow, game: engine.Game[Any]) -> HintAnswer:
        if is_private(row):  # a race (a stale Hint button): the solver would race for the player
            raise UserFeedback("race.error.no_hints")
        front = front_of(game)
        if not front.offers_hints:
            raise UserFeedback("error.no_hints")
        if self.solver is None:
            raise UserFeedback("error.hint_unavailable")
        undos = await self._lost(front, row, game)
        if undos is not None:  # what the board says (or is about to): seen, not help
            return HintAnswer(Advice("lost", undos=undos), await self.record_warning(row), game)
        store = self.games.store
        await game_settings.apply(store, row.owner_id, front, game)  # a move the player can make next
        advice = await self.solver.hint(front, game, self.hint_seconds)
        if advice.status in COUNTED_ADVICE:
            # Help on the record (it ranks an assisted game below an unassisted one).
            try:
                row = await store.record_hint(row.id)
            except storage.GameNotActive:
                raise UserFeedback("error.game_over") from None
        return HintAnswer(advice, row, game)

    async def _lost(self, front: GameFront[Any], row: storage.GameRow, game: engine.Game[Any]) -> int | None:
        """The undos the lost-deal warning names for the game's position, from the verdict kept
        for it (no search then), else from the warning's own search, within its budget and
        shared with the board's when one is under way; None when the warning would say nothing
        (no verdicts for the game, the player's setting off, winnable or not known)."""
        if front.verdict_worker is None or game.undo_depth == 0 or game.is_won:
            return None  # a lost position needs an undo within reach to be warned of
        mark, code, moves = front.mark(game), game.code, game.moves  # before the game moves on
        if not await warns_lost(self.games.store, row.owner_id):
            return None
        verdicts = self.games.verdicts
        verdict = verdicts.hold(row.id, row.version, mark)
        if not verdicts.current(row.id, row.version):
            return None  # the game has moved on: its newer board says what holds
        if verdict is None:
            verdict = await self._search(front, row, code, moves)
        if not verdicts.current(row.id, row.version):
            return None  # moved on meanwhile: the newer board says what holds
        return lost_undos(game, verdict)

    # -- can it still be won? ------------------------------------------------------------
    async def judge(
        self,
        row: storage.GameRow,
        new: storage.GameRow,
        game: engine.Game[Any],
        before: Any,
        *,
        undo: bool,
    ) -> Verdict | Callable[[], Awaitable[Verdict]] | None:
        """What is known of whether ``new``'s position can still be won: at once when it
        follows from the last known verdict (``bot.play.verdicts``), else the search to run in
        the hint pool (``settle`` starts it once the board is answered: on a loaded machine a
        search beside the picture slowed the answer); None when the board does not warn (no
        worker, a race, a finished game, the player's setting off)."""
        front = front_of(game)
        if before is None or self.solver is None or front.verdict_worker is None:
            return None
        if not new.is_active or is_private(new) or not await warns_lost(self.games.store, new.owner_id):
            return None
        verdicts = self.games.verdicts
        step = verdicts.step(row.id, row.version, new.version, before, front.mark(game), undo=undo)
        if step.verdict is not None:
            return step.verdict
        return functools.partial(self._search, front, new, game.code, game.moves)

    async def _search(
        self, front: GameFront[Any], row: storage.GameRow, code: str, moves: tuple[str, ...]
    ) -> Verdict:
        """The search for ``row``'s position, once a worker is free: by then the game may have
        moved on (nothing to search: its newer position decides) or a search that finished
        meanwhile may have decided it, or told of a winnable position nearer to it."""
        assert self.solver is not None
        verdicts = self.games.verdicts
        key = (row.id, row.version)
        position = self._positions.get(key)
        if position is None:
            position = self._positions[key] = asyncio.Lock()
        async with position:  # a second asker finds the first one's answer in ``plan``
            async with self._verdict_slots:
                plan = verdicts.plan(row.id, row.version)
                if plan is None:
                    return Verdict("unknown")
                if plan.verdict is not None:
                    return plan.verdict
                back = plan.back
                verdict = await self.solver.verdict(
                    front,
                    code,
                    moves,
                    self.verdict_seconds,
                    self.verdict_nodes,
                    back=back,
                    known=plan.known,
                    within=plan.within,
                )
            if verdict.status == "lost" and not back:
                verdict = Verdict("lost", undos=1, nodes=verdict.nodes)  # the position before could be won
            verdicts.learned(row.id, row.version, verdict)
        return verdict

    async def record_warning(self, row: storage.GameRow) -> storage.GameRow:
        """The record says the warning was seen (it is no hint: the game stays unassisted)."""
        if row.warned:
            return row
        try:
            return await self.games.store.record_warning(row.id)
        except storage.GameNotActive:
            return row

    async def settle(self, board: Board) -> Board | None:
        """Run the search ``board``'s move needs (call it once the board is answered), and give
        ``board`` again if it must now warn that the deal can no longer be won; None when there
        is nothing to add (winnable, out of budget, or the game has moved on since: its newer
        board decides, and a search for a position already left is not run at all)."""
        verdicts = self.games.verdicts
        if board.pending is None or not verdicts.current(board.row.id, board.row.version):
            return None
        try:
            verdict = await board.pending()
        except Exception:
            log.exception("deciding whether game %s can still be won failed", board.row.id)
            return None
        undos = lost_undos(board.game, verdict)
        if undos is None or not verdicts.current(board.row.id, board.row.version):
            return None
        async with self.games.lock(board.row.id):
            try:
                row = await self.games.store.get_game(board.row.id)
            except storage.GameNotFound:
                return None
            if row.version != board.row.version or not row.is_active:
                return None
            row = await self.record_warning(row)
        return replace(board, row=row, lost_undos=undos, pending=None)
