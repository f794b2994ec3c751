"""Searches run in process pools with a time budget, so no player waits on another.

Two pools: players' searches (hints, the after-game verdict) in one, the
winnable-deal stock's top-up in a second, one-process pool whose worker runs at
a lower CPU priority, so a long deal search never queues a hint behind it.

What the workers run is each game's front's business (``hint_worker``,
``winnable_finder``): module-level functions over plain values (a code and an
action log), so they pickle. This pool only runs them, with a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import sys
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import engine
import storage
from bot.games.base import Advice, Verdict

if TYPE_CHECKING:
    from bot.games.base import GameFront
    from bot.games.front.solving import Solving

T = TypeVar("T")

log = logging.getLogger(__name__)

# Keep at least this many proven-winnable deals per cell count in the stock.
STOCK_LOW_WATER = 20
STOCK_BATCH = 40


def _noop() -> None:
    """Worker: nothing (used to start the pool's processes early)."""


def _die_with_parent() -> None:
    """Worker start-up: end with the bot, even when it is killed (no orphaned solver processes),
    and leave Ctrl-C to the bot (a terminal sends it to every process of the console or bot:
    a worker taking it would die with a traceback and break its pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


# How much nicer (lower priority) than the bot the deal-search worker runs.
SEARCH_NICENESS = 10


def _background_worker() -> None:
    """Deal-search worker start-up: end with the bot, and yield the CPU to hints and the bot."""
    _die_with_parent()
    # Where that is not allowed, the separate pool alone keeps hints from queueing.
    with contextlib.suppress(OSError):
        os.nice(SEARCH_NICENESS)


class Solver:
    """Process pools: one for players' hints, a separate low-priority one for deal searches."""

    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._search_pool: ProcessPoolExecutor | None = None

    @property
    def workers(self) -> int:
        """Processes in the players' pool."""
        return self._workers

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self._workers, initializer=_die_with_parent)
        return self._pool

    def _search_executor(self) -> ProcessPoolExecutor:
        if self._search_pool is None:
            self._search_pool = ProcessPoolExecutor(max_workers=1, initializer=_background_worker)
        return self._search_pool

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
        """Run a player's search (a hint...) in the players' pool."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), fn, *args)
        return await asyncio.wait_for(future, timeout)

    async def run_background(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a search nobody waits for (the stock's top-up) in the low-priority pool."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._search_executor(), fn, *args)

    async def warm(self) -> None:
        """Start the worker processes ahead of the first hint, so it does not pay for that."""
        try:
            await self.run(_noop, timeout=60)
        except Exception:
            log.exception("the solver pool did not start")

    async def hint(self, front: Solving[Any], game: engine.Game[Any], seconds: float) -> Advice:
        """The front's advice for ``game``; ``unknown`` when the search ran out of time."""
        try:
            worker = front.hint_worker_for(game)  # the player's settings given (``use_settings``)
            return await self.run(worker, game.code, game.moves, seconds, timeout=seconds + 10)
        except TimeoutError:
            return Advice("unknown")

    async def verdict(
        self,
        front: Solving[Any],
        code: str,
        moves: tuple[str, ...],
        seconds: float,
        nodes: int,
        *,
        back: bool,
        known: tuple[Hashable, ...] = (),
        within: int | None = None,
    ) -> Verdict:
        """Whether the position ``code`` + ``moves`` reach can still be won, from the front's
        verdict worker in the players' pool (never on the event loop); ``unknown`` when the
        budget ran out or the game has no such worker. ``known``: marks of positions known to
        be winnable (the search may stop on reaching one), ``within`` undos back."""
        worker = front.verdict_worker
        if worker is None:
            return Verdict("unknown")
        try:
            return await self.run(
                worker, code, moves, seconds, nodes, back, known, within, timeout=seconds + 10
            )
        except TimeoutError:
            return Verdict("unknown")

    async def top_up(
        self, store: storage.Store, front: GameFront[Any], cells: int, *, budget: float = 60.0
    ) -> int:
        """Add proven-winnable deals with ``cells`` cells when the stock runs low; returns how many."""
        finder, variant = front.winnable_finder, front.variant(cells)
        if finder is None or await store.count_winnable_deals(front.kind, variant) >= STOCK_LOW_WATER:
            return 0
        shipped = await store.add_winnable_deals(front.kind, variant, front.shipped_deals(cells))
        if shipped and await store.count_winnable_deals(front.kind, variant) >= STOCK_LOW_WATER:
            return shipped
        seed = random.SystemRandom().randrange(2**63)
        deals = await self.run_background(finder, cells, seed, STOCK_BATCH, 2.0, budget)
        added = await store.add_winnable_deals(front.kind, variant, deals)
        log.info("winnable stock: +%d %s deals with %d cells", added, front.kind, cells)
        return added

    def close(self) -> None:
        for pool in (self._pool, self._search_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._search_pool = None
