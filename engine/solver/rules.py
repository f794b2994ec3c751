"""What the solver needs of a game's rules (``Rules``), and how it finds a position's.

The solver names no game: each game hands it its ``Rules`` from its own package, through its
position class's ``solver_rules()`` (Jeu du Boulanger's in ``engine.bakers.solving``,
FreeCell's in ``engine.freecell.solving``). A game of the same
layout (eight columns, free cells, four foundations) gets the search, hints, verdicts and
par by writing its own ``Rules``, with no change here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.tableau.position import TableauMove, TableauPosition

ColumnInfo = tuple[int, tuple[int, ...]]  # (disorder, for each card 0..52: cards lying on it here)

NO_CARD = 52  # the "next card" of a finished suit: no column holds it


@dataclass(frozen=True, slots=True)
class Rules:
    """What the search needs of a game's rules.

    The moves: ``onto[c]``, the cards card ``c`` may be put on in a column (ascending);
    ``home_steps``, whether moves home that do not settle are steps of their own (FreeCell).

    Settling: ``settle`` sends home, in place, every card that may go by itself (the cards
    whose moves any win can do without, see ``engine.solver.search``) and returns them in
    order; ``goes_home(c, found)``: whether a freshly uncovered card does.

    The estimate (the best-first order; lower is expanded first) is a sum over the columns
    plus terms for the cells and foundations, so that a step, which changes one or two
    columns, changes only their terms: ``column_info(col)`` gives a column's disorder and,
    for each card, how many cards lie on it in that column (worked out once per column and
    cached); ``weights`` = (disorder, cell used, empty column, card home, cards on the next
    card of each suit), see ``search.estimate``.

    ``step_price``: when set, a win once found is looked for again, shorter, by a second
    search ordered by the estimate plus this price per step taken, in units of the estimate
    (``solving.solve``); None keeps the first win.

    ``auto_play``: the moves the game plays by itself after a player's move when its
    auto-play is on (applied to the position, returned in order), or None for a game that
    plays none. The solver writes a line as such a player presses it (``lines.as_pressed``):
    the moves home auto-play makes left out."""

    name: str
    onto: tuple[tuple[int, ...], ...]
    settle: Callable[[list[bytes], list[int], list[int]], list[int]]
    goes_home: Callable[[int, list[int]], bool]
    home_steps: bool
    column_info: Callable[[bytes], ColumnInfo]
    weights: tuple[int, int, int, int, int]
    step_price: int | None = None
    auto_play: Callable[[TableauPosition], list[TableauMove]] | None = None


def rules_of(pos: TableauPosition) -> Rules:
    """The search rules of a position's game, as its position class hands them
    (``solver_rules()``, a class method); ``TypeError`` for a game that hands none."""
    hand = getattr(type(pos), "solver_rules", None)
    if hand is None:
        raise TypeError(f"the solver has no rules for {type(pos).__name__}")
    rules: Rules = hand()
    return rules


Sits = tuple[tuple[bool, ...], ...]  # sits[top][card]: whether ``card`` on ``top`` is in order


def sits_table(in_order: Callable[[int, int], bool]) -> Sits:
    """``in_order(card, top)`` for every pair of cards, as a table (``column_disorder``)."""
    return tuple(tuple(in_order(card, top) for card in range(52)) for top in range(52))


def column_disorder(col: bytes, sits: Sits) -> int:
    """How badly a column is ordered, for a game's estimate: cards that must leave it before a
    lower card of their suit can go home (weighted 2), plus cards not sitting in order on the
    card below (``sits``, the game's)."""
    cost = 0
    lowest = [99, 99, 99, 99]
    prev = -1
    for c in col:
        s = c // 13
        if lowest[s] < c:
            cost += 2
        elif c < lowest[s]:
            lowest[s] = c
        if prev >= 0 and not sits[prev][c]:
            cost += 1
        prev = c
    return cost


def column_depths(col: bytes) -> tuple[int, ...]:
    """For each card 0..52, how many cards lie on it in ``col`` (0 when it is not there)."""
    depth = [0] * (NO_CARD + 1)
    n = len(col)
    for i, c in enumerate(col):
        depth[c] = n - 1 - i
    return tuple(depth)
