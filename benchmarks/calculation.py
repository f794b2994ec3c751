"""Calculation hint player: win rate, CPU per decision, paired comparisons; perfect-search coverage.

    .venv/bin/python benchmarks/calculation.py --first 500000 --deals 300 --out fast.json
    .venv/bin/python benchmarks/calculation.py --rollouts 2048 --first 500000 --deals 300 --out r2048.json
    .venv/bin/python benchmarks/calculation.py --compare fast.json r2048.json
    .venv/bin/python benchmarks/calculation.py --setting perfect --deals 100
    .venv/bin/python benchmarks/calculation.py --setting policy --deals 10000 --first 4242

Honest by construction: every decision is asked of ``game.seen_copy()``, a game
holding only what the player sees (foundations, waste piles, the turned card,
which cards are still face down) with the face-down cards in sorted order, so
the real stock order cannot be read; the move is then played on the real game.
Deals: the player was tuned on deals 1000-1999 (and on random shuffles for the
playout policy; deals 0-2999 before issue 26), so report on deals never used
for tuning, e.g. 500000 and up. Each deal is played to its end by the hint
player alone, ``seed`` = deal number, so a run is deterministic per deal and
two settings see the same deals (``--compare``: exact McNemar sign test on
the deals one setting won and the other lost).

Time is CPU time (``time.thread_time``) per ``best_move`` call in one worker
process, so other load on the machine does not count; a "decision" is a
position with more than one candidate (forced plays are answered at once).
Progress lines go to stderr, the summary to stdout; ``--out`` keeps each deal's
result (JSON) for ``--compare``, rewritten every 25 deals, so ``--compare`` of two runs
cut short pairs the deals both finished.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.calculation import CalculationGame
from engine.calculation.fast import playout
from engine.calculation.hints import FAST_ROLLOUTS, FAST_WORK, best_move, candidates
from engine.calculation.perfect import solve

FIRST_DEAL = 500_000


def play_deal(args: tuple[int, int, int | None]) -> dict[str, Any]:
    """Play one deal with the hint player, each decision asked of the seen copy only."""
    deal, rollouts, work = args
    game = engine.new_game(engine.code_for("calculation", deal))
    assert isinstance(game, CalculationGame)
    calls: list[float] = []
    decisions: list[float] = []
    while game.outcome is None:
        seen = game.seen_copy()
        choice = len(candidates(seen)) > 1
        started = time.thread_time()
        move = best_move(seen, rollouts=rollouts, seed=deal, work=work)
        spent = time.thread_time() - started
        calls.append(spent)
        if choice:
            decisions.append(spent)
        assert move is not None
        game.play(move)
    return {"deal": deal, "won": game.is_won, "score": game.score, "calls": calls, "decisions": decisions}


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


def sign_test(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar (binomial sign test) p-value on the discordant pairs."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.0f} ms"


def run_hints(deals: list[int], rollouts: int, work: int | None, workers: int, out: str | None) -> None:
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        for n, result in enumerate(pool.map(play_deal, [(d, rollouts, work) for d in deals], chunksize=1), 1):
            results.append(result)
            if n % 25 == 0 or n == len(deals):
                if out:  # kept as it goes, so a run cut short can still be compared
                    Path(out).write_text(
                        json.dumps({"rollouts": rollouts, "work": work, "deals": results}) + "\n"
                    )
                wins = sum(r["won"] for r in results)
                print(
                    f"[{rollouts}] {n}/{len(deals)} deals: {wins} won ({100 * wins / n:.1f}%), "
                    f"{time.perf_counter() - started:.0f}s elapsed",
                    file=sys.stderr,
                    flush=True,
                )
    n = len(results)
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, n)
    calls = [t for r in results for t in r["calls"]]
    decisions = [t for r in results for t in r["decisions"]]
    print(
        f"## hint player: {rollouts} rollouts, work {work}, deals {deals[0]}-{deals[-1]}, {workers} workers"
    )
    print(f"won {wins}/{n} = {100 * wins / n:.1f}% (95% Wilson CI {100 * low:.1f}-{100 * high:.1f}%)")
    print(f"mean score {statistics.mean(r['score'] for r in results):.2f} of 52")
    print(
        f"CPU per decision ({len(decisions)}): median {ms(statistics.median(decisions))}, "
        f"mean {ms(statistics.mean(decisions))}, p95 {ms(pct(decisions, 0.95))}, "
        f"p99 {ms(pct(decisions, 0.99))}, max {ms(max(decisions))}"
    )
    print(f"CPU per call ({len(calls)}, forced plays included): mean {ms(statistics.mean(calls))}")
    print(
        f"CPU per game: mean {sum(calls) / n:.2f} s; wall {time.perf_counter() - started:.0f} s", flush=True
    )


def compare(path_a: str, path_b: str) -> None:
    runs = [json.loads(Path(p).read_text()) for p in (path_a, path_b)]
    won = [{r["deal"]: r["won"] for r in run["deals"]} for run in runs]
    common = sorted(set(won[0]) & set(won[1]))
    a_only = sum(won[0][d] and not won[1][d] for d in common)
    b_only = sum(won[1][d] and not won[0][d] for d in common)
    n = len(common)
    for path, w in zip((path_a, path_b), won, strict=True):
        wins = sum(w[d] for d in common)
        low, high = wilson(wins, n)
        print(f"{path}: won {wins}/{n} = {100 * wins / n:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    print(
        f"paired on {n} deals: {a_only} won only by {path_a}, {b_only} only by {path_b}; "
        f"exact McNemar p = {sign_test(a_only, b_only):.3g}"
    )


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


def run_policy(count: int, seed: int) -> None:
    """The playout policy alone (no lookahead) from the deal, on ``count`` random shuffles
    (``random.Random(seed)``: not deal numbers, so never the decks reported above)."""
    ranks = [r for r in range(1, 14) for _ in range(4)]
    for r in range(1, 5):
        ranks.remove(r)
    rng = random.Random(seed)
    wins = total = 0
    started = time.thread_time()
    for _ in range(count):
        rng.shuffle(ranks)
        score = playout([1, 1, 1, 1], [[], [], [], []], ranks)
        wins += score == 52
        total += score
    spent = time.thread_time() - started
    low, high = wilson(wins, count)
    print(f"## playout policy alone: {count} shuffles of random.Random({seed})")
    print(f"won {wins}/{count} = {100 * wins / count:.2f}% (95% CI {100 * low:.2f}-{100 * high:.2f}%)")
    print(f"mean score {total / count:.2f} of 52; {1e6 * spent / count:.0f} us CPU a playout")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--setting", choices=("hint", "perfect", "policy"), default="hint")
    parser.add_argument("--deals", type=int, default=300, help="how many deals (default 300)")
    parser.add_argument("--first", type=int, default=FIRST_DEAL, help="first deal number")
    parser.add_argument("--rollouts", type=int, default=FAST_ROLLOUTS, help="the hint player's budget")
    parser.add_argument("--work", type=int, default=FAST_WORK, help="cards played per decision, at most")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write each deal's result here (JSON), for --compare")
    parser.add_argument("--compare", nargs=2, metavar="RUN.json", help="paired test of two --out files")
    parser.add_argument("--time-limit", type=float, default=10.0, help="perfect search budget per deal")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if args.setting == "policy":
        run_policy(args.deals, args.first)
        return
    deals = list(range(args.first, args.first + args.deals))
    if args.setting == "perfect":
        run_perfect(deals, args.time_limit, args.workers)
        return
    run_hints(deals, args.rollouts, args.work, args.workers, args.out)


if __name__ == "__main__":
    main()
