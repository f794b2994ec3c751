"""FreeCell's build rule and safe auto-play, on any eight-column position: what its position
(``engine.freecell.position``) and the solver's rules for it (``engine.freecell.solving``)
both use. Why safe auto-play loses no win: ``engine.freecell.position``."""

from __future__ import annotations

from engine.tableau.notation import FOUNDATION
from engine.tableau.position import TableauMove, TableauPosition

RED = (False, True, True, False)  # by suit index, SUITS order S H D C
# For each suit, the two suits of the other colour.
OTHER_COLOUR = tuple(tuple(o for o in range(4) if RED[o] != RED[s]) for s in range(4))


def opposite_colour_below(card: int, top: int) -> bool:
    """FreeCell's build rule: ``card`` goes on ``top`` when ``top`` is one rank higher and of the
    other colour."""
    return top % 13 == card % 13 + 1 and RED[top // 13] != RED[card // 13]


def safe_home(card: int, found: list[int]) -> bool:
    """Whether ``card`` is the next of its suit and safe to send home by itself."""
    rank = card % 13  # 0 for an ace: the cards of its suit already home
    if found[card // 13] != rank:
        return False
    a, b = OTHER_COLOUR[card // 13]
    return found[a] >= rank and found[b] >= rank


def auto_run(pos: TableauPosition) -> list[TableauMove]:
    """The cards safe auto-play sends home from ``pos``, one at a time, in the order they go
    (each may make the next safe), applied to it."""
    run: list[TableauMove] = []
    while True:
        move = next((m for m in pos.moves(dst=(FOUNDATION, 0)) if safe_home(m.cards[0], pos.found)), None)
        if move is None:
            return run
        pos.apply(move)
        run.append(move)
