"""Which ``Game`` class plays which code: the one place a new game is registered.

A third game is a new engine module with a ``Game`` subclass declaring its
``kind``, ``title``, ``code_prefix``, ``versions`` and ``has_cells``, and one
``register(ThatGame)`` call (see ``engine/__init__.py``): codes are parsed and
written from what is registered here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from engine.codes import GameCode, make_code, parse_code, register_code, unregister_code
from engine.game import Game

# Any: each class plays its own move type (Game is invariant in it: undo takes moves back in).
GAMES: dict[str, type[Game[Any]]] = {}
G = TypeVar("G", bound=Game[Any])


def register(cls: type[G]) -> type[G]:
    """Make a game class play its codes (usable as a class decorator)."""
    register_code(
        cls.kind,
        cls.code_prefix,
        title=cls.title,
        versions=tuple(cls.versions),
        has_cells=cls.has_cells,
        cell_counts=tuple(cls.cell_counts),
        deals=cls.deal_form,
    )
    GAMES[cls.kind] = cls
    return cls


def unregister(kind: str) -> None:
    """Forget a game (its class and its codes): for a game registered for a while, in tests."""
    GAMES.pop(kind, None)
    unregister_code(kind)


def new_game(code: str | GameCode) -> Game[Any]:
    """A fresh game from a code; ``engine.CodeError`` on a bad code."""
    gc = code if isinstance(code, GameCode) else parse_code(code)
    return GAMES[gc.kind](gc)


def replay(code: str | GameCode, moves: Iterable[str]) -> Game[Any]:
    """Rebuild a game from its persistent form (code + action log)."""
    game = new_game(code)
    game.replay(moves)
    return game


def code_for(kind: str, deal: int, cells: int | None = None) -> str:
    return str(make_code(kind, deal, cells))
