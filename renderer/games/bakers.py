"""The Jeu du Boulanger board: the shared eight-column board (``renderer.games.tableau``:
cells a-d and foundations on top, columns 1-8 below) under its own title; registered from its
record (``engine.bakers.record``)."""

from __future__ import annotations

from engine.bakers.record import BAKERS
from renderer.games.tableau import TableauBoard

BOARD = TableauBoard(BAKERS.kind, BAKERS.title)
