"""Boulanger's rules engine: pure Python, no I/O. See docs/ARCHITECTURE.md.

import engine
game = engine.new_game("BK1-C4-AAAAA24")
game.play("3h")

The games' codes are known from the start (their records, ``engine.games.RECORDS``); each
game's modules are imported when it is first played (``engine.registry.declare``); a game's
class is its package's (``engine.bakers.BakersGame``).
"""

from __future__ import annotations

from engine.codes import CodeSpec, GameCode, make_code, parse_code
from engine.errors import BoardTextError, CodeError, EngineError, IllegalMove
from engine.game import UNDO, UNDO_LIMIT, Finish, Game, Move, Outcome
from engine.games import RECORDS
from engine.registry import GAMES, code_for, declare, new_game, register, replay

for _record in RECORDS:
    declare(_record)

__all__ = [
    "GAMES",
    "UNDO",
    "UNDO_LIMIT",
    "BoardTextError",
    "CodeError",
    "CodeSpec",
    "EngineError",
    "Finish",
    "Game",
    "GameCode",
    "IllegalMove",
    "Move",
    "Outcome",
    "code_for",
    "make_code",
    "new_game",
    "parse_code",
    "register",
    "replay",
]
