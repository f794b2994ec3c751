"""Jeu du Boulanger (Baker's Game).

Its names are imported when first asked for (``engine.lazy``): reading its record
(``engine.bakers.record``) does not load the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.bakers.boardtext import export_board, import_board
    from engine.bakers.game import BakersGame
    from engine.bakers.notation import parse_notation
    from engine.bakers.position import BakersMove, Position

__getattr__ = lazy_names(
    __name__,
    {
        "export_board": "engine.bakers.boardtext",
        "import_board": "engine.bakers.boardtext",
        "BakersGame": "engine.bakers.game",
        "parse_notation": "engine.bakers.notation",
        "BakersMove": "engine.bakers.position",
        "Position": "engine.bakers.position",
    },
)

__all__ = ["BakersGame", "BakersMove", "Position", "export_board", "import_board", "parse_notation"]
