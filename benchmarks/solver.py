"""Our solver against fc-solve, side by side, on the same deals (our own codes); then hints.

    .venv/bin/python benchmarks/solver.py --deals 1000 --cells 4 2 1 --workers 2
    .venv/bin/python benchmarks/solver.py --deals 0 --hints 200      # hints only
    .venv/bin/python benchmarks/solver.py --sample 300 --seed 26 --cells 4 --hints 0

``--sample N --seed S`` takes N distinct deal numbers drawn at random (seeded) from
``--range LOW HIGH`` (default 10^6 .. 2^35 - 1, far from the deals 1.. used for tuning)
instead of the consecutive deals from ``--start``.

For each cell count it prints both solvers' verdict counts, the disagreements
(must be 0 on every deal both decide), the share our solver decides within the
time limit (5 s by default; target >= 99% with 4 cells), median and 95th
percentile CPU times and their ratio to fc-solve's, the median and 90th percentile of
the per-deal ratio (our CPU / fc-solve's on the same deal), solution lengths, and
whether every solution of ours replays to a win through the engine (``engine.replay``).
fc-solve runs with its exact preset (``-to 01ABCDE -sp r:tf``, see
tests/fcsolve.py). Hints are asked on mid-game positions: a 4-cell deal after
a seeded random number of random legal moves (target: 95th percentile <= 1 s).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.bakers import BakersGame, export_board
from engine.solver import hint, solve
from tests import fcsolve


def one_deal(deal: int, cells: int, time_limit: float) -> dict:
    game = engine.new_game(engine.code_for("bakers", deal, cells))
    c0 = time.process_time()
    ours = solve(game, time_limit=time_limit)
    cpu = time.process_time() - c0
    fc = fcsolve.run(export_board(game.position), cells, exact=True, moves=True)
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
        "valid": ours.verdict != "winnable" or engine.replay(game.code, ours.moves).is_won,
    }


def midgame(deal: int, on_track: bool) -> BakersGame:
    """A seeded mid-game position: random legal moves, or a solution's prefix then 0-4 random moves."""
    rng = random.Random(deal)
    game = engine.new_game(engine.code_for("bakers", deal, 4))
    randoms = rng.randint(10, 60)
    if on_track:
        solution = solve(game, time_limit=30).moves
        for move in solution[: rng.randint(10, max(10, len(solution) - 20))]:
            game.play(move)
        randoms = rng.randint(0, 4)
    for _ in range(randoms):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    assert isinstance(game, BakersGame)
    return game


