"""Seeded random legal action logs, shared by the renderer tests and benchmarks."""

from __future__ import annotations

import random

import engine


def random_actions(code: str, count: int, seed: int = 11) -> list[str]:
    """A legal action log of ``count`` entries at most: random moves, with an undo now and then."""
    game, rng, actions = engine.new_game(code), random.Random(seed), []
    while len(actions) < count:
        moves = game.legal_moves()
        if game.undo_depth and (not moves or rng.random() < 0.1):
            try:
                game.undo()
                actions.append("undo")
                continue
            except engine.IllegalMove:
                pass
        if not moves:
            break
        actions.append(game.play(rng.choice(moves)).notation)
    return actions
