"""The FreeCell board: the shared eight-column board (``renderer.games.tableau``: cells a-d
and foundations on top, columns 1-8 below) under its own title; registered by
``renderer.games``."""

from __future__ import annotations

from engine.freecell import FreeCellGame
from renderer.games.tableau import TableauBoard

BOARD = TableauBoard(FreeCellGame.kind, "FreeCell")
