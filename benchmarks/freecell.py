"""FreeCell: our solver against fc-solve on Microsoft's deals, and our deals against
make-microsoft-freecell-board.

    .venv/bin/python benchmarks/freecell.py --deals 300 --cells 4 2 1 --workers 2
    .venv/bin/python benchmarks/freecell.py --deals 0 --boards 1000     # deals only

For each cell count: both solvers' verdict counts on the same deals (a seeded random sample
of 1..1,000,000, or ``--start`` for a range), the disagreements (must be 0 on every deal
both decide), how many we decide within a node budget (not a clock: the machine is
shared), CPU per deal (median, p95; ours in
process time, fc-solve's from its rusage) and their ratio, and solution lengths. fc-solve
runs ``-g freecell --freecells-num C`` with the exact atomic-move preset of
tests/fcsolve.py, at most 3 million iterations a deal; ours is a complete search, so its "lost" is a proof. Every
solution of ours is also replayed by the independent referee (tests/freecell_validator.py),
as the player presses it with auto-play and with every move written out.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.solver import report_deals
from engine.freecell import register_game
from engine.solver import solve
from tests import fcsolve
from tests.freecell_validator import replays

register_game()
FC_ITERS = 3_000_000  # fc-solve's budget (about 15 s of its CPU): beyond it, "unknown"


def one_deal(deal: int, cells: int, node_limit: int) -> dict:
    game = engine.new_game(f"FC1-C{cells}-MS{deal}")
    c0 = time.process_time()
    ours = solve(game, time_limit=None, node_limit=node_limit)  # as pressed, with auto-play
    cpu = time.process_time() - c0
    board = game.board_text()
    valid = True
    if ours.winnable:
        written = solve(game.position, time_limit=None, node_limit=node_limit)  # every move written
        valid = replays(board, cells, ours.moves, autoplay=True) and (
            not written.winnable or replays(board, cells, written.moves, autoplay=False)
        )
    try:
        fc = fcsolve.run(
            board, cells, exact=True, moves=True, game="freecell", max_iters=FC_ITERS, timeout=90
        )
    except subprocess.TimeoutExpired:
        fc = fcsolve.FcResult(fcsolve.UNKNOWN, cpu_seconds=90.0)
    return {
        "deal": deal,
        "ours": ours.verdict,
        "ours_cpu": cpu,
        "ours_len": len(ours.moves),
        "nodes": ours.nodes,
        "fc": fc.verdict,
        "fc_cpu": fc.cpu_seconds,
        "fc_len": len(fc.moves),
        "fc_iters": fc.iterations,
        "valid": valid,
    }


def boards(count: int, seed: int) -> int:
    """Deals that differ from make-microsoft-freecell-board's, among ``count`` random ones."""
    rng = random.Random(seed)
    wrong = 0
    for deal in rng.sample(range(1, 1_000_001), count):
        ms = subprocess.run(
            ["make-microsoft-freecell-board", "-t", str(deal)], capture_output=True, text=True, check=True
        ).stdout.split()
        ours = " ".join(
            line[2:]
            for line in engine.new_game(f"FC1-C4-MS{deal}").board_text().splitlines()
            if line[:2] == ": "
        ).split()
        wrong += ours != ms
    return wrong


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=300, help="deals per cell count")
    ap.add_argument("--start", type=int, default=0, help="first deal of a range (0: a seeded random sample)")
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--cells", type=int, nargs="+", default=[4, 2, 1])
    ap.add_argument("--node-limit", type=int, default=600_000, help="our budget a deal, in search nodes")
    ap.add_argument("--boards", type=int, default=300, help="random deals compared with the board maker")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if args.boards:
        t0 = time.perf_counter()
        wrong = boards(args.boards, args.seed)
        print(
            f"deals vs make-microsoft-freecell-board: {args.boards - wrong}/{args.boards} identical "
            f"({time.perf_counter() - t0:.1f} s)"
        )
    if args.start:
        deals = list(range(args.start, args.start + args.deals))
    else:
        deals = random.Random(args.seed).sample(range(1, 1_000_001), args.deals)
    print(f"FreeCell solver benchmark: {args.workers} worker processes, {args.node_limit:,} nodes a deal")
    with ProcessPoolExecutor(args.workers) as pool:
        for cells in args.cells if args.deals else []:
            t0 = time.perf_counter()
            rows = list(pool.map(one_deal, deals, [cells] * len(deals), [args.node_limit] * len(deals)))
            report_deals(cells, rows, f"{args.node_limit:,} nodes")
            invalid = [r["deal"] for r in rows if not r["valid"]]
            print(f"  solutions refused by the independent referee: {len(invalid)} {invalid[:10] or ''}")
            print(f"  (wall {time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
