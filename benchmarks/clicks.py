"""Presses per move and per win: solver solutions replayed through the bot's own button layer.

    .venv/bin/python benchmarks/clicks.py [--game bakers] [--deals 50] [--seed N]

For stock deals (the shipped proven-winnable ones of the game's front, its cell
counts in turn, or for a game that ships none those its deal finder proves from
seed 0; with ``--seed``, random deals of the game its solver wins instead, drawn
from that seed, so a figure can be quoted on deals nobody tuned on) the game's
solver's line (``tests/lines.py``: bounded by positions, not seconds, so the
figures do not depend on the machine's load) is turned into what a player
presses on the board (``tests/front_presses.py``, asked of the front: a button
that plays the move, then a place selected and another pressed, then the
"Another move…" menu; the eight-column games keep ``tests/presses.py``, which
also leaves out the line's moves of cards Home already sent) and played through
``GameService.press`` / ``GameService.play`` on a real SQLite file, the code
Discord presses reach. A selection and its destination, or a menu choice, count
as two presses; a move is one of the game's counted moves (a card auto-play
sends home is one).
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
from engine.tableau import TableauGame
from tests import presses
from tests.front_presses import Step, front_presses
from tests.lines import solved, winning_line

USER = 1
CHOSEN_NODES = 50_000  # a random deal is taken when its game's solver wins it within this many positions
FINDER_BUDGET = 900.0  # seconds the front's deal finder may take for a stock without shipped deals


def steps_of(code: str) -> list[Step]:
    """The presses that win ``code``: the eight-column games' own mapping (``tests.presses``,
    which also skips the line's moves of cards Home already sent, by the solver's safe-move
    proof), any other game's asked of its front alone (``tests.front_presses``)."""
    game = engine.new_game(code)
    line = winning_line(game)
    if not isinstance(game, TableauGame):
        return front_presses(code, line)
    kinds = {"place": "press", "home": "press", "menu": "menu"}
    return [Step(kinds[s.kind], s.value or "h") for s in presses.presses(code, line)]


async def press_step(service: GameService, board: Board, step: Step) -> Board:
    """``step`` pressed on ``board`` through the service, as Discord's presses reach it."""
    if step.kind == "menu":
        return await service.play(USER, board.row.id, step.value, version=board.row.version)
    if step.kind == "pair":
        chosen = await service.press(USER, board.row.id, board.row.version, "", step.selected)
        assert isinstance(chosen, Board)
        board = chosen
    answer = await service.press(USER, board.row.id, board.row.version, step.selected, step.value)
    assert isinstance(answer, Board)
    return answer


async def play_deal(service: GameService, kind: str, code: str) -> tuple[int, int, int]:
    """(presses, interactions, moves) of one win through the service."""
    steps = steps_of(code)
    board = (await service.start(StartRequest(USER, kind, code=engine.parse_code(code)))).board
    for step in steps:
        board = await press_step(service, board, step)
    assert board.row.status == "won", code
    return sum(s.presses for s in steps), len(steps), board.game.move_count


def stock_codes(kind: str, count: int) -> list[str]:
    """The game's proven-winnable deals, its cell counts in turn: the shipped ones, or for a
    game that ships none, the ones its front's deal finder proves from seed 0."""
    front = front_for(kind)
    cells = front.stock_cells
    per = -(-count // len(cells))
    stocks = {
        n: list(front.shipped_deals(n))[:per] or front.winnable_finder(n, 0, per, 0, FINDER_BUDGET)
        for n in cells
    }
    return [
        str(engine.make_code(kind, stocks[cells[i % len(cells)]][i // len(cells)], cells[i % len(cells)]))
        for i in range(count)
    ]


def random_codes(kind: str, count: int, seed: int) -> list[str]:
    """Random deals of the game (its cell counts in turn) that its solver wins, from ``seed``."""
    front = front_for(kind)
    rng = random.Random(seed)
    codes: list[str] = []
    while len(codes) < count:
        cells = front.stock_cells[len(codes) % len(front.stock_cells)]
        code = engine.make_code(kind, front.random_deal(rng), cells)
        if solved(engine.new_game(str(code)), CHOSEN_NODES).verdict == "winnable":
            codes.append(str(code))
    return codes


def cells_figures(kind: str, rows: list[tuple[str, int, int, int]]) -> None:
    """Median presses and moves for each of the game's cell counts (draws for Klondike)."""
    for cells in front_for(kind).stock_cells:
        mine = [r for r in rows if engine.parse_code(r[0]).cells == cells]
        if mine:
            print(
                f"  option {cells}: {len(mine)} deals, median {statistics.median(r[1] for r in mine)} presses "
                f"for {statistics.median(r[3] for r in mine)} moves, "
                f"{sum(r[1] for r in mine) / sum(r[3] for r in mine):.3f} presses a move pooled, "
                f"max {max(r[1] for r in mine)} presses"
            )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bakers", help="the game's kind or command (bakers, freecell, …)")
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
    cells_figures(kind, rows)
    print(
        f"presses per move: median {statistics.median(per_move):.2f} (min {min(per_move):.2f}, max {max(per_move):.2f})"
    )
    print(f"presses per move, all deals pooled: {sum(r[1] for r in rows) / sum(r[3] for r in rows):.3f}")
    print(f"presses per win:  median {statistics.median(r[1] for r in rows)} (max {max(r[1] for r in rows)})")
    print(f"interactions per win (a menu choice is one): median {statistics.median(r[2] for r in rows)}")
    print(f"moves per win:    median {statistics.median(r[3] for r in rows)}")


if __name__ == "__main__":
    asyncio.run(main())