def one_hint(deal: int, time_limit: float) -> dict:
    game = midgame(deal, on_track=deal % 2 == 1)
    t0 = time.perf_counter()
    h = hint(game, time_limit=time_limit)
    return {
        "deal": deal,
        "status": h.status,
        "undos": h.undos,
        "exhausted": h.exhausted,
        "seconds": time.perf_counter() - t0,
        "kind": "on track" if deal % 2 else "random",
    }


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def report_deals(cells: int, rows: list[dict], time_limit: float | str) -> None:
    n = len(rows)
    count = lambda key, v: sum(1 for r in rows if r[key] == v)  # noqa: E731
    print(f"\n== {cells} free cell{'s' if cells > 1 else ''}: {n} deals (first {rows[0]['deal']})")
    for who in ("ours", "fc"):
        print(
            f"  {who:4}: winnable {count(who, 'winnable')} ({100 * count(who, 'winnable') / n:.2f}%), "
            f"lost {count(who, 'lost')}, unknown {count(who, 'unknown')}"
        )
    both = [r for r in rows if r["ours"] != "unknown" and r["fc"] != "unknown"]
    bad = [r["deal"] for r in both if r["ours"] != r["fc"]]
    print(f"  disagreements on {len(both)} deals both decided: {len(bad)} {bad[:20] if bad else ''}")
    decided = n - count("ours", "unknown")
    budget = time_limit if isinstance(time_limit, str) else f"{time_limit:g} s"
    print(f"  ours decided within {budget}: {decided}/{n} = {100 * decided / n:.2f}%")
    ours_t = [r["ours_cpu"] for r in rows]
    fc_t = [r["fc_cpu"] for r in rows]
    om, op, fm, fp = pct(ours_t, 50), pct(ours_t, 95), pct(fc_t, 50), pct(fc_t, 95)
    print(
        f"  CPU ours: median {1000 * om:.1f} ms, p95 {1000 * op:.1f} ms, max {1000 * max(ours_t):.0f} ms"
        f"  | fc-solve: median {1000 * fm:.1f} ms, p95 {1000 * fp:.1f} ms, max {1000 * max(fc_t):.0f} ms"
    )
    if fm > 0 and fp > 0:
        print(f"  ratio ours/fc-solve: median x{om / fm:.1f}, p95 x{op / fp:.1f}")
    else:
        print("  ratio: fc-solve's CPU time is below the clock's resolution (10 ms ticks)")
    ol = [r["ours_len"] for r in rows if r["ours"] == "winnable"]
    fl = [r["fc_len"] for r in rows if r["fc"] == "winnable"]
    if ol:
        print(
            f"  solution length (moves, sends home included): ours median {statistics.median(ol):.0f}, "
            f"max {max(ol)}; fc-solve median {statistics.median(fl) if fl else float('nan'):.0f}"
        )
    ratios = [r["ours_cpu"] / max(r["fc_cpu"], 1e-4) for r in rows]
    print(
        f"  per-deal ratio ours/fc-solve: median x{pct(ratios, 50):.2f}, p90 x{pct(ratios, 90):.2f}, "
        f"p95 x{pct(ratios, 95):.2f}"
    )
    invalid = [r["deal"] for r in rows if not r["valid"]]
    print(
        f"  our solutions replayed to a win: {len(ol) - len(invalid)}/{len(ol)} {invalid[:20] if invalid else ''}"
    )
    slow = sorted(rows, key=lambda r: -r["ours_cpu"])[:5]
    print("  slowest for us: " + ", ".join(f"{r['deal']} ({r['ours']}, {r['ours_cpu']:.2f} s)" for r in slow))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000, help="deals per cell count")
    ap.add_argument("--start", type=int, default=1, help="first deal number")
    ap.add_argument("--sample", type=int, default=0, help="this many random deal numbers instead")
    ap.add_argument("--seed", type=int, default=26, help="the random sample's seed")
    ap.add_argument("--range", type=int, nargs=2, default=[10**6, 2**35 - 1], metavar=("LOW", "HIGH"))
    ap.add_argument("--cells", type=int, nargs="+", default=[4, 2, 1])
    ap.add_argument("--time-limit", type=float, default=5.0)
    ap.add_argument("--hints", type=int, default=200, help="mid-game hint positions")
    ap.add_argument("--hint-time-limit", type=float, default=5.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--csv", help="append each deal's row to this file")
    args = ap.parse_args()
    print(f"solver benchmark: {args.workers} worker processes, time limit {args.time_limit:g} s per deal")
    with ProcessPoolExecutor(args.workers) as pool:
        if args.sample:
            deals: list[int] | range = sorted(
                random.Random(args.seed).sample(range(args.range[0], args.range[1] + 1), args.sample)
            )
            print(f"deals: {args.sample} drawn from {args.range[0]}..{args.range[1]} with seed {args.seed}")
        else:
            deals = range(args.start, args.start + args.deals)
        for cells in args.cells if len(deals) else []:
            t0 = time.perf_counter()
            rows = list(pool.map(one_deal, deals, [cells] * len(deals), [args.time_limit] * len(deals)))
            report_deals(cells, rows, args.time_limit)
            print(f"  (wall {time.perf_counter() - t0:.0f} s)", flush=True)
            if args.csv:
                with open(args.csv, "a") as out:
                    for r in rows:
                        out.write(
                            ",".join(
                                str(r[k])
                                for k in (
                                    "deal",
                                    "ours",
                                    "fc",
                                    "ours_cpu",
                                    "fc_cpu",
                                    "ours_len",
                                    "fc_len",
                                    "nodes",
                                )
                            )
                            + f",{cells}\n"
                        )
        if args.hints:
            deals = range(args.start, args.start + args.hints)
            rows = list(pool.map(one_hint, deals, [args.hint_time_limit] * len(deals)))
            secs = [r["seconds"] for r in rows]
            statuses = {
                s: sum(1 for r in rows if r["status"] == s) for s in sorted({r["status"] for r in rows})
            }
            print(
                f"\n== hints on {len(rows)} mid-game 4-cell positions: odd deals a solution's prefix plus 0-4 "
                "random moves, even deals 10-60 random legal moves"
            )
            print(f"  statuses: {statuses}")
            undos = [r["undos"] for r in rows if r["undos"] is not None]
            if undos:
                print(
                    f"  lost positions mended by undos: median {statistics.median(undos)}, max {max(undos)}"
                )
            lost = [r for r in rows if r["status"] == "lost" and r["undos"] is None]
            print(
                f"  lost with no mending undo found: {len(lost)} "
                f"({sum(1 for r in lost if r['exhausted'])} proven: the whole undo history is lost)"
            )
            within = sum(1 for r in rows if r["seconds"] <= 1.0)
            print(f"  answered within 1 s: {within}/{len(rows)}")
            for kind in ("on track", "random"):
                ks = [r["seconds"] for r in rows if r["kind"] == kind]
                print(f"  {kind}: median {1000 * pct(ks, 50):.0f} ms, p95 {1000 * pct(ks, 95):.0f} ms")
            print(
                f"  all, wall time: median {1000 * pct(secs, 50):.0f} ms, p95 {1000 * pct(secs, 95):.0f} ms, "
                f"max {1000 * max(secs):.0f} ms (target p95 <= 1000 ms)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
