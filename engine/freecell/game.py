"""FreeCell as a ``Game``: the shared FreeCell-family game (``engine.tableau.game``) on
FreeCell's position (alternating colours), Microsoft's deals, and safe auto-play.

Auto-play (``autoplay``, on by default, as in Microsoft's game; the bot turns it off per
player) is part of each move's action: a move and the cards it lets go home by themselves
are played as one batch, so the action log holds them (``27,1h,3h``), one undo takes them
all back, and each is counted and scored as itself (+10 a card home, as in Jeu du
Boulanger: the score keeps that game's rule). A replay plays the log as written, whatever
``autoplay`` says, so a stored game never changes when the setting does.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.codes import GameCode
from engine.freecell.position import FreeCellPosition
from engine.freecell.record import FREECELL
from engine.game import BATCH, UNDO, clean_input
from engine.tableau.game import TableauGame
from engine.tableau.position import TableauMove


class FreeCellGame(TableauGame[FreeCellPosition]):
    """FreeCell: eight columns building down in alternating colours, 4 to 1 free cells."""

    record = FREECELL

    def __init__(self, code: GameCode, *, autoplay: bool = True) -> None:
        super().__init__(code)
        self.autoplay = autoplay

    def deal_position(self, code: GameCode) -> FreeCellPosition:
        assert code.cells is not None
        return FreeCellPosition.deal(code.deal, code.cells)

    def auto_after(self, move: TableauMove) -> list[str]:
        """The notations safe auto-play would play after ``move`` (not played here)."""
        after = self.position.copy()
        after.apply(move)
        return [m.notation for m in after.auto_run()]

    def play(self, text: str) -> TableauMove:
        """One move and, with ``autoplay``, the cards it lets go home safely, as one action;
        returns the player's move. A batch or ``undo`` is played as given."""
        if not self.autoplay or not isinstance(text, str) or BATCH in text:
            return super().play(text)
        cleaned = clean_input(text)
        if cleaned.lower() == UNDO:
            return super().play(cleaned)
        move = self.resolve(cleaned)
        autos = self.auto_after(move)
        if not autos:
            return super().play(cleaned)
        return self.play_batch([move.notation, *autos])[0]

    def replay(self, moves: Iterable[str]) -> None:
        """The action log as written: auto-played cards are in it already."""
        saved, self.autoplay = self.autoplay, False
        try:
            super().replay(moves)
        finally:
            self.autoplay = saved
