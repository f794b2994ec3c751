"""Presses per move and per win: solver solutions replayed through the bot's own button layer.

    .venv/bin/python benchmarks/clicks.py [--deals 50]

For stock deals (the shipped proven-winnable ones, 4, 2 and 1 free cells in
turn) the solver's solution is turned into what a player presses on the board
(``tests/presses.py``: a place's one-press move, Home / Finish for cards that
can go home, the "Another move…" menu for anything else) and played through
``GameService.press`` / ``GameService.play`` on a real SQLite file, the code
Discord presses reach. A menu choice counts as two presses (open, choose).
Before one-press play every move was two presses (about 230 a win).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
import storage
from bot.play.dailycodes import shipped_winnable
from bot.play.service import Board, GameService
from engine.solver import solve
from tests.presses import presses

USER = 1


async def play_deal(service: GameService, code: str) -> tuple[int, int, int]:
    """(presses, interactions, moves) of one win through the service."""
    steps = presses(code, solve(engine.new_game(code), time_limit=30).moves)
    board = (await service.start(USER, "bakers", code=engine.parse_code(code))).board
    pressed = 0
    for step in steps:
        if step.kind == "menu":
            board = await service.play(USER, board.row.id, step.value, version=board.row.version)
            pressed += 2
        else:
            answer = await service.press(USER, board.row.id, board.row.version, "", step.value or "h")
            assert isinstance(answer, Board)
            board = answer
            pressed += 1
    assert board.row.status == "won", code
    return pressed, len(steps), board.game.move_count


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    args = parser.parse_args()
    stocks = {cells: list(shipped_winnable(cells)) for cells in (4, 2, 1)}
    codes = []
    for i in range(args.deals):
        cells = (4, 2, 1)[i % 3]
        codes.append(str(engine.make_code("bakers", stocks[cells][i // 3], cells)))
    with tempfile.TemporaryDirectory() as tmp:
        store = await storage.open_store(str(Path(tmp) / "clicks.sqlite3"))
        service = GameService(store)
        started = time.perf_counter()
        rows = [(code, *await play_deal(service, code)) for code in codes]
        await store.close()
    per_move = [p / m for _, p, _, m in rows]
    print(f"{len(rows)} stock deals won through the button layer in {time.perf_counter() - started:.1f} s")
    for cells in (4, 2, 1):
        mine = [r for r in rows if f"-C{cells}-" in r[0]]
        print(
            f"  {cells} cells: {len(mine)} deals, median {statistics.median(r[1] for r in mine)} presses "
            f"for {statistics.median(r[3] for r in mine)} moves"
        )
    print(
        f"presses per move: median {statistics.median(per_move):.2f} (min {min(per_move):.2f}, max {max(per_move):.2f})"
    )
    print(f"presses per win:  median {statistics.median(r[1] for r in rows)} (max {max(r[1] for r in rows)})")
    print(f"interactions per win (a menu choice is one): median {statistics.median(r[2] for r in rows)}")
    print(f"moves per win:    median {statistics.median(r[3] for r in rows)}")


if __name__ == "__main__":
    asyncio.run(main())
