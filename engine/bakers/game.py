"""Jeu du Boulanger as a ``Game``: the shared FreeCell-family game (``engine.tableau.game``)
on Baker's position (same-suit building) and dealing version 1."""

from __future__ import annotations

from engine.bakers.position import Position
from engine.bakers.record import BAKERS
from engine.codes import GameCode
from engine.tableau.game import NOT_WON_BASE, TableauGame


class BakersGame(TableauGame[Position]):
    """Baker's Game: FreeCell's layout, building down in the same suit."""

    record = BAKERS

    def deal_position(self, code: GameCode) -> Position:
        assert code.cells is not None
        return Position.deal(code.deal, code.cells)


__all__ = ["NOT_WON_BASE", "BakersGame"]
