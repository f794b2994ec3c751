"""Which ``Game`` class plays which code: the one place a new game is registered."""

from __future__ import annotations

from collections.abc import Iterable

from engine.codes import GameCode, make_code, parse_code
from engine.game import Game

GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    GAMES[cls.kind] = cls
    return cls


def new_game(code: str | GameCode) -> Game:
    """A fresh game from a code; ``engine.CodeError`` on a bad code."""
    gc = code if isinstance(code, GameCode) else parse_code(code)
    return GAMES[gc.kind](gc)


def replay(code: str | GameCode, moves: Iterable[str]) -> Game:
    """Rebuild a game from its persistent form (code + action log)."""
    game = new_game(code)
    game.replay(moves)
    return game


def code_for(kind: str, deal: int, cells: int | None = None) -> str:
    return str(make_code(kind, deal, cells))
