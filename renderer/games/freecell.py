"""The FreeCell board: the shared eight-column board (``renderer.games.tableau``: cells a-d
and foundations on top, columns 1-8 below) under its own title; registered from its
record (``engine.freecell.record``)."""

from __future__ import annotations

from engine.freecell.record import FREECELL
from renderer.games.tableau import TableauBoard

BOARD = TableauBoard(FREECELL.kind, FREECELL.title)
