"""Jeu du Boulanger solver: proofs of (un)solvability, hints, par and winnable deals.

Use ``solve(game_or_position, time_limit=5)`` for a ``SolveResult`` (verdict,
moves, seconds, nodes) and ``hint(game, time_limit=1)`` for a ``Hint`` (never back to a position the game
has been in: see ``engine.solver.api.hint``). In a
process pool, call the plain-dict functions ``solve_code`` and ``hint_code``.
"""

from engine.solver.api import (
    DEFAULT_TIME_LIMIT,
    SolverError,
    clear_plans,
    hint,
    hint_code,
    line_keys,
    par,
    position_key,
    shorten,
    solve,
    solve_code,
    standing_code,
    to_notation,
    visited_keys,
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
    "clear_plans",
    "hint",
    "hint_code",
    "line_keys",
    "par",
    "position_key",
    "shorten",
    "solve",
    "solve_code",
    "standing_code",
    "to_notation",
    "visited_keys",
]
