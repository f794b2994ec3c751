"""A new FreeCell game without a number: a random Microsoft deal the solver has proven winnable.

Microsoft's deals are numbered, so a game without a number draws one and keeps it only once
the solver has won it at the cell count asked (almost every deal with 4 cells, fewer with 1).
The budget is nodes, not seconds, so the answer does not depend on the machine's load; the
bot calls this in its deal-search pool (it is CPU work).
"""

from __future__ import annotations

import random

from engine.codes import GameCode
from engine.freecell.deals import MS_DEALS
from engine.freecell.game import FreeCellGame
from engine.solver.result import WINNABLE
from engine.solver.solving import solve

NODE_LIMIT = 300_000  # a few seconds at most; most winnable deals take far fewer
TRIES = 40


def winnable_freecell_deal(
    cells: int, rng: random.Random | None = None, *, node_limit: int = NODE_LIMIT, tries: int = TRIES
) -> int | None:
    """A deal number (1 to 1,000,000) the solver won with ``cells`` free cells, or None when
    ``tries`` random draws found none within the budget."""
    draw = rng or random.SystemRandom()
    if cells not in FreeCellGame.cell_counts:
        raise ValueError(f"FreeCell is played with 4, 3, 2 or 1 free cells, not {cells}")
    for _ in range(tries):
        deal = draw.randint(MS_DEALS.low, MS_DEALS.high)
        game = FreeCellGame(GameCode(FreeCellGame.kind, FreeCellGame.versions[-1], deal, cells))
        if (
            solve(game.position, time_limit=None, node_limit=node_limit, compact=False, short=False).verdict
            == WINNABLE
        ):
            return deal
    return None
