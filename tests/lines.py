"""A game's winning line from its own position, bounded by positions so it is the same on
any machine and under any load.

A game that solves itself (a ``solve(node_limit=…)`` method, as Klondike's) gives its own
line; the eight-column games hand their rules to ``engine.solver``. A game whose solver is
not yet its method may lend one from its test helpers (``tests/<kind>_boards.py``'s
``winning_line``), found by the game's kind, not its name.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.game import Game
from engine.solver.result import SolveResult

NODES = (
    2_000_000  # positions the first search may expand (a cap, never a clock: the same line under any load)
)


def solved(game: Game[Any], nodes: int = NODES) -> SolveResult:
    """The game's solver's answer from where ``game`` is, within ``nodes`` positions."""
    solve: Any = getattr(game, "solve", None) or _lent_solver(game)
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


def _lent_solver(game: Game[Any]) -> Any:
    try:
        helpers = importlib.import_module(f"tests.{game.kind}_boards")
    except ModuleNotFoundError:
        return None
    lent = getattr(helpers, "winning_line", None)
    return None if lent is None else lambda node_limit: lent(game, node_limit)
