"""A game's winning line from its own position, bounded by positions so it is the same on
any machine and under any load.

A game that solves itself (a ``solve(node_limit=…)`` method, as Klondike's) gives its own
line; the eight-column games hand their rules to ``engine.solver``.
"""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.solver.result import SolveResult

NODES = (
    2_000_000  # positions the first search may expand (a cap, never a clock: the same line under any load)
)


def solved(game: Game[Any], nodes: int = NODES) -> SolveResult:
    """The game's solver's answer from where ``game`` is, within ``nodes`` positions."""
    solve: Any = getattr(game, "solve", None)
    if solve is not None:
        result: SolveResult = solve(node_limit=nodes)
        return result
    from engine.solver import solve as solve_tableau

    return solve_tableau(game, time_limit=None, node_limit=nodes)


def winning_line(game: Game[Any], nodes: int = NODES) -> list[str]:
    """The moves that win ``game`` from where it is; ``AssertionError`` when none is found."""
    result = solved(game, nodes)
    assert result.verdict == "winnable", f"{game.code}: {result.verdict} within {nodes} positions"
    return list(result.moves)
