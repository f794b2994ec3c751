"""Thoughtful Klondike: the share of random deals the solver proves winnable, per draw.

    .venv/bin/python benchmarks/klondike_winnable.py --deals 1000 --draws 1 3 --out rows.jsonl
    .venv/bin/python benchmarks/klondike_winnable.py --summarize rows.jsonl

Deals ``--start`` .. ``--start + --deals - 1`` as the engine deals them (version 1, KLONDIKE.md),
every card known. For each draw: how many are proven winnable, proven lost and undecided within the
node budget (a count of positions, not a clock, the machine being shared), the winnable
share with its 95 % Wilson interval (undecided counted as not won, so it is a lower bound;
the upper bound counts them as won), and nodes and CPU per deal (median, p95, max). Every
win is replayed by the independent simulator of tests/klondike_sim.py. One core: the deals
run one after the other. Published: Blake and Gent (Solvitaire) 81.945 % ± 0.084 % for
draw three, about 90.5 % for draw one; lonelybot 81.96 % for draw three.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.calculation import wilson
from engine.klondike.solving import NODE_BUDGET, dealt, solve
from tests.klondike_sim import replay


def one_deal(deal: int, draw: int, budget: int) -> dict[str, object]:
    layout = dealt(deal, draw)
    result = solve(layout, budget=budget)
    if result.winnable and not replay(layout, result.moves).won():
        raise SystemExit(f"deal {deal} draw {draw}: the solution does not win")
    return {"deal": deal, "verdict": result.verdict, "nodes": result.nodes, "cpu": result.seconds}


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.3g}, p95 {p95:.3g}, max {ordered[-1]:.3g}"


def summary(draw: int, rows: list[dict[str, object]]) -> str:
    n = len(rows)
    won = sum(r["verdict"] == "winnable" for r in rows)
    lost = sum(r["verdict"] == "lost" for r in rows)
    unknown = n - won - lost
    low, _ = wilson(won, n)
    _, high = wilson(won + unknown, n)
    return (
        f"draw {draw}: {n} deals, winnable {won} ({100 * won / n:.1f} %), lost {lost}, unknown {unknown}; "
        f"winnable share {100 * won / n:.1f} % .. {100 * (won + unknown) / n:.1f} % "
        f"(95 % Wilson {100 * low:.1f} % .. {100 * high:.1f} %)\n"
        f"  nodes: {spread([float(r['nodes']) for r in rows])}\n"  # type: ignore[arg-type]
        f"  CPU s: {spread([float(r['cpu']) for r in rows])}"  # type: ignore[arg-type]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--draws", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--budget", type=int, default=NODE_BUDGET)
    parser.add_argument("--out", type=Path, help="write every deal's row here as JSON lines")
    parser.add_argument("--summarize", type=Path, help="only summarize the rows of an --out file")
    args = parser.parse_args()
    if args.summarize:
        rows = [json.loads(line) for line in args.summarize.read_text().splitlines()]
        for draw in sorted({r["draw"] for r in rows}):
            print(summary(draw, [r for r in rows if r["draw"] == draw]))
        return
    for draw in args.draws:
        rows = []
        for deal in range(args.start, args.start + args.deals):
            rows.append(one_deal(deal, draw, args.budget))
            if args.out:
                with args.out.open("a") as out:
                    out.write(json.dumps({"draw": draw, **rows[-1]}) + "\n")
        print(summary(draw, rows), flush=True)


if __name__ == "__main__":
    main()
