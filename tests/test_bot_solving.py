"""The solver's pools, for real: a long winnable-deal search never delays a player's hint."""

from __future__ import annotations

import asyncio
import os

import pytest

import engine
import storage
from bot.games.bakers import BakersFront
from bot.play.solving import SEARCH_NICENESS, Solver

CODE = "BK1-C4-AAAAA24"


class NoShippedDeals(BakersFront):
    """Jeu du Boulanger with an empty shipped stock, so a top-up must search (1 cell: for seconds)."""

    def shipped_deals(self, cells: int) -> tuple[int, ...]:
        return ()


@pytest.mark.slow
async def test_a_hint_answers_while_a_long_top_up_is_still_running(tmp_path):
    store = await storage.open_store(str(tmp_path / "s.sqlite3"))
    solver = Solver(1)  # the default: one process for players' hints
    try:
        await solver.warm()
        top_up = asyncio.create_task(solver.top_up(store, NoShippedDeals(), 1, budget=8.0))
        await asyncio.sleep(0.5)  # the search worker is busy now
        assert not top_up.done()
        game = engine.replay(CODE, ())
        advice = await solver.hint(BakersFront(), game, 2.0)
        assert advice.status == "move"
        assert not top_up.done(), "the hint waited for the deal search"
        await top_up
    finally:
        solver.close()
        await store.close()


async def test_the_deal_search_worker_runs_at_a_lower_priority():
    solver = Solver(1)
    try:
        mine = os.nice(0)
        assert await solver.run_background(os.nice, 0) == min(19, mine + SEARCH_NICENESS)
        assert await solver.run(os.nice, 0) == mine  # hints keep the bot's priority
    finally:
        solver.close()
