"""Jeu du Boulanger solver: proofs of (un)solvability, hints, par and winnable deals.

Use ``solve(game_or_position, time_limit=5)`` for a ``SolveResult`` (verdict,
moves, seconds, nodes) and ``hint(game, time_limit=1)`` for a ``Hint`` (never back to a position the game
has been in: see ``engine.solver.hints.hint``). In a
process pool, call the plain-dict functions ``solve_code`` and ``hint_code``.
"""

from engine.solver.hints import clear_plans, hint, hint_code, visited_keys
from engine.solver.lines import shorten, to_notation
from engine.solver.positions import line_keys, position_key
from engine.solver.result import SOLVABLE, UNKNOWN, UNSOLVABLE, Hint, SolverError, SolveResult
from engine.solver.solving import DEFAULT_TIME_LIMIT, par, solve, solve_code
from engine.solver.standing import standing_code

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
