"""A FreeCell position: the shared FreeCell-family position (``engine.tableau``) with FreeCell's
build rule, a card on the next higher card of the opposite colour, and Microsoft's deals.

Safe auto-play (``safe_home``, ``auto_run``) uses the classic rule Microsoft's FreeCell uses:
a card goes home by itself when it is the next of its suit and both foundations of the other
colour hold at least its rank − 1 (aces always; a 2 once both aces of the other colour are
home). Why no win is lost: the only cards that could ever be put on such a card are the two
of the other colour one rank lower, and both are already home, which is final; so the card
can only be moved, never built on, and the argument of ``engine.solver.search`` (delete its
moves from any win: the rest still wins) shows the position with it home is winnable exactly
when the position before is. fc-solve's and Aisleriot's stricter variants send fewer cards;
this one is the one players of Microsoft's game know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from engine.cards import RANKS
from engine.errors import IllegalMove
from engine.freecell.deals import ms_deck
from engine.freecell.rules import OTHER_COLOUR, RED, auto_run, opposite_colour_below, safe_home
from engine.tableau.position import EMPTY, NUM_COLUMNS, TableauMove, TableauPosition, fit_table

if TYPE_CHECKING:
    from engine.solver.rules import Rules

FreeCellMove = TableauMove


class FreeCellPosition(TableauPosition):
    """Columns, free cells and foundations of FreeCell."""

    __slots__ = ()
    FIT = fit_table(opposite_colour_below)
    GAME_TITLE = "FreeCell"

    @classmethod
    def deal(cls, deal_number: int, cells: int) -> Self:
        """Microsoft's deal ``deal_number`` (1 to 1,000,000) with ``cells`` free cells."""
        return cls.from_deck(ms_deck(deal_number), cells)

    @classmethod
    def solver_rules(cls) -> Rules:
        """FreeCell's rules as the solver needs them (``engine.freecell.solving``)."""
        from engine.freecell.solving import RULES

        return RULES

    def auto_run(self) -> list[TableauMove]:
        """The cards safe auto-play sends home from here, one at a time, in the order they go
        (each may make the next safe), applied to this position."""
        return auto_run(self)

    @staticmethod
    def _beyond(card: int, top: int) -> bool:
        return top % 13 != 0 and card % 13 >= top % 13

    @staticmethod
    def _need_words(top: int) -> str:
        colour = "black" if RED[top // 13] else "red"
        return f"a {colour} {_rank_words(top % 13)}"

    @classmethod
    def _no_fit(cls, card: int, top: int) -> IllegalMove:
        """FreeCell's own reason, ``no_fit_colour``: the players' words for ``no_fit`` state
        Jeu du Boulanger's rule (the same suit), not this one."""
        refused = super()._no_fit(card, top)
        return IllegalMove(str(refused), "no_fit_colour", **refused.params)

    @staticmethod
    def _rule_words(card: int) -> str:
        if card % 13 == 12:
            return "of the opposite colour (none for a king)"
        colour = "black" if RED[card // 13] else "red"
        return f"of the opposite colour (a {colour} {_rank_words(card % 13 + 2)})"


def _rank_words(rank: int) -> str:
    """A rank as players read it on a card: ``A``, ``7``, ``10``, ``Q``."""
    return "10" if rank == 10 else RANKS[rank - 1]


__all__ = [
    "EMPTY",
    "NUM_COLUMNS",
    "OTHER_COLOUR",
    "FreeCellMove",
    "FreeCellPosition",
    "opposite_colour_below",
    "safe_home",
]
