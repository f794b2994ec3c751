"""Searches run in a process pool with a time budget, so no player waits on another.

The functions at module level are what the worker processes run: they take
plain values (a code and an action log) and return plain dicts, so they pickle.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import engine

log = logging.getLogger(__name__)

# Keep at least this many proven-winnable deals per cell count in the stock.
STOCK_LOW_WATER = 20
STOCK_BATCH = 40


def bakers_hint(code: str, moves: tuple[str, ...], seconds: float) -> dict[str, Any]:
    """Worker: the solver's advice for a Jeu du Boulanger position."""
    from engine.solver import hint

    game = engine.replay(code, moves)
    return dataclasses.asdict(hint(game, time_limit=seconds))  # type: ignore[arg-type]


def calculation_hint(code: str, moves: tuple[str, ...], seconds: float) -> dict[str, Any]:
    """Worker: the Calculation hint player's move (it sees only what the player sees)."""
    game = engine.replay(code, moves)
    if game.is_over:
        return {"status": "won" if game.is_won else "lost", "move": None}
    # The target is under 1 s a move; the time limit is checked every 32 reshuffles.
    move = game.hint(time_limit=min(seconds, 0.8))  # type: ignore[attr-defined]
    return {"status": "move" if move else "lost", "move": move}


def calculation_perfect(code: str, seconds: float) -> dict[str, Any]:
    """Worker: could this Calculation deal have been won knowing the stock order? (from its start)"""
    from engine.calculation.perfect import solve

    result = solve(engine.new_game(code), time_limit=seconds, from_start=True)  # type: ignore[arg-type]
    return {"verdict": result.verdict, "moves": list(result.moves)}


def find_winnable(cells: int, seed: int, wanted: int, seconds_each: float, budget: float) -> list[int]:
    """Worker: try random deals with ``cells`` free cells; return those proven solvable."""
    import time

    from engine.solver import solve_code

    rng = random.Random(seed)
    found: list[int] = []
    deadline = time.monotonic() + budget
    while len(found) < wanted and time.monotonic() < deadline:
        deal = rng.randrange(engine.codes.MAX_DEAL + 1)
        result = solve_code(engine.code_for("bakers", deal, cells), (), seconds_each)
        if result.get("verdict") == "solvable":
            found.append(deal)
    return found


def _noop() -> None:
    """Worker: nothing (used to start the pool's processes early)."""


def _die_with_parent() -> None:
    """Worker start-up: end with the bot, even when it is killed (no orphaned solver processes)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class Solver:
    """A small process pool for hints and for topping up the winnable-deal stock."""

    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self._workers, initializer=_die_with_parent)
        return self._pool

    async def run(self, fn: Any, *args: Any, timeout: float | None = None) -> Any:
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), fn, *args)
        return await asyncio.wait_for(future, timeout)

    async def warm(self) -> None:
        """Start the worker processes ahead of the first hint, so it does not pay for that."""
        try:
            await self.run(_noop, timeout=60)
        except Exception:
            log.exception("the solver pool did not start")

    async def hint(self, game: engine.Game, seconds: float) -> dict[str, Any]:
        """Advice for ``game``: ``status`` (move/won/lost/unknown), ``move`` and, for lost, ``undos``."""
        fn = bakers_hint if game.kind == "bakers" else calculation_hint
        try:
            return await self.run(fn, game.code, game.moves, seconds, timeout=seconds + 10)
        except TimeoutError:
            return {"status": "unknown", "move": None}

    async def perfect(self, code: str, seconds: float) -> dict[str, Any]:
        """The perfect-information verdict on a Calculation deal (``unknown`` when out of time)."""
        try:
            return await self.run(calculation_perfect, code, seconds, timeout=seconds + 10)
        except TimeoutError:
            return {"verdict": "unknown", "moves": []}

    async def top_up(self, store: Any, cells: int, *, budget: float = 60.0) -> int:
        """Add proven-winnable deals with ``cells`` cells when the stock runs low; returns how many."""
        if await store.count_winnable_deals("bakers", cells) >= STOCK_LOW_WATER:
            return 0
        from bot.dailycodes import shipped_winnable

        shipped = await store.add_winnable_deals("bakers", cells, shipped_winnable(cells))
        if shipped and await store.count_winnable_deals("bakers", cells) >= STOCK_LOW_WATER:
            return shipped
        seed = random.SystemRandom().randrange(2**63)
        deals = await self.run(find_winnable, cells, seed, STOCK_BATCH, 2.0, budget)
        added = await store.add_winnable_deals("bakers", cells, deals)
        log.info("winnable stock: +%d deals with %d cells", added, cells)
        return added

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
