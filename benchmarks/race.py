"""25 players racing on one deal against the real bot process, through the local fake Discord.

One player posts ``/race``; the others press Join; the creator presses Start now.
Every player then opens their private board ("My board") and plays random legal
moves with the board's controls (Home when cards can go, else a one-press move,
now and then the "Another move…" menu), pausing a human "think time" between
presses. Prints p50/p95/max from interaction to final reply over every press
(joins, boards, moves), how often the standings message was edited and the
shortest gap between two of its edits (the throttle: ``BOULANGER_RACE_EDIT_SECONDS``,
5 s), and the machine's load.

    .venv/bin/python benchmarks/race.py [--players 25] [--moves 15] [--think 0.5 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.bot import _cpu_seconds, _double_tap, _menu_id, button
from bot.games.bakers import shipped_winnable
from engine.bakers import BakersGame
from tests.fakediscord import BotProcess, FakeDiscord


def race_button(message: Any, act: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith("q:") and c.endswith(f":{act}"))


async def race_moves(
    fake: FakeDiscord,
    user: Any,
    board: Any,
    code: str,
    moves: int,
    think: tuple[float, float],
    rng: random.Random,
) -> list[float]:
    """One racer's presses on their private board; their latencies in ms."""
    mirror = engine.new_game(code)
    assert isinstance(mirror, BakersGame)
    latencies: list[float] = []
    for _ in range(moves):
        current = fake.message(board.id)
        run = mirror.home_run()
        one_press = [p for p in mirror.places() if _double_tap(mirror, p)]
        menu = [o["value"] for c in current.walk() if c["type"] == 3 for o in c["options"]]
        await asyncio.sleep(rng.uniform(*think))
        if run:
            expected, result = (
                ",".join(run),
                await fake.click(user, current, button(current, "h"), timeout=30),
            )
        elif menu and (rng.random() < 0.2 or not one_press):
            expected = rng.choice(menu)
            result = await fake.select(user, current, _menu_id(current), [expected], timeout=30)
        elif one_press:
            place = rng.choice(one_press)
            expected = _double_tap(mirror, place) or ""
            result = await fake.click(user, current, button(current, place), timeout=30)
        else:
            break
        latencies.append(result.elapsed_ms or 0.0)
        if not result.ephemeral and not result.failed:
            mirror.play(expected)
    return latencies


async def main(ns: argparse.Namespace) -> int:
    rng = random.Random(ns.seed)
    code = str(engine.code_for("bakers", shipped_winnable(4)[0], 4))
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            proc = BotProcess(fake, db_path=Path(tmp) / "race.sqlite3", log_level="WARNING")
            await proc.start(timeout=60)
            try:
                users = [fake.add_user(f"racer{i}") for i in range(ns.players)]
                latencies: list[float] = []
                created = await fake.slash(users[0], "race", {"game": "bakers", "code": code}, timeout=30)
                lobby = created.message
                latencies.append(created.elapsed_ms or 0.0)

                async def join(user: Any) -> None:
                    await asyncio.sleep(rng.uniform(0, 3))  # they arrive over a few seconds
                    joined = await fake.click(
                        user, lobby, race_button(fake.message(lobby.id), "j"), timeout=30
                    )
                    latencies.append(joined.elapsed_ms or 0.0)

                await asyncio.gather(*(join(u) for u in users[1:]))
                cpu0 = _cpu_seconds(proc.process.pid) if proc.process else 0.0
                t0 = time.perf_counter()
                started = await fake.click(
                    users[0], lobby, race_button(fake.message(lobby.id), "s"), timeout=30
                )
                latencies.append(started.elapsed_ms or 0.0)
                while not any(c.endswith(":m") for c in fake.message(lobby.id).custom_ids()):
                    await asyncio.sleep(0.05)
                edits_before = len(fake.message(lobby.id).edit_times)

                async def racer(user: Any) -> None:
                    await asyncio.sleep(rng.uniform(0, 2))
                    shown = await fake.click(
                        user, lobby, race_button(fake.message(lobby.id), "m"), timeout=30
                    )
                    latencies.append(shown.elapsed_ms or 0.0)
                    moves = await race_moves(
                        fake,
                        user,
                        shown.message,
                        code,
                        ns.moves,
                        tuple(ns.think),
                        random.Random(rng.random()),
                    )
                    latencies.extend(moves)

                await asyncio.gather(*(racer(u) for u in users))
                await asyncio.sleep(6)  # the trailing standings edit
                wall = time.perf_counter() - t0
                cpu = (_cpu_seconds(proc.process.pid) if proc.process else 0.0) - cpu0
                times = fake.message(lobby.id).edit_times[edits_before:]
            finally:
                await proc.stop()
            violations = fake.take_violations()
    ordered = sorted(latencies)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    load = os.getloadavg()
    print(
        f"{ns.players} racers × {ns.moves} moves, think {ns.think[0]}–{ns.think[1]} s, {len(ordered)} presses"
    )
    print(f"latency ms: p50 {statistics.median(ordered):.0f}  p95 {p95:.0f}  max {ordered[-1]:.0f}")
    print(f"standings edits: {len(times)} in {wall:.0f} s, shortest gap {min(gaps, default=0):.2f} s")
    print(f"bot CPU {cpu:.1f} s over {wall:.0f} s; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"spec violations: {len(violations)}")
    return 0 if p95 <= ns.target and not violations else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=25)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0))
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--target", type=float, default=250.0, help="p95 goal in ms (exit 1 above it)")
    sys.exit(asyncio.run(main(parser.parse_args())))
