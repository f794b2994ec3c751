"""Calculation (Broken Intervals): rules, the hint player and a perfect-information search."""

from engine.calculation.game import CalculationGame
from engine.calculation.notation import parse_notation
from engine.calculation.position import CalculationMove, Position
from engine.calculation.rules import SEQUENCES, deal_cards, next_rank

__all__ = [
    "SEQUENCES",
    "CalculationGame",
    "CalculationMove",
    "Position",
    "deal_cards",
    "next_rank",
    "parse_notation",
]
