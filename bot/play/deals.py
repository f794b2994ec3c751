"""Where a new game's cards come from: the winnable stock, a shuffle, the day's challenge.

A game with a stock deals from deals proven winnable (refilled in the background by the
solver's deal pool), falling back to its shipped deals, then to any shuffle; the daily is one
fresh draw per game and UTC day, stored once so every process deals the same cards.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
from collections import OrderedDict
from typing import Any

import engine
from bot.games import GameFront, front_for, fronts
from bot.play import dailycodes
from bot.play.games import Games
from bot.play.solving import Solver

log = logging.getLogger(__name__)

# The challenge codes remembered (each game's few days are all any start asks for).
DAILY_CODES_KEPT = 32


class Deals:
    """New deals for ``games``' store: stock, shuffles and the daily codes."""

    def __init__(self, games: Games, solver: Solver | None) -> None:
        self.games = games
        self.solver = solver
        # The days' challenge codes read or drawn, by (kind, date): stored once, never changed
        # (``set_daily_code`` keeps the first), so every start need not read them again.
        self._daily_codes: OrderedDict[tuple[str, dt.date], str] = OrderedDict()

    async def new_deal(
        self, front: GameFront[Any], cells: int | None, any_deal: bool
    ) -> tuple[engine.GameCode, bool]:
        """A stock deal (proven winnable) where the game has a stock, else any shuffle; with
        whether the deal is known to be winnable."""
        rng = random.SystemRandom()
        if cells not in front.stock_cells:
            return front.code(front.random_deal(rng), cells), True
        if any_deal:
            return front.code(front.random_deal(rng), cells), False
        assert cells is not None
        deal = await self.games.store.take_winnable_deal(front.kind, front.variant(cells))
        self.top_up_soon(front, cells)
        if deal is not None:
            return front.code(deal, cells), True
        shipped = front.shipped_deals(cells)
        if shipped:
            return front.code(rng.choice(shipped), cells), True
        return front.code(front.random_deal(rng), cells), False

    async def race_deal(self, kind: str, cells: int | None) -> engine.GameCode:
        """A new deal for a race: from the winnable stock where the game has one (every player
        gets the same cards, so it is taken once, for everyone)."""
        front = front_for(kind)
        code, _ = await self.new_deal(front, front.check_cells(cells), False)
        return code

    # -- the winnable stock --------------------------------------------------------------
    def top_up_soon(self, front: GameFront[Any], cells: int) -> None:
        """Refill the winnable-deal stock in the background (one refill per stock at a time)."""
        name = f"topup-{front.kind}-{cells}"
        games = self.games
        if self.solver is None or games.stopped or any(t.get_name() == name for t in games.background):
            return
        games.spawn(self._top_up(self.solver, front, cells), name=name)

    def top_up_all(self) -> None:
        """Refill every game's stocks (at start-up)."""
        for front in fronts():
            for cells in front.stock_cells:
                self.top_up_soon(front, cells)

    async def _top_up(self, solver: Solver, front: GameFront[Any], cells: int) -> None:
        try:
            await solver.top_up(self.games.store, front, cells)
        except Exception:
            log.exception("topping up the winnable stock (%s, %d cells) failed", front.kind, cells)

    # -- the daily -------------------------------------------------------------------------
    async def daily_code(self, kind: str, date: dt.date) -> str:
        known = self._daily_codes.get((kind, date))
        if known is not None:
            return known
        store = self.games.store
        stored = await store.daily_code(kind, date)
        if not stored:
            # A fresh draw, not the date: nobody can work out a coming day's deal and practise it.
            code = await asyncio.to_thread(front_for(kind).daily_code, dailycodes.draw())
            stored = await store.set_daily_code(kind, date, str(code))
        self._daily_codes[(kind, date)] = stored
        while len(self._daily_codes) > DAILY_CODES_KEPT:
            self._daily_codes.popitem(last=False)
        return stored

    async def is_todays_daily(self, front: GameFront[Any], code: engine.GameCode) -> bool:
        """Whether ``code`` is the deal everyone is ranked on today (a race may not use it)."""
        if not front.has_daily:
            return False
        return str(code) == await self.daily_code(front.kind, dailycodes.utc_today(self.games.clock()))
