"""The floor under ``benchmarks/bot.py``: what a discord.py bot costs per press with no game.

Runs ``benchmarks/floor_bot.py`` (discord.py under uvloop, answering every press with a
real board's picture and a board's 18 buttons and 12-choice menu through its own
``edit_message``, nothing else) against the local fake Discord with the players, presses,
think time and double clicks of ``benchmarks/bot.py``, and prints the same CPU figures over
the bot's process tree: the part of ``bot.py``'s figure no game, database or picture code
can remove (the gateway, discord.py's parse of each interaction and its message, the
callback's upload, the event loop).

    .venv/bin/python benchmarks/floor.py [--card] [--players 50] [--moves 15] [--think 0.1 0.5]

``--card``: the message in the real bot's board form, one Components V2 card whose controls
are ``DynamicItem``s (discord.py rebuilds the message's layout to find the pressed item), all
through discord.py's public API as the bot now answers.
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
import renderer
from benchmarks.bot import _cpu_seconds
from tests.fakediscord import BotProcess, FakeDiscord


def board_picture() -> bytes:
    """A Jeu du Boulanger board a few moves in, as the real bot sends it."""
    game = engine.new_game(engine.code_for("bakers", 1000, 4))
    rng = random.Random(1)
    for _ in range(6):
        game.play(rng.choice(game.legal_moves()))
    return renderer.render_png(game)


async def run(players: int, moves: int, think: tuple[float, float], seed: int, card: bool) -> None:
    picture = Path(tempfile.mkdtemp()) / "board.png"
    picture.write_bytes(board_picture())
    async with FakeDiscord() as fake:
        bot = BotProcess(
            fake,
            db_path=picture.with_name("unused"),
            module="benchmarks.floor_bot",
            env={"BOULANGER_FLOOR_PNG": str(picture), "BOULANGER_FLOOR_CARD": "1" if card else "0"},
            log_level="WARNING",
        )
        await bot.start()
        assert bot.process is not None
        rng = random.Random(seed)
        latencies: list[float] = []
        failed = 0
        startup = _cpu_seconds(bot.process.pid)

        async def play(index: int) -> None:
            nonlocal failed
            user = fake.add_user(f"player{index}")
            await asyncio.sleep(rng.uniform(0, think[1]))
            dealt = await fake.slash(user, "deal", timeout=30)
            latencies.append(dealt.elapsed_ms or 0.0)
            assert dealt.message is not None
            for _ in range(moves):
                await asyncio.sleep(rng.uniform(*think))
                custom_id = f"floor:{rng.randrange(18)}"
                copies = 2 if rng.random() < 0.1 else 1  # a double click, as bot.py sends
                results = await asyncio.gather(
                    *(fake.click(user, dealt.message, custom_id, timeout=30) for _ in range(copies))
                )
                for result in results:
                    latencies.append(result.elapsed_ms or 0.0)
                    failed += bool(result.failed)

        began = time.perf_counter()
        await asyncio.gather(*(play(i) for i in range(players)))
        wall = time.perf_counter() - began
        total = _cpu_seconds(bot.process.pid)
        await bot.stop()
    for violation in fake.violations[:3]:
        print("violation:", str(violation)[:300])
    n = len(latencies)
    playing = total - startup
    way = "a Components V2 card of dynamic items" if card else "discord.py's edit_message and view"
    print(
        f"floor bot (discord.py, no game; {way}): players {players}, presses each {moves}, think {think[0]}-{think[1]} s"
    )
    print(
        f"interactions {n} in {wall:.1f} s; unanswered {failed}; Discord rule violations {len(fake.violations)}"
    )
    print(
        f"bot process tree CPU {total:.2f} s ({total / n * 1000:.2f} ms per interaction); "
        f"start-up {startup:.2f} s; while playing {playing:.2f} s ({playing / n * 1000:.2f} ms per interaction)"
    )
    q = statistics.quantiles(latencies, n=20)
    print(f"interaction -> reply: p50 {statistics.median(latencies):.0f} ms, p95 {q[18]:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--moves", type=int, default=15)
    ap.add_argument("--think", type=float, nargs=2, default=(0.1, 0.5), metavar=("LOW", "HIGH"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--card", action="store_true", help="the board as the real bot sends it (a v2 card)")
    ns = ap.parse_args()
    asyncio.run(run(ns.players, ns.moves, tuple(ns.think), ns.seed, ns.card))


if __name__ == "__main__":
    main()
