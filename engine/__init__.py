"""Boulanger's rules engine: pure Python, no I/O. See docs/ARCHITECTURE.md.

import engine
game = engine.new_game("BK1-C4-AAAAA24")
game.play("3h")
"""

from engine.bakers import BakersGame
from engine.calculation import CalculationGame
from engine.codes import CodeSpec, GameCode, make_code, parse_code
from engine.errors import BoardTextError, CodeError, EngineError, IllegalMove
from engine.freecell import FreeCellGame
from engine.game import UNDO, UNDO_LIMIT, Finish, Game, Move, Outcome
from engine.registry import GAMES, code_for, new_game, register, replay

register(BakersGame)
register(CalculationGame)
register(FreeCellGame)

__all__ = [
    "GAMES",
    "UNDO",
    "UNDO_LIMIT",
    "BakersGame",
    "BoardTextError",
    "CalculationGame",
    "CodeError",
    "CodeSpec",
    "EngineError",
    "Finish",
    "FreeCellGame",
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
