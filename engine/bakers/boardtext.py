"""Jeu du Boulanger positions as fc-solve board text, both ways (``engine.tableau.boardtext``)."""

from __future__ import annotations

from engine.bakers.position import Position
from engine.tableau.boardtext import MAX_BOARD_TEXT, export_board, read_board


def import_board(text: str, cells: int | None = None) -> Position:
    """Read a board; ``cells`` (4, 2 or 1) defaults to the Freecells line's length, else 4."""
    return read_board(text, cells, Position)


__all__ = ["MAX_BOARD_TEXT", "export_board", "import_board"]
