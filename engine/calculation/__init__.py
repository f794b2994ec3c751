"""Calculation (Broken Intervals): rules, the hint player and a perfect-information search."""

from engine.calculation.game import CalculationGame
from engine.calculation.hints import best_move
from engine.calculation.notation import parse_notation
from engine.calculation.perfect import SolveResult, solve
from engine.calculation.position import CalculationMove, Position
from engine.calculation.rules import SEQUENCES, deal_cards, next_rank

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
