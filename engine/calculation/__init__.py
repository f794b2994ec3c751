"""Calculation (Broken Intervals): rules, the hint player and a perfect-information search.

Its names are imported when first asked for (``engine.lazy``): reading its record
(``engine.calculation.record``) does not load the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.calculation.game import CalculationGame
    from engine.calculation.hints import best_move
    from engine.calculation.notation import parse_notation
    from engine.calculation.perfect import SolveResult, solve
    from engine.calculation.position import CalculationMove, Position
    from engine.calculation.rules import SEQUENCES, deal_cards, next_rank

__getattr__ = lazy_names(
    __name__,
    {
        "CalculationGame": "engine.calculation.game",
        "best_move": "engine.calculation.hints",
        "parse_notation": "engine.calculation.notation",
        "SolveResult": "engine.calculation.perfect",
        "solve": "engine.calculation.perfect",
        "CalculationMove": "engine.calculation.position",
        "Position": "engine.calculation.position",
        "SEQUENCES": "engine.calculation.rules",
        "deal_cards": "engine.calculation.rules",
        "next_rank": "engine.calculation.rules",
    },
)

__all__ = [
    "SEQUENCES",
    "CalculationGame",
    "CalculationMove",
    "Position",
    "SolveResult",
    "best_move",
    "deal_cards",
    "next_rank",
    "parse_notation",
    "solve",
]
