"""Klondike's blind hint player: whole games played by following the hint, on held-out deals.

    .venv/bin/python benchmarks/klondike_hints.py --deals 300 --out rows.jsonl
    .venv/bin/python benchmarks/klondike_hints.py --summarize rows.jsonl

Deals drawn by a seeded generator from 10**9 .. 2**35 (never the deals 1..1000 the hint was
tried on while it was written), each played at draw 3 and then draw 1 from the start, every
move the hint's (``KlondikeGame.hint``, which sees only ``seen_state()``). A game ends won,
lost (``outcome``), or lost by going round in circles: the hint is deterministic for what the
player has seen (the recycle count aside), so a position met again with the same cards seen
repeats forever; a position met a third time also ends it (a cap, whatever was seen). Rows are
appended one game at a time; a run given an existing ``--out`` file plays only the games missing
from it, so an interrupted run goes on where it stopped.
Reported per draw: wins with the 95 % Wilson interval, and the CPU of one hint (p50, p95, p99,
max). Published anchor, draw three with unlimited passes: Bjarnason, Fern and Tadepalli
(ICAPS 2009), a Monte-Carlo policy winning over 35 % of games. One core.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.calculation import wilson
from engine.klondike.game import KlondikeGame

HELD_OUT_SEED = 43_004
REPEATS = 3  # a position met this often: the hint goes round in circles, the game is lost


def held_out(count: int) -> list[int]:
    return random.Random(HELD_OUT_SEED).sample(range(10**9, 2**35), count)


def play(deal: int, draw: int) -> dict[str, object]:
    game = engine.new_game(engine.code_for("klondike", deal, draw))
    assert isinstance(game, KlondikeGame)
    met: dict[object, int] = {}
    known: set[object] = set()
    cpu: list[float] = []
    end = "lost"
    while game.outcome is None:
        state = game.state()
        key = (state.piles, state.face_down, state.stock, state.waste, state.foundations)
        met[key] = met.get(key, 0) + 1
        seen = (key, frozenset(game.position.seen))
        if met[key] >= REPEATS or seen in known:
            end = "circles"
            break
        known.add(seen)
        started = time.process_time()
        move = game.hint()
        cpu.append(time.process_time() - started)
        if move is None:
            break
        game.play(move)
    won = game.is_won
    return {
        "deal": deal,
        "draw": draw,
        "won": won,
        "end": "won" if won else end,
        "home": game.cards_home,
        "hints": len(cpu),
        "cpu": cpu,
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(draw: int, rows: list[dict[str, object]]) -> str:
    n = len(rows)
    won = sum(bool(r["won"]) for r in rows)
    circles = sum(r["end"] == "circles" for r in rows)
    low, high = wilson(won, n)
    cpu = [float(c) for r in rows for c in r["cpu"]]  # type: ignore[attr-defined]
    return (
        f"draw {draw}: {n} games, won {won} ({100 * won / n:.1f} %, 95 % Wilson {100 * low:.1f}"
        f"–{100 * high:.1f} %), {circles} ended going round in circles; {len(cpu)} hints, CPU a hint "
        f"p50 {percentile(cpu, 0.5):.3f} s, p95 {percentile(cpu, 0.95):.3f} s, "
        f"p99 {percentile(cpu, 0.99):.3f} s, max {max(cpu):.3f} s"
    )


def summarize(path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return "\n".join(
        summary(d, [r for r in rows if r["draw"] == d]) for d in (3, 1) if any(r["draw"] == d for r in rows)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--skip", type=int, default=0, help="held-out deals already played")
    parser.add_argument("--out", type=Path, default=Path("klondike_hints.jsonl"))
    parser.add_argument("--summarize", type=Path)
    args = parser.parse_args()
    if args.summarize:
        print(summarize(args.summarize))
        return
    done = set()
    if args.out.exists():
        done = {(r["deal"], r["draw"]) for r in map(json.loads, args.out.read_text().splitlines())}
    with args.out.open("a") as out:
        for deal in held_out(args.deals)[args.skip :]:
            for draw in (3, 1):
                if (deal, draw) in done:
                    continue
                row = play(deal, draw)
                out.write(json.dumps(row) + "\n")
                out.flush()
    print(summarize(args.out))


if __name__ == "__main__":
    main()
