"""Jeu du Boulanger solver: proofs of (un)solvability, hints, par and winnable deals.

Use ``solve(game_or_position, time_limit=5)`` for a ``SolveResult`` (verdict,
moves, seconds, nodes) and ``hint(game, time_limit=1)`` for a ``Hint``. In a
process pool, call the plain-dict functions ``solve_code`` and ``hint_code``.
"""

from engine.solver.api import (
    DEFAULT_TIME_LIMIT,
    SolverError,
    hint,
    hint_code,
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
    "hint_code",
    "par",
    "shorten",
    "solve",
    "solve_code",
    "to_notation",
]
