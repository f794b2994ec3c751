"""What Jeu du Boulanger and FreeCell share: the eight-column layout with free cells, group-move
capacity, places, notation, refusals, taps, the Home run and board text. Each game adds its
build rule (a ``TableauPosition`` subclass) and its deal (a ``TableauGame`` subclass)."""

from engine.tableau.game import TableauGame
from engine.tableau.position import EMPTY, NUM_COLUMNS, TableauMove, TableauPosition, fit_table

__all__ = ["EMPTY", "NUM_COLUMNS", "TableauGame", "TableauMove", "TableauPosition", "fit_table"]
