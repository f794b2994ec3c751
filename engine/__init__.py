"""Boulanger's rules engine: pure Python, no I/O. See docs/ARCHITECTURE.md.

import engine
game = engine.new_game("BK1-C4-AAAAA24")
game.play("3h")

The games' codes are known from the start; each game's modules are imported when it is
first played (``engine.registry.declare``), and ``engine.BakersGame`` and the like import
theirs when first named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.codes import CodeSpec, GameCode, OptionPart, make_code, parse_code
from engine.errors import BoardTextError, CodeError, EngineError, IllegalMove
from engine.freecell.deals import MS_DEALS
from engine.game import UNDO, UNDO_LIMIT, Finish, Game, Move, Outcome
from engine.lazy import lazy_names
from engine.registry import GAMES, code_for, declare, new_game, register, replay

if TYPE_CHECKING:
    from engine.bakers import BakersGame
    from engine.calculation import CalculationGame
    from engine.freecell import FreeCellGame
    from engine.klondike import KlondikeGame

declare(
    "engine.bakers:BakersGame",
    kind="bakers",
    prefix="BK",
    title="Jeu du Boulanger",
    versions=(1,),
    has_cells=True,
)
declare(
    "engine.calculation:CalculationGame",
    kind="calculation",
    prefix="CA",
    title="Calculation",
    versions=(1,),
    has_cells=False,
)
declare(
    "engine.freecell:FreeCellGame",
    kind="freecell",
    prefix="FC",
    title="FreeCell",
    versions=(1,),
    has_cells=True,
    cell_counts=(4, 3, 2, 1),
    deals=MS_DEALS,
)
declare(
    "engine.klondike:KlondikeGame",
    kind="klondike",
    prefix="KL",
    title="Klondike",
    versions=(1,),
    has_cells=True,
    cell_counts=(1, 3),
    option=OptionPart("D", "draw", "draw", "cards drawn"),
)

# ``engine.BakersGame`` and the other game classes, imported when first named.
__getattr__ = lazy_names(
    __name__,
    {
        "BakersGame": "engine.bakers",
        "CalculationGame": "engine.calculation",
        "FreeCellGame": "engine.freecell",
        "KlondikeGame": "engine.klondike",
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
    "KlondikeGame",
    "Move",
    "Outcome",
    "code_for",
    "make_code",
    "new_game",
    "parse_code",
    "register",
    "replay",
]
