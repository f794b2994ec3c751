"""Boulanger's rules engine: pure Python, no I/O. See docs/ARCHITECTURE.md.

import engine
game = engine.new_game("BK1-C4-AAAAA24")
game.play("3h")

The games' codes are known from the start (their records, ``engine.games.RECORDS``); each
game's modules are imported when it is first played (``engine.registry.declare``), and
``engine.BakersGame`` and the like import theirs when first named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.codes import CodeSpec, GameCode, make_code, parse_code
from engine.errors import BoardTextError, CodeError, EngineError, IllegalMove
from engine.game import UNDO, UNDO_LIMIT, Finish, Game, Move, Outcome
from engine.games import RECORDS
from engine.lazy import lazy_names
from engine.registry import GAMES, code_for, declare, new_game, register, replay

if TYPE_CHECKING:
    from engine.bakers import BakersGame
    from engine.calculation import CalculationGame
    from engine.freecell import FreeCellGame

for _record in RECORDS:
    declare(_record)

# ``engine.BakersGame`` and the other game classes, imported when first named.
__getattr__ = lazy_names(
    __name__,
    {
        "BakersGame": "engine.bakers",
        "CalculationGame": "engine.calculation",
        "FreeCellGame": "engine.freecell",
    },
)


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
