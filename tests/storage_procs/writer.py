"""A bot-like writer for the durability test: plays legal moves and acknowledges each one.

    python -m tests.storage_procs.writer DB SEED GAMES

Keeps GAMES players (owners 1..GAMES, one asyncio task each, writing at the
same time) each with an active Jeu du Boulanger game, appends random legal moves (and some undos) chosen by a seeded random
source, and prints ``ACK <game id> <index> <action>`` only after the move is
committed, like the bot acknowledging a click. Finished games print ``FIN``
and a new game starts. Runs until killed.
"""

from __future__ import annotations

import asyncio
import random
import sys

import engine
import storage


async def main(path: str, seed: int, players: int) -> None:
    store = await storage.open_store(path)
    # One task per player, all writing at once, so commits are shared (group commit).
    await asyncio.gather(
        *(player(store, owner, random.Random(seed * 1000 + owner)) for owner in range(1, players + 1))
    )


async def player(store: storage.Store, owner: int, rng: random.Random) -> None:
    row = await store.active_game(owner, "bakers")
    if row is None:
        row = await new_game(store, owner, rng)
    game = engine.replay(row.code, row.moves)
    while True:
        action = choose(game, rng)
        if action is None:
            status = "won" if game.is_won else "lost"
            row = await store.finish_game(
                row.id, row.version, status, score=game.score, move_count=game.move_count
            )
            print(f"FIN {row.id} {status}", flush=True)
            row = await new_game(store, owner, rng)
            game = engine.new_game(row.code)
            continue
        game.play(action)
        finish = "won" if game.is_won else None
        row = await store.append_move(
            row.id, row.version, action, score=game.score, move_count=game.move_count, finish=finish
        )
        print(f"ACK {row.id} {len(row.moves) - 1} {action}", flush=True)
        if finish:
            row = await new_game(store, owner, rng)
            game = engine.new_game(row.code)


def choose(game: engine.Game, rng: random.Random) -> str | None:
    """A legal move, sometimes an undo; None when the game is over (or stuck with nothing to undo)."""
    if game.is_won or game.is_lost:
        return None
    legal = list(game.legal_moves())
    if game.undo_depth and (not legal or rng.random() < 0.08):
        return engine.UNDO
    if not legal or len(game.moves) > 400:
        return None
    return rng.choice(legal)


async def new_game(store: storage.Store, owner: int, rng: random.Random) -> storage.GameRow:
    code = engine.code_for("bakers", rng.randrange(1 << 20), 4)
    return await store.create_game("bakers", code, owner, 1, 2, variant="4")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
