"""One of two processes racing on the same game for the concurrency test.

    python -m tests.storage_procs.racer DB GAME_ID COUNT TAG START_AT

Waits until the wall-clock time START_AT (so both racers really overlap), then
COUNT times: reads the game, pauses a moment (a user's click in flight), and
appends ``<TAG><i>`` with the version it read, retrying on a version conflict.
Prints the number of conflicts it met.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

import storage


async def main(path: str, game_id: int, count: int, tag: str, start_at: float) -> None:
    store = await storage.open_store(path)
    rng = random.Random(tag)
    conflicts = 0
    time.sleep(max(0.0, start_at - time.time()))
    for i in range(count):
        while True:
            game = await store.get_game(game_id)
            await asyncio.sleep(rng.random() * 0.002)
            try:
                await store.append_move(game_id, game.version, f"{tag}{i}", score=i, move_count=i)
                break
            except storage.VersionConflict:
                conflicts += 1
    await store.close()
    print(conflicts, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])))
