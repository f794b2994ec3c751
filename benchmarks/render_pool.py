"""Board pictures per second through ``bot.play.render_pool.RenderPool`` with 0 (threads), 1 and 2 workers.

Many players pressing at once: ``--concurrency`` renders are kept in flight from
one event loop, the way one bot process asks for pictures, over a set of
mid-game positions of both games (each a code + action log, one move further on
each time, so the workers' replay cache is used as in play). Prints renders/s
and how long the event loop was blocked at worst (a heartbeat every 10 ms).

    .venv/bin/python benchmarks/render_pool.py [--seconds 10] [--concurrency 8] [--workers 0 1 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bot.games import front_for
from bot.languages.language import picture_labels
from bot.play.render_pool import RenderPool


def positions(count: int, seed: int = 1) -> list[tuple[str, list[str]]]:
    """``count`` games (code, a line of legal moves) of both kinds, to step through one move at a time."""
    rng = random.Random(seed)
    games = []
    for i in range(count):
        code = (
            engine.code_for("bakers", rng.randrange(1, 10**6), 4)
            if i % 2 == 0
            else engine.code_for("calculation", rng.randrange(1, 10**6))
        )
        game = engine.new_game(code)
        line = []
        for _ in range(60):
            legal = game.legal_moves()
            if not legal or game.is_won:
                break
            move = rng.choice(legal)
            game.play(move)
            line.append(game.moves[-1])
        games.append((code, line))
    return games


async def heartbeat(stop: asyncio.Event, worst: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(0.01)
        worst[0] = max(worst[0], loop.time() - before - 0.01)


async def measure(workers: int, seconds: float, concurrency: int, games: list[Any]) -> dict[str, float]:
    pool = RenderPool(workers)
    await pool.warm()
    labels = picture_labels("en")
    cursor = [0]
    live = [engine.new_game(code) for code, _ in games]  # as the bot keeps them (its game cache)

    def next_game() -> engine.Game[Any]:
        """The next game, one move further on (a new game when its line is used up)."""
        i = cursor[0] % len(games)
        cursor[0] += 1
        code, line = games[i]
        game = live[i]
        if len(game.moves) >= len(line):
            game = live[i] = engine.new_game(code)
        else:
            game.play(line[len(game.moves)])
        return game

    done = [0]
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        while time.perf_counter() < deadline:
            game = next_game()
            await pool.render(front_for(game.kind), game, highlight=None, labels=labels)
            done[0] += 1

    # a first round so every worker has imported everything before the clock starts
    await asyncio.gather(
        *(
            pool.render(front_for(g.kind), g, highlight=None, labels=labels)
            for g in (next_game() for _ in range(max(1, workers) * 2))
        )
    )
    stop, worst = asyncio.Event(), [0.0]
    beat = asyncio.create_task(heartbeat(stop, worst))
    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    elapsed = time.perf_counter() - start
    stop.set()
    await beat
    pool.close()
    return {"workers": workers, "renders_per_s": done[0] / elapsed, "worst_loop_stall_ms": worst[0] * 1000}


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args(argv)
    games = positions(args.games)
    print(f"{os.cpu_count()} cores, {args.concurrency} renders in flight, {args.seconds:g} s each")
    for workers in args.workers:
        row = await measure(workers, args.seconds, args.concurrency, games)
        label = "threads" if workers == 0 else f"{workers} worker{'s' if workers > 1 else ''}"
        print(
            f"{label:>10}: {row['renders_per_s']:7.1f} renders/s, "
            f"worst event-loop stall {row['worst_loop_stall_ms']:.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    asyncio.run(main())
