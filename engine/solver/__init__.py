"""Jeu du Boulanger solver: proofs of (un)solvability, hints, par and winnable deals.

from engine.solver import solve, hint
result = solve(game, time_limit=5)   # SolveResult(verdict, moves, seconds, nodes)
advice = hint(game, time_limit=1)    # Hint(status, move, undos, ...)
"""

from engine.solver.api import (
    DEFAULT_TIME_LIMIT,
    SolverError,
    hint,
    par,
    shorten,
    solve,
    solve_code,
    to_notation,
)
from engine.solver.result import SOLVABLE, UNKNOWN, UNSOLVABLE, Hint, SolveResult

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "SOLVABLE",
    "UNKNOWN",
    "UNSOLVABLE",
    "Hint",
    "SolveResult",
    "SolverError",
    "hint",
    "par",
    "shorten",
    "solve",
    "solve_code",
    "to_notation",
]
