"""Jeu du Boulanger (Baker's Game)."""

from engine.bakers.boardtext import export_board, import_board
from engine.bakers.game import BakersGame
from engine.bakers.notation import parse_notation
from engine.bakers.position import BakersMove, Position

__all__ = ["BakersGame", "BakersMove", "Position", "export_board", "import_board", "parse_notation"]
