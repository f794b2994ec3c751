"""Presses per win for a game asked of its front alone (``tests.front_presses``): a Klondike
win, its solver's line pressed on the board through ``GameService`` on a real SQLite file,
as ``benchmarks/clicks.py`` measures it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import engine
import storage
from benchmarks.clicks import play_deal
from bot.play.service import GameService
from engine.klondike.notation import STOCK
from tests.front_presses import Step, front_presses
from tests.lines import winning_line

# Deals the front's deal finder proves from seed 0 (``stock_codes``), one per draw.
CODES = ("KL1-D1-BV2VFCV", "KL1-D3-6BOFZTC")


@cache
def line_and_steps(code: str) -> tuple[list[str], list[Step]]:
    """The solver's line for ``code`` and its presses (about a second of CPU a deal, so both
    tests share one reckoning when they run in one worker)."""
    line = winning_line(engine.new_game(code))
    return line, front_presses(code, line)


def test_each_move_of_the_line_is_pressed_on_the_board_and_the_presses_win() -> None:
    for code in CODES:
        line, steps = line_and_steps(code)
        assert sum(s.moves for s in steps) == len(line)  # no move left out, none pressed twice
        assert {s.kind for s in steps} >= {"press", "pair"}
        assert any(s.value == STOCK for s in steps)  # the stock turns with one press
        assert sum(s.presses for s in steps) < len(line)  # Home sends several cards at once


async def test_a_whole_klondike_win_is_pressed_through_the_service(tmp_path: Path) -> None:
    store = await storage.open_store(str(tmp_path / "clicks.sqlite3"))
    try:
        service = GameService(store)
        for code in CODES:
            pressed, interactions, moves = await play_deal(service, "klondike", code)
            assert pressed == sum(s.presses for s in line_and_steps(code)[1])
            assert interactions < pressed < moves
    finally:
        await store.close()
