"""Presses per move and per win: solver solutions replayed through the bot's own button layer.

    .venv/bin/python benchmarks/clicks.py [--game bakers] [--deals 50] [--seed N]

For stock deals (the shipped proven-winnable ones of the game's front, its cell
counts in turn; with ``--seed``, random deals of the game the solver wins instead,
drawn from that seed, so a figure can be quoted on deals nobody tuned on) the
solver's solution is turned into what a player presses on the board
(``tests/presses.py``: a place's one-press move, Home / Finish for cards that
can go home, the "Another move…" menu for anything else) and played through
``GameService.press`` / ``GameService.play`` on a real SQLite file, the code
Discord presses reach. A menu choice counts as two presses (open, choose); a
move is one of the game's counted moves (a card auto-play sends home is one).
Before one-press play every move was two presses (about 230 a win).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
import storage
from bot.games import front_for
from bot.play.service import Board, GameService
from bot.play.starting import StartRequest
from engine.solver import solve
from tests.presses import presses

USER = 1


async def play_deal(service: GameService, kind: str, code: str) -> tuple[int, int, int]:
    """(presses, interactions, moves) of one win through the service."""
    steps = presses(code, solve(engine.new_game(code), time_limit=30).moves)
    board = (await service.start(StartRequest(USER, kind, code=engine.parse_code(code)))).board
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


def stock_codes(kind: str, count: int) -> list[str]:
    """The game's shipped proven-winnable deals, its cell counts in turn."""
    front = front_for(kind)
    cells = front.stock_cells
    stocks = {n: list(front.shipped_deals(n)) for n in cells}
    return [
        str(engine.make_code(kind, stocks[cells[i % len(cells)]][i // len(cells)], cells[i % len(cells)]))
        for i in range(count)
    ]


def random_codes(kind: str, count: int, seed: int) -> list[str]:
    """Random deals of the game (its cell counts in turn) that the solver wins, from ``seed``."""
    front = front_for(kind)
    rng = random.Random(seed)
    codes: list[str] = []
    while len(codes) < count:
        cells = front.stock_cells[len(codes) % len(front.stock_cells)]
        code = engine.make_code(kind, front.random_deal(rng), cells)
        if solve(engine.new_game(code), time_limit=20).verdict == "winnable":
            codes.append(str(code))
    return codes


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bakers", help="the game's kind (bakers, freecell)")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, help="random winnable deals from this seed (default: the stock)")
    args = parser.parse_args()
    kind = front_for(args.game).kind
    codes = stock_codes(kind, args.deals) if args.seed is None else random_codes(kind, args.deals, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = await storage.open_store(str(Path(tmp) / "clicks.sqlite3"))
        service = GameService(store)
        started = time.perf_counter()
        rows = [(code, *await play_deal(service, kind, code)) for code in codes]
        await store.close()
    per_move = [p / m for _, p, _, m in rows]
    where = "stock deals" if args.seed is None else f"random winnable deals (seed {args.seed})"
    print(f"{len(rows)} {kind} {where} won through the button layer in {time.perf_counter() - started:.1f} s")
    for cells in front_for(kind).stock_cells:
        mine = [r for r in rows if f"-C{cells}-" in r[0]]
        if mine:
            print(
                f"  {cells} cells: {len(mine)} deals, median {statistics.median(r[1] for r in mine)} presses "
                f"for {statistics.median(r[3] for r in mine)} moves"
            )
    print(
        f"presses per move: median {statistics.median(per_move):.2f} (min {min(per_move):.2f}, max {max(per_move):.2f})"
    )
    print(f"presses per move, all deals pooled: {sum(r[1] for r in rows) / sum(r[3] for r in rows):.3f}")
    print(f"presses per win:  median {statistics.median(r[1] for r in rows)} (max {max(r[1] for r in rows)})")
    print(f"interactions per win (a menu choice is one): median {statistics.median(r[2] for r in rows)}")
    print(f"moves per win:    median {statistics.median(r[3] for r in rows)}")


if __name__ == "__main__":
    asyncio.run(main())
