"""Jeu du Boulanger move notation: FreeCell's, shared with FreeCell (``engine.tableau.notation``)."""

from engine.tableau.notation import (
    CELL,
    CELL_LETTERS,
    COLUMN,
    COLUMN_DIGITS,
    FOUNDATION,
    MAX_GROUP,
    ParsedMove,
    format_notation,
    parse_notation,
    place_name,
)

__all__ = [
    "CELL",
    "CELL_LETTERS",
    "COLUMN",
    "COLUMN_DIGITS",
    "FOUNDATION",
    "MAX_GROUP",
    "ParsedMove",
    "format_notation",
    "parse_notation",
    "place_name",
]
