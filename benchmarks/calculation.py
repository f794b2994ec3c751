"""Calculation hint player: win rate and thinking time per move; perfect-search coverage.

    .venv/bin/python benchmarks/calculation.py --setting fast --deals 1000
    .venv/bin/python benchmarks/calculation.py --setting strong --deals 200
    .venv/bin/python benchmarks/calculation.py --setting perfect --deals 100

Each deal is played to its end by the hint player alone (every move it
recommends is played). Deals start at 100000, away from deals 0-2999 on which
the playout policy was tuned. Times are wall-clock per ``best_move`` call in one
process; ``--workers`` processes share the deals (the bot itself thinks on one
core). Progress lines go to stderr, the summary to stdout.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.calculation.hints import FAST_ROLLOUTS, STRONG_ROLLOUTS, best_move, candidates
from engine.calculation.perfect import solve

FIRST_DEAL = 100_000


def play_deal(args: tuple[int, int]) -> tuple[int, bool, int, list[float], list[float]]:
    """Play one deal with the hint player: (deal, won, score, all call times, decision times)."""
    deal, rollouts = args
    game = engine.new_game(engine.code_for("calculation", deal))
    calls: list[float] = []
    decisions: list[float] = []
    while game.outcome is None:
        choice = len(candidates(game)) > 1
        started = time.perf_counter()
        move = best_move(game, rollouts=rollouts, seed=deal)
        spent = time.perf_counter() - started
        calls.append(spent)
        if choice:
            decisions.append(spent)
        assert move is not None
        game.play(move)
    return deal, game.is_won, game.score, calls, decisions


def solve_deal(args: tuple[int, float]) -> tuple[int, str, float, int]:
    deal, limit = args
    game = engine.new_game(engine.code_for("calculation", deal))
    result = solve(game, time_limit=limit)
    if result.winnable:
        assert engine.replay(game.code, result.moves).is_won
    return deal, result.verdict, result.seconds, len(result.moves)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_hints(deals: list[int], rollouts: int, workers: int, label: str) -> None:
    wins = 0
    scores: list[int] = []
    calls: list[float] = []
    decisions: list[float] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        for n, (_, won, score, c, d) in enumerate(
            pool.map(play_deal, [(deal, rollouts) for deal in deals], chunksize=1), 1
        ):
            wins += won
            scores.append(score)
            calls += c
            decisions += d
            if n % 25 == 0 or n == len(deals):
                print(
                    f"[{label}] {n}/{len(deals)} deals: {wins} won ({100 * wins / n:.1f}%), "
                    f"max move {max(calls):.3f}s, {time.perf_counter() - started:.0f}s elapsed",
                    file=sys.stderr,
                    flush=True,
                )
    n = len(deals)
    low, high = wilson(wins, n)
    print(f"## {label}: {rollouts} reshuffles per candidate, deals {deals[0]}-{deals[-1]}, {workers} workers")
    print(f"won {wins}/{n} = {100 * wins / n:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    print(f"mean score {statistics.mean(scores):.1f} of 52")
    print(
        f"time per hint call ({len(calls)} calls): mean {1000 * statistics.mean(calls):.1f} ms, "
        f"p95 {1000 * pct(calls, 0.95):.1f} ms, max {1000 * max(calls):.1f} ms"
    )
    if decisions:
        print(
            f"time per real decision ({len(decisions)}): mean {1000 * statistics.mean(decisions):.1f} ms, "
            f"p95 {1000 * pct(decisions, 0.95):.1f} ms, p99 {1000 * pct(decisions, 0.99):.1f} ms, "
            f"max {1000 * max(decisions):.1f} ms"
        )
    print(f"wall time {time.perf_counter() - started:.0f} s", flush=True)


def run_perfect(deals: list[int], limit: float, workers: int) -> None:
    verdicts: dict[str, int] = {}
    times: list[float] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        for _, verdict, seconds, _ in pool.map(solve_deal, [(d, limit) for d in deals], chunksize=1):
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            times.append(seconds)
    n = len(deals)
    print(f"## perfect search: {limit:.0f} s budget, deals {deals[0]}-{deals[-1]}")
    print(", ".join(f"{k} {v}/{n} ({100 * v / n:.1f}%)" for k, v in sorted(verdicts.items())))
    print(
        f"time per deal: median {statistics.median(times):.2f} s, p95 {pct(times, 0.95):.2f} s, "
        f"max {max(times):.2f} s; wall {time.perf_counter() - started:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--setting", choices=("fast", "strong", "perfect"), default="fast")
    parser.add_argument("--deals", type=int, default=None, help="default 1000 fast, 200 strong, 100 perfect")
    parser.add_argument("--first", type=int, default=FIRST_DEAL, help="first deal number")
    parser.add_argument("--rollouts", type=int, default=None, help="reshuffles per candidate")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=10.0, help="perfect search budget per deal")
    args = parser.parse_args()
    default_deals = {"fast": 1000, "strong": 200, "perfect": 100}[args.setting]
    deals = list(range(args.first, args.first + (args.deals or default_deals)))
    if args.setting == "perfect":
        run_perfect(deals, args.time_limit, args.workers)
        return
    rollouts = args.rollouts or (FAST_ROLLOUTS if args.setting == "fast" else STRONG_ROLLOUTS)
    run_hints(deals, rollouts, args.workers, args.setting)


if __name__ == "__main__":
    main()
