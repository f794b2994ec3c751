"""Klondike in the Activity, for the tests: its registered front (with its table,
``KlondikeTable``) and games played at random or greedily."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import engine
from bot import games
from engine.klondike import KlondikeGame


def klondike_front() -> Any:
    return games.front_for("klondike")


@contextlib.contextmanager
def klondike_in_activity() -> Iterator[Any]:
    """The bot's Klondike front, offered in the Activity."""
    front = klondike_front()
    assert front.in_activity
    yield front


def walk(code: str, steps: int, seed: int, *, undo: float = 0.1) -> Iterator[KlondikeGame]:
    """A game played at random from ``code`` (stock turns made rarer, undos now and then),
    yielded after every action."""
    game = engine.new_game(code)
    assert isinstance(game, KlondikeGame)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        if game.undo_depth and rng.random() < undo:
            game.undo()
        else:
            legal = game.legal_moves()
            others = [m for m in legal if m != "s"]
            game.play(rng.choice(others) if others and rng.random() < 0.7 else rng.choice(legal))
        yield game


def greedy_move(game: KlondikeGame) -> str | None:
    """The engine's tests' greedy player (tests/test_klondike_finish.py), one move: a card home
    (not back from home), else a move that turns a card up, else the waste onto a pile, else
    ``s``; None when none of these is legal. It wins KL1-D1-AAAAAAC and KL1-D3-AAAAAAQ."""
    moves = [m for m in game.legal_move_objects() if m.notation != "s"]
    ranked = [m for m in moves if m.dst_kind == "h" and m.src_kind != "h"]
    ranked += [m for m in moves if m.turns_up] + [m for m in moves if m.src_kind == "w" and m.dst_kind == "p"]
    if ranked:
        return ranked[0].notation
    return "s" if game.is_legal("s") else None
