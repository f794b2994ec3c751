"""FreeCell's second search for shorter wins (``Search(step_price=…)``, ``engine.solver.search``): its CPU in ``solve``.

    .venv/bin/python benchmarks/weighted.py --deals 40 [--seed N] [--save F | --compare F]

For each deal (the shipped stock deals of ``benchmarks/clicks.py``, or its random winnable
deals of a seed): the CPU (``time.process_time``) of ``solve(game)`` as the bot calls it,
and of the same call with ``short=False`` (the first search alone), so the difference is the
second search's share; both with no time limit, so the machine's load changes no result.
And a game's first hint (``hint(game)``, no plan remembered, 60 s limit).
``--save`` writes each deal's moves to a JSON file and ``--compare`` checks them against one
saved earlier (a faster second search must find wins exactly as short).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.clicks import random_codes, stock_codes
from engine.freecell import register_game
from engine.solver import hint, solve

register_game()


def _p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, help="random winnable deals from this seed (default: the stock)")
    parser.add_argument("--save", type=Path, help="write each deal's moves here (JSON)")
    parser.add_argument("--compare", type=Path, help="check each deal's moves against this file")
    args = parser.parse_args()
    codes = (
        stock_codes("freecell", args.deals)
        if args.seed is None
        else random_codes("freecell", args.deals, args.seed)
    )
    full: list[float] = []
    first: list[float] = []
    hints: list[float] = []
    lengths: list[int] = []
    nodes: list[int] = []
    moves: dict[str, list[str]] = {}
    for code in codes:
        game = engine.new_game(code)
        c0 = time.process_time()
        res = solve(game, time_limit=None)
        c1 = time.process_time()
        solve(game, time_limit=None, short=False)
        c2 = time.process_time()
        hint(game, time_limit=60, reuse=False)
        hints.append(time.process_time() - c2)
        full.append(c1 - c0)
        first.append(c2 - c1)
        lengths.append(len(res.moves))
        nodes.append(res.nodes)
        moves[code] = res.moves
    second = [a - b for a, b in zip(full, first, strict=True)]
    print(f"{len(codes)} deals ({'stock' if args.seed is None else f'seed {args.seed}'})")
    for name, xs in (
        ("solve", full),
        ("first search only", first),
        ("difference (second search)", second),
        ("first hint", hints),
    ):
        print(
            f"  {name}: median {1000 * statistics.median(xs):.0f} ms, p95 {1000 * _p95(xs):.0f} ms, "
            f"max {1000 * max(xs):.0f} ms, total {sum(xs):.2f} s"
        )
    print(
        f"  moves a win: median {statistics.median(lengths)}, total {sum(lengths)}; nodes median {statistics.median(nodes)}"
    )
    if args.save:
        args.save.write_text(json.dumps(moves, indent=0))
    if args.compare:
        old = json.loads(args.compare.read_text())
        differ = [c for c in codes if old.get(c) != moves[c]]
        longer = [c for c in codes if c in old and len(moves[c]) > len(old[c])]
        print(f"  against {args.compare}: {len(differ)} deals' moves differ, {len(longer)} longer")


if __name__ == "__main__":
    main()
