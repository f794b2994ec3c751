"""The Jeu du Boulanger board: the shared eight-column board (``renderer.games.tableau``:
cells a-d and foundations on top, columns 1-8 below) under its own title; registered by
``renderer.games``."""

from __future__ import annotations

from engine.bakers import BakersGame
from renderer.games.tableau import TableauBoard

BOARD = TableauBoard(BakersGame.kind, "Jeu du Boulanger")
